// The binomial baselines (MPI's trees in the sender-speed model) must be
// valid plans, and coincide with FNF/SNF on homogeneous power-of-two clusters.
#include <gtest/gtest.h>

#include <random>

#include "hetcoll/makespan/broadcast/binomial.h"
#include "hetcoll/makespan/broadcast/fnf.h"
#include "hetcoll/makespan/reduce/binomial.h"
#include "hetcoll/makespan/reduce/snf.h"
#include "hetcoll/verify/verify.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

TEST(Binomial, ValidOnRandomClusters) {
  std::mt19937_64 rng(123);
  for (int trial = 0; trial < 2000; ++trial) {
    int n = std::uniform_int_distribution<int>(1, 70)(rng);
    Cluster cluster = testing::random_cluster(rng, n, trial % 4);
    ProcessorIndex root = std::uniform_int_distribution<ProcessorIndex>(0, cluster.size() - 1)(rng);
    for (const auto& plan : {plan_broadcast_binomial(cluster, root), plan_reduce_binomial(cluster, root)}) {
      auto report = verify(cluster, plan);
      ASSERT_TRUE(report.valid) << report.summary();
      EXPECT_EQ(plan.transfers.size(), static_cast<size_t>(n - 1));
    }
  }
}

TEST(Binomial, MatchesGreedyOnHomogeneousPowersOfTwo) {
  for (int k = 0; k <= 8; ++k) {
    Cluster cluster = Cluster::from_times(std::vector<double>(static_cast<size_t>(1) << k, 2.0));
    EXPECT_DOUBLE_EQ(plan_broadcast_binomial(cluster, 0).makespan, 2.0 * k);
    EXPECT_DOUBLE_EQ(plan_reduce_binomial(cluster, 0).makespan, 2.0 * k);
    EXPECT_DOUBLE_EQ(plan_broadcast_fnf(cluster, 0).makespan, 2.0 * k);
    EXPECT_DOUBLE_EQ(plan_reduce_snf(cluster, 0).makespan, 2.0 * k);
  }
}

TEST(Binomial, IgnoresSpeeds) {
  // A slow processor at rank 4 receives first and forwards to half the tree.
  Cluster cluster = Cluster::from_times({1, 1, 1, 1, 10, 1, 1, 1});
  EXPECT_DOUBLE_EQ(plan_broadcast_binomial(cluster, 0).makespan, 21.0);
  EXPECT_DOUBLE_EQ(plan_broadcast_fnf(cluster, 0).makespan, 3.0);  // FNF serves the slow one last
}

}  // namespace
}  // namespace hetcoll
