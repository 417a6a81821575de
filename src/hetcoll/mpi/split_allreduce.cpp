#include "hetcoll/mpi/split_allreduce.h"

#include <algorithm>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "hetcoll/mpi/collectives.h"
#include "hetcoll/mpi/datatype_buffer.h"
#include "hetcoll/mpi/exchange.h"
#include "hetcoll/mpi/split_common_internal.h"

namespace hetcoll::mpi {

namespace {

// The structure the runtime relies on (verify_split_allreduce checks it and
// the times besides); throws InputError naming `source_name`.
void check_split_allreduce_structure(const SplitAllreducePlan& plan, std::size_t member_count,
                                     std::string_view source_name) {
  const std::size_t k = plan.members.size();
  split_common::check_pieces(k, member_count, plan.chunks, plan.elements, plan.pieces, source_name);
  const std::size_t chunks = plan.chunks;
  const std::size_t slots = plan.pieces.size() * chunks * k;
  std::vector<char> contributed(slots, 0), received(slots, 0);
  std::vector<double> latest_contribution_start(plan.pieces.size() * chunks, -1);
  std::vector<double> last_start(k, -1);
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const auto& t = plan.transfers[i];
    if (t.piece >= plan.pieces.size() || t.chunk >= chunks || t.from >= k || t.to >= k || t.from == t.to ||
        split_chunk_range(plan.pieces[t.piece].elements, chunks, t.chunk).second == 0) {
      throw InputError(fmt::format("{}: transfers[{}]: out of range, to itself, or an empty chunk", source_name, i));
    }
    if (t.start < last_start[t.from]) {
      throw InputError(fmt::format("{}: transfers[{}]: member {}'s messages are not in the order of their starts",
                                   source_name, i, t.from));
    }
    last_start[t.from] = t.start;
    const std::size_t aggregator = plan.pieces[t.piece].spreader;
    const std::size_t slot = (t.piece * chunks + t.chunk) * k;
    if (t.contribution) {
      if (t.to != aggregator || contributed[slot + t.from]++) {
        throw InputError(fmt::format("{}: transfers[{}]: a contribution not to the piece's aggregator, or twice",
                                     source_name, i));
      }
      auto& latest = latest_contribution_start[t.piece * chunks + t.chunk];
      latest = std::max(latest, t.start);
    } else if (t.from != aggregator || received[slot + t.to]++) {
      throw InputError(fmt::format("{}: transfers[{}]: a result not from the piece's aggregator, or twice", source_name,
                                   i));
    }
  }
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const auto& t = plan.transfers[i];
    if (!t.contribution && !(latest_contribution_start[t.piece * chunks + t.chunk] < t.start)) {
      throw InputError(fmt::format("{}: transfers[{}]: a result planned to start before its chunk's contributions",
                                   source_name, i));
    }
  }
  for (std::size_t p = 0; p < plan.pieces.size(); ++p) {
    for (std::size_t c = 0; c < chunks; ++c) {
      if (split_chunk_range(plan.pieces[p].elements, chunks, c).second == 0) continue;
      for (std::size_t member = 0; member < k; ++member) {
        if (member == plan.pieces[p].spreader) continue;
        const std::size_t slot = (p * chunks + c) * k + member;
        if (!contributed[slot] || !received[slot]) {
          throw InputError(fmt::format("{}: member {} does not contribute or receive chunk {} of piece {}",
                                       source_name, member, c, p));
        }
      }
    }
  }
}

}  // namespace

ExecutableSplitAllreduce ExecutableSplitAllreduce::prepare(MPI_Comm comm, const SplitAllreducePlan& plan,
                                                           const std::vector<std::string>& member_ids,
                                                           const RankMapping& mapping, const RuntimeOptions& options,
                                                           std::string_view source_name) {
  return prepare(std::make_shared<PrivateCommunicator>(comm, options.timeout_seconds), plan, member_ids, mapping,
                 options, source_name);
}

ExecutableSplitAllreduce ExecutableSplitAllreduce::prepare(std::shared_ptr<PrivateCommunicator> communicator,
                                                           const SplitAllreducePlan& plan,
                                                           const std::vector<std::string>& member_ids,
                                                           const RankMapping& mapping, const RuntimeOptions& options,
                                                           std::string_view source_name) {
  ExecutableSplitAllreduce result;
  result.communicator_ = std::move(communicator);
  result.plan_ = plan;
  result.options_ = options;
  const int rank = result.communicator_->rank();
  prepare_collectively(result.communicator_->get(), mapping, member_ids, source_name, options.timeout_seconds,
                       [&](const std::vector<ProcessorIndex>& member_of_rank) {
    check_split_allreduce_structure(plan, member_ids.size(), source_name);
    const auto rank_of = split_common::ranks_of_members(member_of_rank, member_ids.size());
    const auto me = static_cast<std::size_t>(member_of_rank[static_cast<std::size_t>(rank)]);
    PlanHash hash;
    split_common::hash_pieces(hash, plan.elements, plan.chunks, plan.pieces);
    for (const auto& piece : plan.pieces) {
      if (piece.spreader == me) {
        result.piece_first_ = piece.first;
        result.piece_elements_ = piece.elements;
      }
    }
    result.contributions_of_chunk_.assign(plan.chunks, {});
    for (const auto& t : plan.transfers) {
      hash.add((t.contribution ? 1ULL << 63 : 0) ^ t.piece << 40 ^ t.chunk << 24 ^ t.from << 12 ^ t.to);
      const auto& piece = plan.pieces[t.piece];
      const auto [offset, count] = split_chunk_range(piece.elements, plan.chunks, t.chunk);
      Message message{t.contribution, t.chunk, piece.first + offset, static_cast<int>(count), 0, t.start, 0};
      if (t.to == me) {
        message.peer = rank_of[t.from];
        if (t.contribution) {
          message.scratch_first = result.scratch_elements_;
          result.scratch_elements_ += count;
          result.contributions_of_chunk_[t.chunk].push_back(result.receives_.size());
        }
        result.receives_.push_back(message);
      }
      if (t.from == me) {
        message.peer = rank_of[t.to];
        result.sends_.push_back(message);
      }
    }
    return hash.value();
  });
  return result;
}

int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              const ExecutableSplitAllreduce& plan) {
  constexpr std::string_view call = "hetcoll::mpi::allreduce (split)";
  split_common::check_call(comm, plan.user_communicator(), count, plan.plan().elements, call);
  if (!is_commutative(op)) {
    throw MismatchError(fmt::format("{}: the operation is not commutative; the split all-reduce combines the pieces "
                                    "at their aggregators, not in rank order", call));
  }
  Exchange exchange(plan.communicator(), plan.user_communicator(), plan.options(), call);
  const auto layout = DatatypeLayout::of(datatype);
  const auto elements = static_cast<std::size_t>(count);
  // The own vector, aside: contributions leave from it while results land in recvbuf.
  ScratchBuffer own(layout, elements);
  copy_elements(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, own.data(), elements, datatype, layout);
  if (plan.piece_elements() > 0) {
    copy_elements(own.element(plan.piece_first()), element_address(recvbuf, plan.piece_first(), layout),
                  plan.piece_elements(), datatype, layout);
  }
  ScratchBuffer incoming;
  if (plan.scratch_elements() > 0) incoming = ScratchBuffer(layout, plan.scratch_elements());
  const auto& receives = plan.receives();
  std::vector<MPI_Request> requests;
  requests.reserve(receives.size());
  for (const auto& message : receives) {
    void* target = message.contribution ? incoming.element(message.scratch_first)
                                        : element_address(recvbuf, message.first, layout);
    requests.push_back(exchange.start_receive(target, message.count, datatype, message.peer, MessageTag::split_chunk));
  }
  std::vector<char> received(receives.size(), 0), combined(plan.plan().chunks, 0);
  auto complete_receive = [&](std::size_t i) {
    if (received[i]) return;
    exchange.wait_receive(requests[i], datatype, receives[i].peer, receives[i].count);
    received[i] = 1;
  };
  // Combines chunk c of the own piece: its contributions in member order.
  auto combine_chunk = [&](const ExecutableSplitAllreduce::Message& result) {
    if (combined[result.chunk]) return;
    auto contributions = plan.contributions_of_chunk()[result.chunk];
    for (auto i : contributions) complete_receive(i);
    std::sort(contributions.begin(), contributions.end(),
              [&](std::size_t a, std::size_t b) { return receives[a].peer < receives[b].peer; });
    for (auto i : contributions) {
      exchange.check(MPI_Reduce_local(incoming.element(receives[i].scratch_first),
                                      element_address(recvbuf, result.first, layout), result.count, datatype, op),
                     "MPI_Reduce_local");
    }
    combined[result.chunk] = 1;
  };
  const double call_start = MPI_Wtime();
  const bool pace = plan.options().paces_eager_broadcasts();
  std::vector<std::pair<MPI_Request, int>> sends;
  sends.reserve(plan.sends().size());
  for (const auto& message : plan.sends()) {
    const void* source = nullptr;
    if (message.contribution) {
      if (pace) wait_until(call_start + message.planned_start);
      source = own.element(message.first);
    } else {
      combine_chunk(message);
      source = element_address(static_cast<const void*>(recvbuf), message.first, layout);
    }
    sends.emplace_back(exchange.start_send(source, message.count, datatype, message.peer, MessageTag::split_chunk, false),
                       message.peer);
  }
  for (std::size_t i = 0; i < receives.size(); ++i) complete_receive(i);
  for (auto& [request, peer] : sends) exchange.wait_send(request, peer);
  return MPI_SUCCESS;
}

}  // namespace hetcoll::mpi
