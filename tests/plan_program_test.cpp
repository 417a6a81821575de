// Plans lowered to communication programs (plan/plan_program.h) compute
// their collective (verify/verify_program.h): reduce and all-reduce plans
// of every sender-speed algorithm in rank order (non-commutative
// operations: every combine joins consecutive ranks, the lower on the
// left), plans whose subtrees are not consecutive ranks (a message carries
// several runs), eager reduces, and multicasts (helpers through scratch
// space, non-targets untouched); and the rank-order check fails where a
// program combines out of order.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "hetcoll/core/error.h"
#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/comm_program.h"
#include "hetcoll/plan/plan_program.h"
#include "hetcoll/plan/program_bytes.h"
#include "hetcoll/registry/plans_on_ranks.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/verify/verify_program.h"

namespace hetcoll {
namespace {

PlanLowering in_rank_order() {
  PlanLowering lowering;
  lowering.rank_order = true;
  return lowering;
}

Transfer partial(ProcessorIndex from, ProcessorIndex to, double start) {
  Transfer t;
  t.from = from;
  t.to = to;
  t.start = start;
  t.end = start + 1;
  t.payload = Payload::partial_reduction;
  return t;
}

TEST(PlanProgram, EveryReducePlanInRankOrderComputesMpisResult) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> time(1.0, 9.0);
  for (int n : {2, 3, 5, 8, 13}) {
    std::vector<double> times;
    for (int p = 0; p < n; ++p) times.push_back(time(random));
    const auto cluster = Cluster::from_times(times);
    for (auto operation : {Operation::reduce, Operation::allreduce}) {
      for (int root : {0, n / 2, n - 1}) {
        if (operation == Operation::allreduce && root != 0) continue;
        for (const std::string algorithm : {"", "snf", "binomial"}) {
          MakespanPlan plan;
          try {
            plan = plan_for_cluster(cluster, operation, operation == Operation::allreduce ? kNoProcessor : root,
                                    algorithm);
          } catch (const InputError&) {
            continue;  // an algorithm that does not take this operation
          }
          for (std::size_t count : {std::size_t{1}, std::size_t{5}}) {
            const auto program = program_of_plan(plan, n, count, in_rank_order());
            EXPECT_TRUE(program.rank_order);
            const auto report = verify_program(program, operation, static_cast<int>(plan.root), count);
            EXPECT_TRUE(report.valid) << to_string(operation) << " " << plan.algorithm << " n=" << n << " root "
                                      << root << ": " << report.summary();
            // The arrival-order program of the same plan is valid for commutative operations.
            const auto commutative = program_of_plan(plan, n, count);
            EXPECT_FALSE(commutative.rank_order);
            EXPECT_TRUE(verify_program(commutative, operation, static_cast<int>(plan.root), count).valid);
          }
        }
      }
    }
  }
}

// 0 <- 1 <- 3 and 0 <- 2: rank 1 holds ranks {1, 3}, two runs, and sends
// both in one message of twice the elements; rank 0 joins {0}, {1}, {2},
// {3} in rank order whatever order they arrive in.
MakespanPlan scattered_reduce(PlanModel model) {
  MakespanPlan plan;
  plan.operation = Operation::reduce;
  plan.model = model;
  plan.root = 0;
  plan.transfers = {partial(3, 1, 0), partial(2, 0, 0.5), partial(1, 0, 2)};
  return plan;
}

TEST(PlanProgram, RunsThatDoNotMeetTravelTogether) {
  for (auto model : {PlanModel::sender_speed, PlanModel::eager}) {
    const auto plan = scattered_reduce(model);
    const std::size_t count = 3;
    const auto program = program_of_plan(plan, 4, count, in_rank_order());
    const auto report = verify_program(program, Operation::reduce, 0, count);
    EXPECT_TRUE(report.valid) << report.summary();
    std::size_t from_rank_1 = 0;
    for (const auto& step : program.steps[1]) {
      if (step.kind == ProgramStep::Kind::send) from_rank_1 += step.data.count;
    }
    EXPECT_EQ(from_rank_1, 2 * count);  // two runs, {1} and {3}
    // Sent as bytes (rank 0 to the others), it stays a rank-order program.
    const auto bytes = encode_program(program);
    const auto back = decode_program(std::string_view(bytes.data(), bytes.size()), count);
    EXPECT_TRUE(back.rank_order);
    EXPECT_EQ(encode_program(back), bytes);
    // Arrival order instead: rank 0 combines {2} into {0} first, then
    // {1, 3}: not rank order, and the check says so.
    auto out_of_order = program_of_plan(plan, 4, count);
    EXPECT_TRUE(verify_program(out_of_order, Operation::reduce, 0, count).valid);
    out_of_order.rank_order = true;
    const auto refused = verify_program(out_of_order, Operation::reduce, 0, count);
    ASSERT_FALSE(refused.valid);
    EXPECT_NE(refused.violations.front().find("rank order"), std::string::npos) << refused.summary();
  }
}

TEST(PlanProgram, RankOrderCheckRefusesTheRightOperandOnTheLeft) {
  // Rank 1 sends its value to 0, which combines it as the left operand:
  // x_1 op x_0, the wrong order.
  CommProgram program(2, "right on the left");
  program.rank_order = true;
  const auto incoming = program.add_buffer(2);
  program.blocking_send(1, 0, {0, 0, 2});
  program.blocking_receive(0, 1, {incoming, 0, 2});
  program.add(0, ProgramStep::combine_of({0, 0, 2}, {incoming, 0, 2}));  // x_0 op x_1: right
  program.add(0, ProgramStep::copy_of({incoming, 0, 2}, {0, 0, 2}));
  EXPECT_TRUE(verify_program(program, Operation::reduce, 0, 2).valid);
  CommProgram wrong(2, "wrong");
  wrong.rank_order = true;
  const auto scratch = wrong.add_buffer(2);
  wrong.blocking_send(1, 0, {0, 0, 2});
  wrong.blocking_receive(0, 1, {scratch, 0, 2});
  wrong.add(0, ProgramStep::combine_of({scratch, 0, 2}, {0, 0, 2}));  // x_1 op x_0
  EXPECT_FALSE(verify_program(wrong, Operation::reduce, 0, 2).valid);
  wrong.rank_order = false;  // fine for a commutative operation
  EXPECT_TRUE(verify_program(wrong, Operation::reduce, 0, 2).valid);
}

TEST(PlanProgram, RankOrderOnMoreThan64Ranks) {
  // A chain 69 -> 68 -> ... -> 0: each rank joins its own value on the
  // left of what arrives (runs cross the 64-bit words of the checker).
  const int n = 70;
  MakespanPlan plan;
  plan.operation = Operation::reduce;
  plan.root = 0;
  for (int r = n - 1; r >= 1; --r) plan.transfers.push_back(partial(r, r - 1, n - r));
  const auto program = program_of_plan(plan, n, 2, in_rank_order());
  const auto report = verify_program(program, Operation::reduce, 0, 2);
  EXPECT_TRUE(report.valid) << report.summary();
}

TEST(PlanProgram, MulticastHelpersForwardThroughScratchSpace) {
  MakespanRequest request;
  request.operation = Operation::multicast;
  request.root = 4;
  request.targets = {5, 6, 7};
  const auto cluster = Cluster::from_times({1, 1, 1, 1, 8, 8, 8, 8});
  const auto plan = plan_makespan(cluster, request, "");
  ASSERT_FALSE(plan.helpers.empty());  // the fast processors help
  const auto program = program_of_plan(plan, 8, 10);
  const auto report = verify_program(program, Operation::multicast, 4, 10, {5, 6, 7});
  EXPECT_TRUE(report.valid) << report.summary();
  // A helper that wrote into its own buffer 0 is caught.
  auto careless = program;
  for (auto& steps : careless.steps) {
    for (auto& step : steps) step.data.buffer = 0;
  }
  EXPECT_FALSE(verify_program(careless, Operation::multicast, 4, 10, {5, 6, 7}).valid);
  // Targets are ranks other than the root.
  EXPECT_FALSE(verify_program(program, Operation::multicast, 4, 10, {4}).valid);
}

}  // namespace
}  // namespace hetcoll
