#include "hetcoll/mpi/split_broadcast.h"

#include <map>
#include <utility>

#include <fmt/format.h>

#include "hetcoll/mpi/datatype_buffer.h"
#include "hetcoll/mpi/exchange.h"
#include "hetcoll/mpi/split_common_internal.h"

namespace hetcoll::mpi {

namespace {

// The structure the runtime relies on (verify_split_broadcast checks the
// same and the times besides); throws InputError naming `source_name`.
void check_split_structure(const SplitBroadcastPlan& plan, std::size_t member_count, std::string_view source_name) {
  const std::size_t k = plan.members.size();
  split_common::check_pieces(k, member_count, plan.chunks, plan.elements, plan.pieces, source_name);
  if (plan.source >= k) throw InputError(fmt::format("{}: source {} out of range", source_name, plan.source));
  const std::size_t chunks = plan.chunks;
  std::vector<char> received(plan.pieces.size() * chunks * k, 0);
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const auto& t = plan.transfers[i];
    if (t.piece >= plan.pieces.size() || t.chunk >= chunks || t.from >= k || t.to >= k || t.from == t.to ||
        t.to == plan.source || split_chunk_range(plan.pieces[t.piece].elements, chunks, t.chunk).second == 0) {
      throw InputError(fmt::format("{}: transfers[{}]: out of range, to itself or to the source, or an empty chunk",
                                   source_name, i));
    }
    if (t.from != plan.source && t.from != plan.pieces[t.piece].spreader) {
      throw InputError(fmt::format("{}: transfers[{}]: member {} sends a piece it does not spread", source_name, i, t.from));
    }
    char& got = received[(t.piece * chunks + t.chunk) * k + t.to];
    if (got) throw InputError(fmt::format("{}: transfers[{}]: member {} receives that chunk twice", source_name, i, t.to));
    got = 1;
  }
  for (std::size_t p = 0; p < plan.pieces.size(); ++p) {
    for (std::size_t c = 0; c < chunks; ++c) {
      if (split_chunk_range(plan.pieces[p].elements, chunks, c).second == 0) continue;
      for (std::size_t member = 0; member < k; ++member) {
        if (member != plan.source && !received[(p * chunks + c) * k + member]) {
          throw InputError(fmt::format("{}: member {} never receives chunk {} of piece {}", source_name, member, c, p));
        }
      }
    }
  }
}

}  // namespace

ExecutableSplitBroadcast ExecutableSplitBroadcast::prepare(MPI_Comm comm, const SplitBroadcastPlan& plan,
                                                           const std::vector<std::string>& member_ids,
                                                           const RankMapping& mapping, const RuntimeOptions& options,
                                                           std::string_view source_name) {
  return prepare(std::make_shared<PrivateCommunicator>(comm, options.timeout_seconds), plan, member_ids, mapping,
                 options, source_name);
}

ExecutableSplitBroadcast ExecutableSplitBroadcast::prepare(std::shared_ptr<PrivateCommunicator> communicator,
                                                           const SplitBroadcastPlan& plan,
                                                           const std::vector<std::string>& member_ids,
                                                           const RankMapping& mapping, const RuntimeOptions& options,
                                                           std::string_view source_name) {
  ExecutableSplitBroadcast result;
  result.communicator_ = std::move(communicator);
  result.plan_ = plan;
  result.options_ = options;
  const int rank = result.communicator_->rank();
  prepare_collectively(result.communicator_->get(), mapping, member_ids, source_name, options.timeout_seconds,
                       [&](const std::vector<ProcessorIndex>& member_of_rank) {
    check_split_structure(plan, member_ids.size(), source_name);
    const auto rank_of = split_common::ranks_of_members(member_of_rank, member_ids.size());
    const auto me = static_cast<std::size_t>(member_of_rank[static_cast<std::size_t>(rank)]);
    result.root_rank_ = rank_of[plan.source];
    PlanHash hash;
    split_common::hash_pieces(hash, plan.elements, plan.chunks, plan.pieces);
    hash.add(plan.source);
    std::map<std::pair<std::size_t, std::size_t>, std::size_t> receive_of;  // (piece, chunk) -> index
    for (const auto& t : plan.transfers) {
      hash.add(t.piece << 40 ^ t.chunk << 24 ^ t.from << 12 ^ t.to);
      const auto& piece = plan.pieces[t.piece];
      const auto [offset, count] = split_chunk_range(piece.elements, plan.chunks, t.chunk);
      Message message{piece.first + offset, static_cast<int>(count), 0, t.start, npos};
      if (t.to == me) {
        message.peer = rank_of[t.from];
        receive_of[{t.piece, t.chunk}] = result.receives_.size();
        result.receives_.push_back(message);
      }
    }
    for (const auto& t : plan.transfers) {
      if (t.from != me) continue;
      const auto& piece = plan.pieces[t.piece];
      const auto [offset, count] = split_chunk_range(piece.elements, plan.chunks, t.chunk);
      Message message{piece.first + offset, static_cast<int>(count), rank_of[t.to], t.start, npos};
      if (me != plan.source) {
        auto held = receive_of.find({t.piece, t.chunk});
        if (held == receive_of.end()) {
          throw InputError(fmt::format("{}: member {} sends chunk {} of piece {} it never receives", source_name, me,
                                       t.chunk, t.piece));
        }
        message.wait_for = held->second;
      }
      result.sends_.push_back(message);
    }
    return hash.value();
  });
  return result;
}

int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
          const ExecutableSplitBroadcast& plan) {
  constexpr std::string_view call = "hetcoll::mpi::bcast (split)";
  split_common::check_call(comm, plan.user_communicator(), count, plan.plan().elements, call);
  if (root != plan.root_rank()) {
    throw MismatchError(fmt::format("{}: root {} given, but the plan's source is rank {}", call, root, plan.root_rank()));
  }
  Exchange exchange(plan.communicator(), plan.user_communicator(), plan.options(), call);
  const auto layout = DatatypeLayout::of(datatype);
  const auto& receives = plan.receives();
  std::vector<MPI_Request> receive_requests;
  receive_requests.reserve(receives.size());
  for (const auto& message : receives) {
    receive_requests.push_back(exchange.start_receive(element_address(buffer, message.first, layout), message.count,
                                                      datatype, message.peer, MessageTag::split_chunk));
  }
  std::vector<char> received(receives.size(), 0);
  auto complete_receive = [&](std::size_t i) {
    if (received[i]) return;
    exchange.wait_receive(receive_requests[i], datatype, receives[i].peer, receives[i].count);
    received[i] = 1;
  };
  const double call_start = MPI_Wtime();
  const bool pace = plan.root_rank() == plan.rank() && plan.options().paces_eager_broadcasts();
  std::vector<std::pair<MPI_Request, int>> sends;
  sends.reserve(plan.sends().size());
  for (const auto& message : plan.sends()) {
    if (message.wait_for != ExecutableSplitBroadcast::npos) complete_receive(message.wait_for);
    if (pace) wait_until(call_start + message.planned_start);
    sends.emplace_back(exchange.start_send(element_address(static_cast<const void*>(buffer), message.first, layout),
                                           message.count, datatype, message.peer, MessageTag::split_chunk, false),
                       message.peer);
  }
  for (std::size_t i = 0; i < receives.size(); ++i) complete_receive(i);
  for (auto& [request, peer] : sends) exchange.wait_send(request, peer);
  return MPI_SUCCESS;
}

}  // namespace hetcoll::mpi
