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

void add_reduce_phase(CommProgram& program, const std::vector<RankTransfers>& phase, std::size_t count,
                      bool broadcast_follows) {
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
    for (int parent : mine.send_to) program.blocking_send(rank, parent, data, broadcast_follows);
  }
}

void add_broadcast_phase(CommProgram& program, const MakespanPlan& plan, const std::vector<std::size_t>& order,
                         std::size_t count) {
  const Slice data{0, 0, count};
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
    program.blocking_receive(to, from, data);
    program.blocking_send(from, to, data, --sends_left[static_cast<std::size_t>(from)] > 0);
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

void add_eager_reduce_phase(CommProgram& program, const std::vector<RankTransfers>& phase, std::size_t count) {
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
    for (int parent : mine.send_to) program.blocking_send(rank, parent, data);
  }
}

}  // namespace

CommProgram program_of_plan(const MakespanPlan& plan, int ranks, std::size_t count, bool pace) {
  if (plan.operation != Operation::broadcast && plan.operation != Operation::reduce &&
      plan.operation != Operation::allreduce) {
    throw InputError("plan", fmt::format("a {} plan is not lowered to a program", to_string(plan.operation)));
  }
  std::vector<std::size_t> order(plan.transfers.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return plan.transfers[a].start < plan.transfers[b].start; });
  CommProgram program(ranks, plan.algorithm.empty() ? "hetcoll plan" : fmt::format("hetcoll {}", plan.algorithm));
  if (plan.model == PlanModel::eager) {
    if (plan.operation == Operation::allreduce) throw InputError("plan", "eager plans are broadcasts and reduces");
    const Payload payload = plan.operation == Operation::broadcast ? Payload::broadcast_value : Payload::partial_reduction;
    const auto phase = transfers_of_phase(plan, order, ranks, payload);
    if (plan.operation == Operation::broadcast) {
      add_eager_broadcast_phase(program, phase, count, pace);
    } else {
      add_eager_reduce_phase(program, phase, count);
    }
    return program;
  }
  if (plan.operation != Operation::broadcast) {
    add_reduce_phase(program, transfers_of_phase(plan, order, ranks, Payload::partial_reduction), count,
                     plan.operation == Operation::allreduce);
  }
  if (plan.operation != Operation::reduce) {
    (void)transfers_of_phase(plan, order, ranks, Payload::broadcast_value);  // checks the ends
    add_broadcast_phase(program, plan, order, count);
  }
  return program;
}

}  // namespace hetcoll
