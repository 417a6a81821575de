// The default selector (`--algo auto`): never worse than the greedy plan,
// valid, and every optimality claim equals the brute-force optimum.
#include <gtest/gtest.h>

#include <random>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/sender_speed/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/sender_speed/auto_select.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/verify/verify.h"
#include "support/brute_force.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

constexpr double kSlack = 1e-9;

TEST(AutoSelect, OptimalOnSmallClustersAndNeverWorseThanGreedy) {
  std::mt19937_64 rng(2026);
  SearchLimits request;
  AutoBudget nodes;  // deterministic: a loaded machine must not change the answer
  nodes.nodes = kAutoSearchNodeBudget;
  for (int trial = 0; trial < 1500; ++trial) {
    int n = std::uniform_int_distribution<int>(1, 8)(rng);
    Cluster cluster = testing::random_cluster(rng, n, trial % 5, 4.0);
    ProcessorIndex root = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);

    MakespanPlan broadcast = plan_broadcast_auto(cluster, root, request, nodes);
    ASSERT_TRUE(verify(cluster, broadcast).valid) << verify(cluster, broadcast).summary();
    EXPECT_LE(broadcast.makespan, plan_broadcast_fnf(cluster, root).makespan + kSlack);
    EXPECT_TRUE(broadcast.optimal) << "small clusters finish within the budget";
    EXPECT_NEAR(broadcast.makespan, testing::broadcast_by_sequences(cluster, root), kSlack);

    MakespanPlan reduce = plan_reduce_auto(cluster, root, request, nodes);
    ASSERT_TRUE(verify(cluster, reduce).valid) << verify(cluster, reduce).summary();
    EXPECT_LE(reduce.makespan, plan_reduce_snf(cluster, root).makespan + kSlack);
    EXPECT_TRUE(reduce.optimal);
    EXPECT_NEAR(reduce.makespan, testing::reduce_by_ep_orders(cluster, root), kSlack);

    MakespanPlan allreduce = plan_allreduce_auto(cluster, kNoProcessor, request, nodes);
    ASSERT_TRUE(verify(cluster, allreduce).valid) << verify(cluster, allreduce).summary();
    EXPECT_LE(allreduce.makespan, plan_allreduce_snf_fnf(cluster, kNoProcessor).makespan + kSlack);
    EXPECT_LE(allreduce.guarantee.ratio, 3.5);
  }
}

TEST(AutoSelect, LargeClustersFallBackWithinTheBudget) {
  std::mt19937_64 rng(5);
  // Continuous times: no theorem applies; the search runs to its (time)
  // budget, a normal end that says what it tried.
  Cluster cluster = testing::random_cluster(rng, kAutoSearchMaxProcessors, 0, 9.0);
  SearchLimits request;
  for (MakespanPlan plan : {plan_broadcast_auto(cluster, 0, request), plan_reduce_auto(cluster, 0, request)}) {
    EXPECT_TRUE(verify(cluster, plan).valid) << verify(cluster, plan).summary();
    EXPECT_FALSE(plan.limit_reached());
    ASSERT_FALSE(plan.notes.empty());
    EXPECT_NE(plan.notes.back().find("auto: tried"), std::string::npos) << plan.notes.back();
  }
  // Beyond the size limit the greedy plan comes back at once.
  Cluster large = testing::random_cluster(rng, 5000, 0, 9.0);
  MakespanPlan large_broadcast = plan_broadcast_auto(large, 0, request);
  EXPECT_EQ(large_broadcast.algorithm, "fnf");
  EXPECT_TRUE(verify(large, large_broadcast).valid);
  EXPECT_EQ(plan_reduce_auto(large, 0, request).algorithm, "snf");
}

// --node-limit under auto: exactly that many nodes, no time budget of ours,
// and the stop is the user's (exit code 4).
TEST(AutoSelect, UserNodeLimitIsHonouredExactly) {
  std::mt19937_64 rng(17);
  Cluster cluster = testing::random_cluster(rng, 40, 0, 4.0);
  SearchLimits limits;
  limits.node_limit = 777;
  for (MakespanPlan plan : {plan_broadcast_auto(cluster, 0, limits), plan_reduce_auto(cluster, 0, limits)}) {
    if (plan.optimal) continue;  // a theorem or a quick search proved the greedy plan
    EXPECT_EQ(plan.stats.nodes, 777u);
    EXPECT_EQ(plan.status, SearchStatus::node_limit);
    EXPECT_TRUE(verify(cluster, plan).valid) << verify(cluster, plan).summary();
  }
}

// A node budget of ours is deterministic and a normal end.
TEST(AutoSelect, NodeBudgetIsDeterministic) {
  std::mt19937_64 rng(18);
  Cluster cluster = testing::random_cluster(rng, 40, 0, 4.0);
  AutoBudget budget;
  budget.nodes = 500;
  MakespanPlan first = plan_broadcast_auto(cluster, 0, {}, budget);
  MakespanPlan second = plan_broadcast_auto(cluster, 0, {}, budget);
  EXPECT_EQ(first.stats.nodes, second.stats.nodes);
  EXPECT_EQ(first.makespan, second.makespan);
  EXPECT_EQ(first.lower_bound, second.lower_bound);
  if (!first.optimal) {
    EXPECT_EQ(first.stats.nodes, 500u);
    EXPECT_EQ(first.status, SearchStatus::finished);
  }
  EXPECT_TRUE(verify(cluster, first).valid);
}

TEST(AutoSelect, TimeBudgetStopIsANormalEnd) {
  std::mt19937_64 rng(19);
  Cluster cluster = testing::random_cluster(rng, 45, 0, 4.0);
  AutoBudget budget;
  budget.seconds = 0.001;
  MakespanPlan plan = plan_reduce_auto(cluster, 0, {}, budget);
  EXPECT_FALSE(plan.limit_reached());
  EXPECT_TRUE(verify(cluster, plan).valid) << verify(cluster, plan).summary();
  // The user's smaller time limit is the user's stop.
  SearchLimits limits;
  limits.time_limit_seconds = 1e-6;
  MakespanPlan stopped = plan_reduce_auto(cluster, 0, limits, budget);
  if (!stopped.optimal) {
    EXPECT_EQ(stopped.status, SearchStatus::time_limit);
  }
}

// A time budget that stops the search before kAutoMinimumNodes nodes (here
// a nanosecond: any machine, any load) gives way to that many nodes, so a
// small instance's proven optimum does not depend on the machine's load.
TEST(AutoSelect, ATinyTimeBudgetStillSearchesTheMinimumNodes) {
  const Cluster cluster({"p0", "p1", "p2", "p3", "p4", "p5", "p6"}, {1, 3, 3, 2, 3, 3, 3});
  AutoBudget budget;
  budget.seconds = 1e-9;
  const MakespanPlan broadcast = plan_broadcast_auto(cluster, 0, {}, budget);
  EXPECT_TRUE(broadcast.optimal);
  EXPECT_DOUBLE_EQ(broadcast.makespan, 4);
  EXPECT_LE(broadcast.stats.nodes, kAutoMinimumNodes);
  EXPECT_TRUE(verify(cluster, broadcast).valid);
  const MakespanPlan reduce = plan_reduce_auto(cluster, 0, {}, budget);
  EXPECT_TRUE(verify(cluster, reduce).valid);
  EXPECT_LE(reduce.stats.nodes, kAutoMinimumNodes);
  // The user's limits still hold: their node limit is theirs.
  SearchLimits limits;
  limits.node_limit = 2;
  EXPECT_LE(plan_broadcast_auto(cluster, 0, limits, budget).stats.nodes, 2u);
}

TEST(AutoSelect, BadBudgetsAreInputErrors) {
  Cluster cluster = Cluster::from_times({1.0, 2.0, 3.0});
  for (double seconds : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    AutoBudget budget;
    budget.seconds = seconds;
    EXPECT_THROW(plan_broadcast_auto(cluster, 0, {}, budget), InputError) << seconds;
  }
  AutoBudget zero;
  zero.nodes = 0;
  EXPECT_THROW(plan_reduce_auto(cluster, 0, {}, zero), InputError);
}

}  // namespace
}  // namespace hetcoll
