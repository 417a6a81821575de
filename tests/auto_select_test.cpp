// The default selector (`--algo auto`): never worse than the greedy plan,
// valid, and every optimality claim equals the brute-force optimum.
#include <gtest/gtest.h>

#include <random>

#include "hetcoll/makespan/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/auto_select.h"
#include "hetcoll/makespan/broadcast/fnf.h"
#include "hetcoll/makespan/reduce/snf.h"
#include "hetcoll/verify/verify.h"
#include "support/brute_force.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

constexpr double kSlack = 1e-9;

TEST(AutoSelect, OptimalOnSmallClustersAndNeverWorseThanGreedy) {
  std::mt19937_64 rng(2026);
  SearchLimits request;
  for (int trial = 0; trial < 1500; ++trial) {
    int n = std::uniform_int_distribution<int>(1, 8)(rng);
    Cluster cluster = testing::random_cluster(rng, n, trial % 5, 4.0);
    ProcessorIndex root = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);

    MakespanPlan broadcast = plan_broadcast_auto(cluster, root, request);
    ASSERT_TRUE(verify(cluster, broadcast).valid) << verify(cluster, broadcast).summary();
    EXPECT_LE(broadcast.makespan, plan_broadcast_fnf(cluster, root).makespan + kSlack);
    EXPECT_TRUE(broadcast.optimal) << "small clusters finish within the budget";
    EXPECT_NEAR(broadcast.makespan, testing::broadcast_by_sequences(cluster, root), kSlack);

    MakespanPlan reduce = plan_reduce_auto(cluster, root, request);
    ASSERT_TRUE(verify(cluster, reduce).valid) << verify(cluster, reduce).summary();
    EXPECT_LE(reduce.makespan, plan_reduce_snf(cluster, root).makespan + kSlack);
    EXPECT_TRUE(reduce.optimal);
    EXPECT_NEAR(reduce.makespan, testing::reduce_by_ep_orders(cluster, root), kSlack);

    MakespanPlan allreduce = plan_allreduce_auto(cluster, kNoProcessor, request);
    ASSERT_TRUE(verify(cluster, allreduce).valid) << verify(cluster, allreduce).summary();
    EXPECT_LE(allreduce.makespan, plan_allreduce_snf_fnf(cluster, kNoProcessor).makespan + kSlack);
    EXPECT_LE(allreduce.guarantee.ratio, 3.5);
  }
}

TEST(AutoSelect, LargeClustersFallBackWithinTheBudget) {
  std::mt19937_64 rng(5);
  // Continuous times: no theorem applies; the search runs to its budget.
  Cluster cluster = testing::random_cluster(rng, kAutoSearchMaxProcessors, 0, 9.0);
  SearchLimits request;
  MakespanPlan broadcast = plan_broadcast_auto(cluster, 0, request);
  EXPECT_TRUE(verify(cluster, broadcast).valid);
  EXPECT_FALSE(broadcast.limit_reached());
  EXPECT_LE(broadcast.stats.nodes, kAutoSearchNodeBudget + 1000);
  MakespanPlan reduce = plan_reduce_auto(cluster, 0, request);
  EXPECT_TRUE(verify(cluster, reduce).valid);
  EXPECT_FALSE(reduce.limit_reached());
  // Beyond the size limit the greedy plan comes back at once.
  Cluster large = testing::random_cluster(rng, 5000, 0, 9.0);
  MakespanPlan large_broadcast = plan_broadcast_auto(large, 0, request);
  EXPECT_EQ(large_broadcast.algorithm, "fnf");
  EXPECT_TRUE(verify(large, large_broadcast).valid);
  EXPECT_EQ(plan_reduce_auto(large, 0, request).algorithm, "snf");
}

}  // namespace
}  // namespace hetcoll
