#include "hetcoll/mpi/collectives.h"

#include <time.h>

#include <algorithm>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/mpi/datatype_buffer.h"
#include "hetcoll/mpi/exchange.h"

namespace hetcoll::mpi {

namespace {

void check_call(const ExecutablePlan& plan, Operation expected, std::string_view call, int count, MPI_Comm comm,
                int root) {
  if (plan.operation() != expected &&
      !(expected == Operation::broadcast && plan.operation() == Operation::multicast)) {
    throw MismatchError(fmt::format("{}: the plan is for a {}, not a {}", call, to_string(plan.operation()),
                                    to_string(expected)));
  }
  if (comm != plan.user_communicator()) {
    int relation = MPI_UNEQUAL;
    MPI_Comm_compare(comm, plan.user_communicator(), &relation);
    if (relation != MPI_IDENT && relation != MPI_CONGRUENT) {
      throw MismatchError(fmt::format("{}: the plan was prepared on another communicator", call));
    }
  }
  if (count < 0) throw MismatchError(fmt::format("{}: count must not be negative, got {}", call, count));
  if (root >= 0 && root != plan.root_rank()) {
    throw MismatchError(fmt::format("{}: root {} given, but the plan's {} is rank {}", call, root,
                                    expected == Operation::reduce ? "root" : "source", plan.root_rank()));
  }
}

// The steps of one phase (payload), in order.
std::vector<RankStep> phase_steps(const ExecutablePlan& plan, Payload payload) {
  std::vector<RankStep> steps;
  for (const auto& step : plan.steps()) {
    if (step.payload == payload) steps.push_back(step);
  }
  return steps;
}

// An eager plan's broadcast: each send posted at its offset after the rank
// holds the message (standard sends: small messages leave eagerly, so
// their latencies overlap, while the pacing gives the rank's link to one
// message at a time, as the plan's times assume), completed together; a
// receive first completes the sends before it (a broadcast rank has none:
// it receives before it forwards).
void broadcast_phase_concurrent(const Exchange& exchange, std::span<const RankStep> steps, void* buffer, int count,
                                MPI_Datatype datatype, bool exchange_paces) {
  std::vector<std::pair<MPI_Request, int>> sends;  // request, peer
  auto complete_sends = [&] {
    for (auto& [request, peer] : sends) exchange.wait_send(request, peer);
    sends.clear();
  };
  double holds_from = MPI_Wtime();
  for (const auto& step : steps) {
    if (step.kind == RankStep::Kind::receive) {
      complete_sends();
      exchange.receive(buffer, count, datatype, step.peer, MessageTag::broadcast_value);
      holds_from = MPI_Wtime();
    } else {
      if (exchange_paces) wait_until(holds_from + step.offset);
      sends.emplace_back(exchange.start_send(buffer, count, datatype, step.peer, MessageTag::broadcast_value, false),
                         step.peer);
    }
  }
  complete_sends();
}

// Broadcast phase: receive into `buffer` (at most once), forward from it.
void broadcast_phase(const Exchange& exchange, std::span<const RankStep> steps, void* buffer, int count,
                     MPI_Datatype datatype) {
  std::size_t sends_left = 0;
  for (const auto& step : steps) sends_left += step.kind == RankStep::Kind::send;
  for (const auto& step : steps) {
    if (step.kind == RankStep::Kind::receive) {
      exchange.receive(buffer, count, datatype, step.peer, MessageTag::broadcast_value);
    } else {
      --sends_left;
      exchange.send(buffer, count, datatype, step.peer, MessageTag::broadcast_value, sends_left > 0);
    }
  }
}

struct ReduceArguments {
  const void* own = nullptr;  // this rank's contribution
  void* result = nullptr;     // the root's result buffer (root only)
  int count = 0;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  MPI_Op op = MPI_OP_NULL;
  DatatypeLayout layout;
  bool more_sends_follow = false;  // an all-reduce's broadcast comes after
};

// Commutative operations: combine each partial as it arrives (two scratch
// buffers, so the next receive is posted while combining the previous one).
void reduce_phase_commutative(const Exchange& exchange, std::span<const RankStep> steps, bool is_root,
                              const ReduceArguments& args) {
  std::size_t receives = 0;
  for (const auto& step : steps) receives += step.kind == RankStep::Kind::receive;
  const void* outgoing = args.own;
  ScratchBuffer accumulator;
  void* combined = nullptr;
  if (is_root) {
    combined = args.result;
    copy_elements(args.own, combined, static_cast<size_t>(args.count), args.datatype, args.layout);
  } else if (receives > 0) {
    accumulator = ScratchBuffer(args.layout, static_cast<size_t>(args.count));
    combined = accumulator.data();
    copy_elements(args.own, combined, static_cast<size_t>(args.count), args.datatype, args.layout);
    outgoing = combined;
  }
  ScratchBuffer incoming[2];
  if (receives > 0) incoming[0] = ScratchBuffer(args.layout, static_cast<size_t>(args.count));
  if (receives > 1) incoming[1] = ScratchBuffer(args.layout, static_cast<size_t>(args.count));

  std::size_t position = 0;
  // Receives come first in a reduce (the checks guarantee it); the send last.
  std::vector<const RankStep*> receive_steps;
  for (const auto& step : steps) {
    if (step.kind == RankStep::Kind::receive) receive_steps.push_back(&step);
  }
  MPI_Request pending = MPI_REQUEST_NULL;
  if (!receive_steps.empty()) {
    pending = exchange.start_receive(incoming[0].data(), args.count, args.datatype, receive_steps[0]->peer,
                                     MessageTag::partial_reduction);
  }
  for (position = 0; position < receive_steps.size(); ++position) {
    exchange.wait_receive(pending, args.datatype, receive_steps[position]->peer, args.count);
    if (position + 1 < receive_steps.size()) {
      pending = exchange.start_receive(incoming[(position + 1) % 2].data(), args.count, args.datatype,
                                       receive_steps[position + 1]->peer, MessageTag::partial_reduction);
    }
    exchange.check(MPI_Reduce_local(incoming[position % 2].data(), combined, args.count, args.datatype, args.op),
                   "MPI_Reduce_local");
  }
  for (const auto& step : steps) {
    if (step.kind == RankStep::Kind::send) {
      exchange.send(outgoing, args.count, args.datatype, step.peer, MessageTag::partial_reduction,
                    args.more_sends_follow);
    }
  }
}

// Non-commutative operations: values kept as runs of consecutive ranks
// [first, last], combined in rank order as soon as two runs meet.
class RankRuns {
 public:
  struct Run {
    int first = 0, last = 0;
    std::shared_ptr<ScratchBuffer> block;  // holds this run's value (maybe among others)
    std::size_t element = 0;               // index of the value's first element in the block
    void* data() const { return block->element(element); }
  };

  RankRuns(const Exchange& exchange, const ReduceArguments& args, int communicator_size)
      : exchange_(exchange), args_(args), size_(communicator_size) {}

  void add_own(int rank, const void* value) {
    auto block = std::make_shared<ScratchBuffer>(args_.layout, static_cast<size_t>(args_.count));
    copy_elements(value, block->data(), static_cast<size_t>(args_.count), args_.datatype, args_.layout);
    insert({rank, rank, block, 0});
  }

  void receive_from(int peer) {
    std::vector<int> header(static_cast<size_t>(2 * size_ + 1));
    auto request = exchange_.start_receive(header.data(), static_cast<int>(header.size()), MPI_INT, peer,
                                           MessageTag::segment_list);
    int length = exchange_.wait_receive(request, MPI_INT, peer, -1);
    int runs = length >= 1 ? header[0] : -1;
    if (runs < 1 || length != 2 * runs + 1) exchange_.abort(fmt::format("malformed run list from rank {}", peer));
    auto values = static_cast<size_t>(runs) * static_cast<size_t>(args_.count);
    auto block = std::make_shared<ScratchBuffer>(args_.layout, values);
    exchange_.receive(block->data(), static_cast<int>(values), args_.datatype, peer, MessageTag::partial_reduction);
    for (int i = 0; i < runs; ++i) {
      int first = header[static_cast<size_t>(1 + 2 * i)], last = header[static_cast<size_t>(2 + 2 * i)];
      if (first < 0 || last < first || last >= size_) exchange_.abort(fmt::format("bad run from rank {}", peer));
      insert({first, last, block, static_cast<size_t>(i) * static_cast<size_t>(args_.count)});
    }
  }

  void send_to(int peer) {
    std::vector<int> header{static_cast<int>(runs_.size())};
    for (const auto& run : runs_) {
      header.push_back(run.first);
      header.push_back(run.last);
    }
    // The run list is small and always followed by the values: standard send.
    auto request = exchange_.start_send(header.data(), static_cast<int>(header.size()), MPI_INT, peer,
                                        MessageTag::segment_list, false);
    exchange_.wait_send(request, peer);
    if (runs_.size() == 1) {
      exchange_.send(runs_[0].data(), args_.count, args_.datatype, peer, MessageTag::partial_reduction,
                     args_.more_sends_follow);
      return;
    }
    ScratchBuffer packed(args_.layout, runs_.size() * static_cast<size_t>(args_.count));
    for (size_t i = 0; i < runs_.size(); ++i) {
      copy_elements(runs_[i].data(), packed.element(i * static_cast<size_t>(args_.count)),
                    static_cast<size_t>(args_.count), args_.datatype, args_.layout);
    }
    exchange_.send(packed.data(), static_cast<int>(runs_.size()) * args_.count, args_.datatype, peer,
                   MessageTag::partial_reduction, args_.more_sends_follow);
  }

  // At the root, after every contribution: the single run 0..n-1.
  void write_result(void* result) {
    if (runs_.size() != 1 || runs_[0].first != 0 || runs_[0].last != size_ - 1) {
      exchange_.abort("the reduction did not collect every rank's contribution exactly once");
    }
    copy_elements(runs_[0].data(), result, static_cast<size_t>(args_.count), args_.datatype, args_.layout);
  }

 private:
  void insert(Run run) {
    auto at = std::lower_bound(runs_.begin(), runs_.end(), run.first,
                               [](const Run& existing, int first) { return existing.first < first; });
    if ((at != runs_.end() && at->first <= run.last) || (at != runs_.begin() && std::prev(at)->last >= run.first)) {
      exchange_.abort(fmt::format("ranks {}..{} contributed twice", run.first, run.last));
    }
    at = runs_.insert(at, std::move(run));
    // Merge with the right neighbour, then the left: left op right, stored
    // in the right one's memory (MPI_Reduce_local: inout = in op inout).
    auto index = static_cast<size_t>(at - runs_.begin());
    if (index + 1 < runs_.size() && runs_[index].last + 1 == runs_[index + 1].first) {
      combine(index);
    }
    if (index > 0 && runs_[index - 1].last + 1 == runs_[index].first) combine(index - 1);
  }

  void combine(size_t left) {
    auto& a = runs_[left];
    auto& b = runs_[left + 1];
    exchange_.check(MPI_Reduce_local(a.data(), b.data(), args_.count, args_.datatype, args_.op), "MPI_Reduce_local");
    b.first = a.first;
    runs_.erase(runs_.begin() + static_cast<std::ptrdiff_t>(left));
  }

  const Exchange& exchange_;
  const ReduceArguments& args_;
  int size_;
  std::vector<Run> runs_;  // sorted, disjoint, never adjacent
};

void reduce_phase_in_rank_order(const Exchange& exchange, std::span<const RankStep> steps, int rank, int size,
                                bool is_root, const ReduceArguments& args) {
  RankRuns runs(exchange, args, size);
  runs.add_own(rank, args.own);
  for (const auto& step : steps) {
    if (step.kind == RankStep::Kind::receive) {
      runs.receive_from(step.peer);
    } else {
      runs.send_to(step.peer);
    }
  }
  if (is_root) runs.write_result(args.result);
}

// An eager plan's reduce (makespan/eager/eager_reduce.h): the receives from
// all children posted at once (their latencies overlap), the values
// combined in the order the plan has them arrive, then one standard send to
// the parent: as soon as the last value has arrived, or with `pace` at its
// planned start (counted from the call) if that is later. Not pacing is the
// default: a node waits for its last child, and a link shared fairly among
// the messages on it (SimGrid) finishes the last of them no later than one
// by one, so early sends cannot delay the parent (docs/MPI.md compares
// them with paced sends).
// Non-commutative operations keep the runs of consecutive ranks (RankRuns),
// received in the plan's arrival order (their two messages per child leave
// eagerly, so the one-by-one receives wait for nothing that has not been
// sent).
void reduce_phase_eager(const Exchange& exchange, std::span<const RankStep> all_steps, int rank, int size,
                        bool is_root, const ReduceArguments& args, bool pace) {
  const double call_start = MPI_Wtime();
  std::vector<RankStep> receives;
  const RankStep* send = nullptr;
  for (const auto& step : all_steps) {
    if (step.kind == RankStep::Kind::receive) receives.push_back(step);
    else send = &step;
  }
  std::stable_sort(receives.begin(), receives.end(),
                   [](const RankStep& a, const RankStep& b) { return a.planned_end < b.planned_end; });
  auto send_paced = [&](const auto& post) {
    if (send == nullptr) return;
    if (pace) wait_until(call_start + send->offset);
    post(send->peer);
  };
  if (!is_commutative(args.op)) {
    RankRuns runs(exchange, args, size);
    runs.add_own(rank, args.own);
    for (const auto& step : receives) runs.receive_from(step.peer);
    send_paced([&](int peer) { runs.send_to(peer); });
    if (is_root) runs.write_result(args.result);
    return;
  }
  const auto count = static_cast<size_t>(args.count);
  ScratchBuffer incoming;
  if (!receives.empty()) incoming = ScratchBuffer(args.layout, receives.size() * count);
  std::vector<MPI_Request> requests;
  requests.reserve(receives.size());
  for (size_t i = 0; i < receives.size(); ++i) {
    requests.push_back(exchange.start_receive(incoming.element(i * count), args.count, args.datatype,
                                              receives[i].peer, MessageTag::partial_reduction));
  }
  const void* outgoing = args.own;
  ScratchBuffer accumulator;
  void* combined = nullptr;
  if (is_root) {
    combined = args.result;
    if (args.own != args.result) copy_elements(args.own, combined, count, args.datatype, args.layout);
  } else if (!receives.empty()) {
    accumulator = ScratchBuffer(args.layout, count);
    combined = accumulator.data();
    copy_elements(args.own, combined, count, args.datatype, args.layout);
    outgoing = combined;
  }
  for (size_t i = 0; i < receives.size(); ++i) {
    exchange.wait_receive(requests[i], args.datatype, receives[i].peer, args.count);
    exchange.check(MPI_Reduce_local(incoming.element(i * count), combined, args.count, args.datatype, args.op),
                   "MPI_Reduce_local");
  }
  send_paced([&](int peer) {
    exchange.send(outgoing, args.count, args.datatype, peer, MessageTag::partial_reduction, args.more_sends_follow);
  });
}

void reduce_phase(const Exchange& exchange, const ExecutablePlan& plan, const ReduceArguments& args) {
  auto steps = phase_steps(plan, Payload::partial_reduction);
  bool is_root = plan.rank() == plan.root_rank();
  if (plan.concurrent_sends() && plan.operation() == Operation::reduce) {
    reduce_phase_eager(exchange, steps, plan.rank(), plan.size(), is_root, args, plan.options().paces_eager_reduces());
  } else if (is_commutative(args.op)) {
    reduce_phase_commutative(exchange, steps, is_root, args);
  } else {
    reduce_phase_in_rank_order(exchange, steps, plan.rank(), plan.size(), is_root, args);
  }
}

}  // namespace

bool is_commutative(MPI_Op op) {
  int commutative = 1;
  MPI_Op_commutative(op, &commutative);
  return commutative != 0;
}

int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
           const ExecutablePlan& plan) {
  check_call(plan, Operation::reduce, "hetcoll::mpi::reduce", count, comm, root);
  if (count == 0) return MPI_SUCCESS;
  Exchange exchange(plan.communicator(), plan.user_communicator(), plan.options(), "hetcoll::mpi::reduce");
  bool is_root = plan.rank() == plan.root_rank();
  ReduceArguments args;
  args.own = is_root && sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  args.result = is_root ? recvbuf : nullptr;
  args.count = count;
  args.datatype = datatype;
  args.op = op;
  args.layout = DatatypeLayout::of(datatype);
  if (plan.concurrent_sends()) {
    // Eager plans: standard sends whatever RuntimeOptions::send_mode says.
    RuntimeOptions standard_sends = plan.options();
    standard_sends.send_mode = RuntimeOptions::SendMode::standard;
    Exchange eager_exchange(plan.communicator(), plan.user_communicator(), standard_sends, "hetcoll::mpi::reduce");
    reduce_phase(eager_exchange, plan, args);
    return MPI_SUCCESS;
  }
  reduce_phase(exchange, plan, args);
  return MPI_SUCCESS;
}

int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, const ExecutablePlan& plan) {
  if (plan.operation() == Operation::multicast) return multicast(buffer, count, datatype, root, comm, plan);
  check_call(plan, Operation::broadcast, "hetcoll::mpi::bcast", count, comm, root);
  if (count == 0) return MPI_SUCCESS;
  if (plan.concurrent_sends()) {
    RuntimeOptions standard_sends = plan.options();
    standard_sends.send_mode = RuntimeOptions::SendMode::standard;
    Exchange exchange(plan.communicator(), plan.user_communicator(), standard_sends, "hetcoll::mpi::bcast");
    broadcast_phase_concurrent(exchange, plan.steps(), buffer, count, datatype, plan.options().paces_eager_broadcasts());
    return MPI_SUCCESS;
  }
  Exchange exchange(plan.communicator(), plan.user_communicator(), plan.options(), "hetcoll::mpi::bcast");
  broadcast_phase(exchange, plan.steps(), buffer, count, datatype);
  return MPI_SUCCESS;
}

int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              const ExecutablePlan& plan) {
  check_call(plan, Operation::allreduce, "hetcoll::mpi::allreduce", count, comm, -1);
  if (count == 0) return MPI_SUCCESS;
  Exchange exchange(plan.communicator(), plan.user_communicator(), plan.options(), "hetcoll::mpi::allreduce");
  bool is_root = plan.rank() == plan.root_rank();
  ReduceArguments args;
  args.own = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  args.result = is_root ? recvbuf : nullptr;
  args.count = count;
  args.datatype = datatype;
  args.op = op;
  args.layout = DatatypeLayout::of(datatype);
  for (const auto& step : plan.steps()) {
    args.more_sends_follow = args.more_sends_follow ||
                             (step.kind == RankStep::Kind::send && step.payload == Payload::broadcast_value);
  }
  reduce_phase(exchange, plan, args);
  // A leaf may have sent straight from recvbuf (MPI_IN_PLACE): that send has
  // completed, so receiving the result into recvbuf now is safe.
  broadcast_phase(exchange, phase_steps(plan, Payload::broadcast_value), recvbuf, count, datatype);
  return MPI_SUCCESS;
}

int multicast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, const ExecutablePlan& plan) {
  check_call(plan, Operation::multicast, "hetcoll::mpi::multicast", count, comm, root);
  if (count == 0 || plan.steps().empty()) return MPI_SUCCESS;
  Exchange exchange(plan.communicator(), plan.user_communicator(), plan.options(), "hetcoll::mpi::multicast");
  if (plan.is_target()) {
    broadcast_phase(exchange, plan.steps(), buffer, count, datatype);
  } else {
    ScratchBuffer relay(DatatypeLayout::of(datatype), static_cast<size_t>(count));
    broadcast_phase(exchange, plan.steps(), relay.data(), count, datatype);
  }
  return MPI_SUCCESS;
}

}  // namespace hetcoll::mpi
