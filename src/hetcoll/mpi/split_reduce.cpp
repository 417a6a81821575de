#include "hetcoll/mpi/split_reduce.h"

#include <algorithm>
#include <cstdio>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/mpi/datatype_buffer.h"
#include "hetcoll/mpi/exchange.h"

namespace hetcoll::mpi {

namespace {

struct Action {
  double time = 0;
  bool send = false;  // a contribution's post; else a piece's completion
  std::size_t piece = 0;
  bool operator<(const Action& other) const {
    return std::tie(time, other.send, piece) < std::tie(other.time, send, other.piece);
  }
};

}  // namespace

ExecutableSplitReduce ExecutableSplitReduce::prepare(MPI_Comm comm, SplitReducePlan plan, const RuntimeOptions& options) {
  ExecutableSplitReduce prepared;
  prepared.options_ = options;
  prepared.communicator_ = std::make_shared<PrivateCommunicator>(comm, options.timeout_seconds);
  // Collective: a plan of the wrong size anywhere, or ranks holding
  // different plans (compared by a hash), is a MismatchError on every rank.
  const auto ranks = static_cast<std::size_t>(prepared.communicator_->size());
  std::vector<std::string> ids;
  for (std::size_t r = 0; r < ranks; ++r) ids.push_back(std::to_string(r));
  prepare_collectively(prepared.communicator_->get(), RankMapping::by_order(), ids, "split reduce plan",
                       options.timeout_seconds, [&](const std::vector<ProcessorIndex>&) {
    if (ranks != plan.contributions.size()) {
      throw InputError("plan", fmt::format("a split reduce plan for {} processors on a communicator of {} ranks",
                                           plan.contributions.size(), ranks));
    }
    PlanHash hash;
    hash.add(static_cast<std::uint64_t>(plan.root));
    hash.add(plan.count);
    for (const auto& piece : plan.pieces) {
      hash.add(piece.first);
      hash.add(piece.count);
      hash.add(static_cast<std::uint64_t>(piece.aggregator));
    }
    for (const auto& pieces : plan.contributions) {
      hash.add(pieces.size());
      for (auto piece : pieces) hash.add(piece);
    }
    return hash.value();
  });
  prepared.plan_ = std::move(plan);
  return prepared;
}

int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
           const ExecutableSplitReduce& prepared) {
  if (comm != prepared.user_comm()) {
    throw MismatchError("comm", "not the communicator the split plan was prepared on");
  }
  const auto& plan = prepared.plan();
  if (root != plan.root) throw MismatchError("root", fmt::format("the split plan's root is {}, not {}", plan.root, root));
  if (count < 0 || static_cast<std::size_t>(count) != plan.count) {
    throw MismatchError("count", fmt::format("the split plan reduces {} elements, not {}", plan.count, count));
  }
  int commutative = 0;
  MPI_Op_commutative(op, &commutative);
  if (!commutative) {
    // Pieces are combined in arrival order: MPI's rank order needs another
    // plan. The MPI library's reduce, said once per process.
    static bool said = false;
    if (!said && prepared.rank() == root) {
      std::fprintf(stderr, "hetcoll::mpi::reduce: a split reduce needs a commutative operation; "
                           "this one is not: using the MPI library's MPI_Reduce\n");
    }
    said = true;
    return MPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, prepared.user_comm());
  }
  comm = prepared.comm();
  const int rank = prepared.rank();
  const auto me = static_cast<std::size_t>(rank);
  const auto n = static_cast<std::size_t>(prepared.size());
  const auto k = plan.pieces.size();
  const auto layout = DatatypeLayout::of(datatype);
  const double start = MPI_Wtime();
  const bool is_root = rank == root;
  if (is_root && sendbuf != MPI_IN_PLACE) copy_elements(sendbuf, recvbuf, plan.count, datatype, layout);
  const void* own = is_root ? recvbuf : sendbuf;

  // Receives, all posted now; per piece the requests and buffers.
  struct Incoming {
    std::vector<MPI_Request> requests;
    std::vector<int> peers;
    std::vector<ScratchBuffer> buffers;
  };
  const Exchange exchange(comm, prepared.user_comm(), prepared.options(), "hetcoll::mpi::reduce (split)");
  std::vector<Incoming> incoming(k);
  std::vector<ScratchBuffer> reduced(k);  // a non-root aggregator's piece
  std::vector<Action> actions;
  for (std::size_t j = 0; j < k; ++j) {
    const auto& piece = plan.pieces[j];
    const int elements = static_cast<int>(piece.count);
    auto receive = [&](int from, int tag) {
      incoming[j].buffers.emplace_back(layout, piece.count);
      incoming[j].requests.emplace_back();
      incoming[j].peers.push_back(from);
      exchange.check(MPI_Irecv(incoming[j].buffers.back().data(), elements, datatype, from, tag, comm,
                               &incoming[j].requests.back()),
                     "MPI_Irecv");
    };
    if (static_cast<std::size_t>(piece.aggregator) == me) {
      for (std::size_t u = 0; u < n; ++u) {
        if (u != me && static_cast<int>(u) != root) receive(static_cast<int>(u), static_cast<int>(j));
      }
      if (!is_root) {
        reduced[j] = ScratchBuffer(layout, piece.count);
        copy_elements(element_address(own, piece.first, layout), reduced[j].data(), piece.count, datatype, layout);
      }
      actions.push_back({plan.piece_ready[j], false, j});
    } else if (is_root) {
      receive(piece.aggregator, static_cast<int>(k + j));
      actions.push_back({plan.piece_at_root[j], false, j});
    }
  }
  for (std::size_t i = 0; i < plan.contributions[me].size(); ++i) {
    actions.push_back({plan.post_times[me][i], true, plan.contributions[me][i]});
  }
  std::sort(actions.begin(), actions.end());

  std::vector<MPI_Request> sends;
  std::vector<int> send_peers;
  sends.reserve(plan.contributions[me].size() + k);
  for (const auto& action : actions) {
    const auto j = action.piece;
    const auto& piece = plan.pieces[j];
    const int elements = static_cast<int>(piece.count);
    if (action.send) {
      wait_until(start + action.time);
      sends.emplace_back();
      send_peers.push_back(piece.aggregator);
      exchange.check(MPI_Isend(element_address(own, piece.first, layout), elements, datatype, piece.aggregator,
                               static_cast<int>(j), comm, &sends.back()),
                     "MPI_Isend");
      continue;
    }
    auto& in = incoming[j];
    for (std::size_t i = 0; i < in.requests.size(); ++i) {
      exchange.wait_receive(in.requests[i], datatype, in.peers[i], elements);
    }
    void* target = is_root ? element_address(recvbuf, piece.first, layout) : reduced[j].data();
    for (const auto& buffer : in.buffers) MPI_Reduce_local(buffer.data(), target, elements, datatype, op);
    in.buffers.clear();
    if (!is_root) {
      sends.emplace_back();
      send_peers.push_back(root);
      exchange.check(MPI_Isend(reduced[j].data(), elements, datatype, root, static_cast<int>(k + j), comm, &sends.back()),
                     "MPI_Isend");
    }
  }
  for (std::size_t i = 0; i < sends.size(); ++i) exchange.wait_send(sends[i], send_peers[i]);
  return MPI_SUCCESS;
}

}  // namespace hetcoll::mpi
