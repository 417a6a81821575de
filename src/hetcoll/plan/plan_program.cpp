#include "hetcoll/plan/plan_program.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {
namespace {

struct RankTransfers {
  std::vector<int> receive_from, send_to;  // in execution order
  std::vector<double> send_start;          // the planned start of each send
};

std::vector<RankTransfers> transfers_of_phase(const MakespanPlan& plan, const std::vector<std::size_t>& order,
                                              int ranks, Payload payload) {
  std::vector<RankTransfers> per_rank(static_cast<std::size_t>(ranks));
  for (auto i : order) {
    const Transfer& t = plan.transfers[i];
    if (t.payload != payload) continue;
    if (t.from < 0 || t.from >= ranks || t.to < 0 || t.to >= ranks || t.from == t.to) {
      throw InputError("plan", fmt::format("transfer {} -> {} is not between two of the {} ranks", t.from, t.to, ranks));
    }
    per_rank[static_cast<std::size_t>(t.from)].send_to.push_back(static_cast<int>(t.to));
    per_rank[static_cast<std::size_t>(t.from)].send_start.push_back(t.start);
    per_rank[static_cast<std::size_t>(t.to)].receive_from.push_back(static_cast<int>(t.from));
  }
  return per_rank;
}

bool synchronous(PlanLowering::Sends sends, bool more_sends_follow) {
  switch (sends) {
    case PlanLowering::Sends::standard: return false;
    case PlanLowering::Sends::synchronous: return true;
    case PlanLowering::Sends::one_port: break;
  }
  return more_sends_follow;
}

void add_reduce_phase(CommProgram& program, const std::vector<RankTransfers>& phase, std::size_t count,
                      bool send_synchronously) {
  const Slice data{0, 0, count};
  const std::uint32_t incoming[2] = {program.add_buffer(count), program.add_buffer(count)};
  for (int rank = 0; rank < program.ranks; ++rank) {
    const auto& mine = phase[static_cast<std::size_t>(rank)];
    const auto& from = mine.receive_from;
    if (!from.empty()) {
      auto pending = program.add(rank, ProgramStep::receive_of(from[0], {incoming[0], 0, count}));
      for (std::size_t i = 0; i < from.size(); ++i) {
        program.add(rank, ProgramStep::wait_for({pending}));
        if (i + 1 < from.size()) {
          pending = program.add(rank, ProgramStep::receive_of(from[i + 1], {incoming[(i + 1) % 2], 0, count}));
        }
        program.add(rank, ProgramStep::combine_of({incoming[i % 2], 0, count}, data));
      }
    }
    for (int parent : mine.send_to) program.blocking_send(rank, parent, data, send_synchronously);
  }
}

// Broadcast (and multicast) phase: each rank receives into and forwards
// from its slice `data_of[rank]`.
void add_broadcast_phase(CommProgram& program, const MakespanPlan& plan, const std::vector<std::size_t>& order,
                         const std::vector<Slice>& data_of, PlanLowering::Sends sends) {
  std::vector<std::size_t> sends_left(static_cast<std::size_t>(program.ranks), 0);
  for (const auto& t : plan.transfers) {
    if (t.payload == Payload::broadcast_value) ++sends_left[static_cast<std::size_t>(t.from)];
  }
  for (auto i : order) {
    const Transfer& t = plan.transfers[i];
    if (t.payload != Payload::broadcast_value) continue;
    const int from = static_cast<int>(t.from), to = static_cast<int>(t.to);
    // Each rank's steps are appended in execution order: its receive comes
    // before its sends (check_program and the verifier hold the plan to it).
    program.blocking_receive(to, from, data_of[static_cast<std::size_t>(to)]);
    program.blocking_send(from, to, data_of[static_cast<std::size_t>(from)],
                          synchronous(sends, --sends_left[static_cast<std::size_t>(from)] > 0));
  }
}

// Eager plans: a rank posts all its sends at once (standard sends, the
// network shares its link among them) and waits for them together; a
// reduce rank posts all its receives at once, each into its own buffer,
// and combines them in the plan's order before sending.
void add_eager_broadcast_phase(CommProgram& program, const std::vector<RankTransfers>& phase, std::size_t count,
                               bool pace) {
  const Slice data{0, 0, count};
  for (int rank = 0; rank < program.ranks; ++rank) {
    const auto& mine = phase[static_cast<std::size_t>(rank)];
    for (int parent : mine.receive_from) program.blocking_receive(rank, parent, data);
    std::vector<std::uint32_t> sends;
    for (std::size_t i = 0; i < mine.send_to.size(); ++i) {
      if (pace) program.add(rank, ProgramStep::pace_until(std::max(mine.send_start[i], 0.0)));
      sends.push_back(program.add(rank, ProgramStep::send_of(mine.send_to[i], data)));
    }
    if (!sends.empty()) program.add(rank, ProgramStep::wait_for(std::move(sends)));
  }
}

void add_eager_reduce_phase(CommProgram& program, const std::vector<RankTransfers>& phase, std::size_t count,
                            bool pace) {
  const Slice data{0, 0, count};
  std::size_t most_children = 0;
  for (const auto& mine : phase) most_children = std::max(most_children, mine.receive_from.size());
  std::vector<std::uint32_t> incoming;
  for (std::size_t i = 0; i < most_children; ++i) incoming.push_back(program.add_buffer(count));
  for (int rank = 0; rank < program.ranks; ++rank) {
    const auto& mine = phase[static_cast<std::size_t>(rank)];
    std::vector<std::uint32_t> receives;
    for (std::size_t i = 0; i < mine.receive_from.size(); ++i) {
      receives.push_back(program.add(rank, ProgramStep::receive_of(mine.receive_from[i], {incoming[i], 0, count})));
    }
    for (std::size_t i = 0; i < receives.size(); ++i) {
      program.add(rank, ProgramStep::wait_for({receives[i]}));
      program.add(rank, ProgramStep::combine_of({incoming[i], 0, count}, data));
    }
    for (std::size_t i = 0; i < mine.send_to.size(); ++i) {
      if (pace) program.add(rank, ProgramStep::pace_until(std::max(mine.send_start[i], 0.0)));
      program.blocking_send(rank, mine.send_to[i], data);
    }
  }
}

// Non-commutative reduce phase (see the header): the runs every rank holds,
// followed through the transfers in execution order.
class RankOrderReduce {
 public:
  struct Run {
    int first = 0, last = 0;
    Slice value;
  };

  RankOrderReduce(CommProgram& program, std::size_t count) : program_(program), count_(count) {
    runs_.resize(static_cast<std::size_t>(program.ranks));
    for (int rank = 0; rank < program.ranks; ++rank) runs_[static_cast<std::size_t>(rank)] = {{rank, rank, {0, 0, count}}};
  }

  // What `rank` sends now: its runs (packed into a scratch buffer when
  // there are several); appends the copies to its steps.
  Slice outgoing(int rank) {
    auto& mine = runs_[static_cast<std::size_t>(rank)];
    if (mine.size() == 1) return mine[0].value;
    const auto packed = program_.add_buffer(mine.size() * count_);
    for (std::size_t j = 0; j < mine.size(); ++j) {
      program_.add(rank, ProgramStep::copy_of(mine[j].value, {packed, j * count_, count_}));
    }
    return {packed, 0, mine.size() * count_};
  }

  // The runs `sender` holds now (what its next message carries).
  std::vector<std::pair<int, int>> carried(int sender) const {
    std::vector<std::pair<int, int>> list;
    for (const auto& run : runs_[static_cast<std::size_t>(sender)]) list.emplace_back(run.first, run.last);
    return list;
  }

  // A scratch buffer for a message of `runs` runs.
  Slice incoming(std::size_t runs) { return {program_.add_buffer(runs * count_), 0, runs * count_}; }

  // After the receive into `arrived` has completed: its runs join `rank`'s.
  void insert(int rank, const std::vector<std::pair<int, int>>& runs, const Slice& arrived) {
    for (std::size_t j = 0; j < runs.size(); ++j) {
      insert_run(rank, {runs[j].first, runs[j].second, {arrived.buffer, arrived.offset + j * count_, count_}});
    }
  }

  // The root ends with its one run in buffer 0 (when the plan gathers every
  // rank: otherwise the verifier says what is missing).
  void finish(int root) {
    const auto& mine = runs_[static_cast<std::size_t>(root)];
    if (mine.size() == 1 && !(mine[0].value == Slice{0, 0, count_})) {
      program_.add(root, ProgramStep::copy_of(mine[0].value, {0, 0, count_}));
    }
  }

 private:
  void insert_run(int rank, Run run) {
    auto& mine = runs_[static_cast<std::size_t>(rank)];
    auto at = std::lower_bound(mine.begin(), mine.end(), run.first,
                               [](const Run& existing, int first) { return existing.first < first; });
    at = mine.insert(at, run);
    auto index = static_cast<std::size_t>(at - mine.begin());
    if (index + 1 < mine.size() && mine[index].last + 1 == mine[index + 1].first) join(rank, index);
    if (index > 0 && mine[index - 1].last + 1 == mine[index].first) join(rank, index - 1);
  }

  // left op right, kept in the right run's slice (MPI_Reduce_local(in, inout)).
  void join(int rank, std::size_t left) {
    auto& mine = runs_[static_cast<std::size_t>(rank)];
    program_.add(rank, ProgramStep::combine_of(mine[left].value, mine[left + 1].value));
    mine[left + 1].first = mine[left].first;
    mine.erase(mine.begin() + static_cast<std::ptrdiff_t>(left));
  }

  CommProgram& program_;
  std::size_t count_;
  std::vector<std::vector<Run>> runs_;
};

// The reduce phase in rank order. Ranks are walked in execution order of
// the phase's transfers: a send carries what the sender holds then. Each
// rank's steps: its receives (the next posted before the previous one's
// runs are combined; eager: all posted at once), then its sends.
void add_rank_order_reduce_phase(CommProgram& program, const MakespanPlan& plan, const std::vector<std::size_t>& order,
                                 std::size_t count, bool eager, bool pace, bool send_synchronously) {
  RankOrderReduce runs(program, count);
  struct Receive {
    int from = -1;
    Slice into;
    std::vector<std::pair<int, int>> runs;
  };
  std::vector<std::vector<Receive>> receives(static_cast<std::size_t>(program.ranks));
  std::vector<std::size_t> combined(static_cast<std::size_t>(program.ranks), 0);  // receives joined so far
  std::vector<std::vector<std::uint32_t>> posted(static_cast<std::size_t>(program.ranks));
  // Posts `rank`'s receives (all of them for eager plans, else up to one
  // ahead of those combined) and joins those complete up to `through`.
  auto catch_up = [&](int rank, std::size_t through) {
    const auto r = static_cast<std::size_t>(rank);
    auto& list = receives[r];
    while (combined[r] < through) {
      const std::size_t want_posted = eager ? list.size() : std::min(list.size(), combined[r] + 2);
      while (posted[r].size() < want_posted) {
        const auto& next = list[posted[r].size()];
        posted[r].push_back(program.add(rank, ProgramStep::receive_of(next.from, next.into)));
      }
      const auto& done = list[combined[r]];
      program.add(rank, ProgramStep::wait_for({posted[r][combined[r]]}));
      runs.insert(rank, done.runs, done.into);
      ++combined[r];
    }
  };
  for (auto i : order) {
    const Transfer& t = plan.transfers[i];
    if (t.payload != Payload::partial_reduction) continue;
    const int from = static_cast<int>(t.from), to = static_cast<int>(t.to);
    // The sender joins what it has received so far, then sends it all.
    catch_up(from, receives[static_cast<std::size_t>(from)].size());
    auto carried = runs.carried(from);
    const Slice sent = runs.outgoing(from);
    if (pace) program.add(from, ProgramStep::pace_until(std::max(t.start, 0.0)));
    program.blocking_send(from, to, sent, !eager && send_synchronously);
    receives[static_cast<std::size_t>(to)].push_back({from, runs.incoming(carried.size()), std::move(carried)});
  }
  for (int rank = 0; rank < program.ranks; ++rank) catch_up(rank, receives[static_cast<std::size_t>(rank)].size());
  runs.finish(static_cast<int>(plan.root));
}

}  // namespace

CommProgram program_of_plan(const MakespanPlan& plan, int ranks, std::size_t count, const PlanLowering& lowering) {
  if (plan.operation != Operation::broadcast && plan.operation != Operation::reduce &&
      plan.operation != Operation::allreduce && plan.operation != Operation::multicast) {
    throw InputError("plan", fmt::format("a {} plan is not lowered to a program", to_string(plan.operation)));
  }
  if ((lowering.rank_order || plan.operation == Operation::multicast) && (plan.root < 0 || plan.root >= ranks)) {
    throw InputError("plan", fmt::format("root {} is not one of the {} ranks", plan.root, ranks));
  }
  std::vector<std::size_t> order(plan.transfers.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return plan.transfers[a].start < plan.transfers[b].start; });
  CommProgram program(ranks, plan.algorithm.empty() ? "hetcoll plan" : fmt::format("hetcoll {}", plan.algorithm));
  const bool combines = plan.operation == Operation::reduce || plan.operation == Operation::allreduce;
  program.rank_order = lowering.rank_order && combines;
  if (plan.model == PlanModel::eager) {
    if (plan.operation != Operation::broadcast && plan.operation != Operation::reduce) {
      throw InputError("plan", "eager plans are broadcasts and reduces");
    }
    const Payload payload = plan.operation == Operation::broadcast ? Payload::broadcast_value : Payload::partial_reduction;
    const auto phase = transfers_of_phase(plan, order, ranks, payload);
    if (plan.operation == Operation::broadcast) {
      add_eager_broadcast_phase(program, phase, count, lowering.pace_broadcasts);
    } else if (program.rank_order) {
      add_rank_order_reduce_phase(program, plan, order, count, true, lowering.pace_reduces, false);
    } else {
      add_eager_reduce_phase(program, phase, count, lowering.pace_reduces);
    }
    return program;
  }
  if (combines) {
    const bool send_synchronously = synchronous(lowering.sends, plan.operation == Operation::allreduce);
    if (program.rank_order) {
      (void)transfers_of_phase(plan, order, ranks, Payload::partial_reduction);  // checks the ends
      add_rank_order_reduce_phase(program, plan, order, count, false, false, send_synchronously);
    } else {
      add_reduce_phase(program, transfers_of_phase(plan, order, ranks, Payload::partial_reduction), count,
                       send_synchronously);
    }
  }
  if (plan.operation != Operation::reduce) {
    (void)transfers_of_phase(plan, order, ranks, Payload::broadcast_value);  // checks the ends
    std::vector<Slice> data_of(static_cast<std::size_t>(ranks), Slice{0, 0, count});
    if (plan.operation == Operation::multicast && !plan.helpers.empty()) {
      const auto relay = program.add_buffer(count);
      for (auto helper : plan.helpers) {
        if (helper >= 0 && helper < ranks && helper != plan.root) data_of[static_cast<std::size_t>(helper)] = {relay, 0, count};
      }
    }
    add_broadcast_phase(program, plan, order, data_of, lowering.sends);
  }
  return program;
}

CommProgram program_of_plan(const MakespanPlan& plan, int ranks, std::size_t count, bool pace) {
  PlanLowering lowering;
  lowering.pace_broadcasts = pace;
  return program_of_plan(plan, ranks, count, lowering);
}

}  // namespace hetcoll
