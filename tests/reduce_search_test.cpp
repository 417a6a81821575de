// Optimal reduce search (optimal_search.h) and the seed's generic
// branch-and-bound (generic_search.h) against the independent brute forces
// of tests/support, the DPs, and the verifier.
#include <gtest/gtest.h>

#include <random>

#include "hetcoll/makespan/sender_speed/broadcast/sequence_local_search.h"
#include "hetcoll/makespan/sender_speed/reduce/dp_k_class.h"
#include "hetcoll/makespan/sender_speed/reduce/ep.h"
#include "hetcoll/makespan/sender_speed/reduce/generic_search.h"
#include "hetcoll/makespan/sender_speed/reduce/optimal_search.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/verify/verify.h"
#include "support/brute_force.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

// Times exact in binary (multiples of 1/4) so that ties are exact.
Cluster random_cluster(std::mt19937_64& rng, int n, int distinct) {
  static const double palette[] = {1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0, 5.0};
  std::vector<double> choices;
  std::vector<double> all(std::begin(palette), std::end(palette));
  std::shuffle(all.begin(), all.end(), rng);
  choices.assign(all.begin(), all.begin() + distinct);
  std::vector<double> times(static_cast<size_t>(n));
  for (auto& t : times) t = choices[std::uniform_int_distribution<size_t>(0, choices.size() - 1)(rng)];
  return Cluster::from_times(times);
}

void expect_valid(const Cluster& cluster, const MakespanPlan& plan) {
  VerifyReport report = verify(cluster, plan);
  EXPECT_TRUE(report.valid) << report.summary();
}

MakespanPlan run(const Cluster& cluster, ProcessorIndex root, std::string_view algorithm) {
  MakespanRequest request;
  request.operation = Operation::reduce;
  request.root = root;
  return plan_makespan(cluster, request, algorithm);
}

TEST(ReduceSearch, MatchesBothBruteForcesOnSmallClusters) {
  std::mt19937_64 rng(20240501);
  int checked_pairs = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 9)(rng);
    const int distinct = std::uniform_int_distribution<int>(1, 4)(rng);
    Cluster cluster = random_cluster(rng, n, distinct);
    const ProcessorIndex root = std::uniform_int_distribution<int>(0, n - 1)(rng);
    const double by_orders = testing::reduce_by_ep_orders(cluster, root);
    MakespanPlan optimal = run(cluster, root, "optimal");
    ASSERT_TRUE(optimal.optimal);
    ASSERT_FALSE(optimal.limit_reached());
    ASSERT_NEAR(optimal.makespan, by_orders, 1e-9) << "trial " << trial;
    EXPECT_DOUBLE_EQ(optimal.lower_bound, optimal.makespan);
    expect_valid(cluster, optimal);
    if (n <= 7) {
      ASSERT_NEAR(optimal.makespan, testing::reduce_by_pairs(cluster, root), 1e-9) << "trial " << trial;
      ++checked_pairs;
    }
    if (trial % 3 == 0) {
      MakespanPlan generic = run(cluster, root, "generic-bnb");
      ASSERT_NEAR(generic.makespan, by_orders, 1e-9) << "trial " << trial;
      EXPECT_TRUE(generic.optimal);
      expect_valid(cluster, generic);
    }
  }
  EXPECT_GT(checked_pairs, 1000);
}

// All-distinct times, where plan_reduce_optimal starts from SNF's order
// improved by pairwise interchanges (broadcast/sequence_local_search.h):
// the optimum still matches brute force, the improved order lies between
// the optimum and SNF, and it does beat SNF (a no-op would pass the rest).
TEST(ReduceSearch, LocalSearchIncumbentOnDistinctTimes) {
  std::mt19937_64 rng(1313);
  int improved = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    const int n = std::uniform_int_distribution<int>(3, 9)(rng);
    Cluster cluster = testing::random_cluster(rng, n, 0, 4.0);
    const ProcessorIndex root = std::uniform_int_distribution<int>(0, n - 1)(rng);
    const double optimum = testing::reduce_by_ep_orders(cluster, root);
    MakespanPlan optimal = run(cluster, root, "optimal");
    ASSERT_TRUE(optimal.optimal);
    ASSERT_NEAR(optimal.makespan, optimum, 1e-9) << "trial " << trial;
    expect_valid(cluster, optimal);
    std::vector<ProcessorIndex> order = snf_order(cluster, root);
    const double snf = ep_makespan(cluster, order);
    const double swapped = improve_order_by_swaps(
        order, [&](const std::vector<ProcessorIndex>& o) { return ep_makespan(cluster, o); },
        [](ProcessorIndex, ProcessorIndex) { return false; }, cluster.tolerance(), 4000);
    ASSERT_LE(swapped, snf + 1e-9) << "trial " << trial;
    ASSERT_GE(swapped, optimum - 1e-9) << "trial " << trial;
    ASSERT_NEAR(ep_makespan(cluster, order), swapped, 1e-12) << "trial " << trial;
    if (swapped < snf - 1e-9) ++improved;
  }
  EXPECT_GT(improved, 30);
}

TEST(ReduceSearch, AgreesWithDpAndGenericOnMediumClusters) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = std::uniform_int_distribution<int>(10, 14)(rng);
    Cluster cluster = random_cluster(rng, n, 3);
    const ProcessorIndex root = std::uniform_int_distribution<int>(0, n - 1)(rng);
    MakespanPlan optimal = run(cluster, root, "optimal");
    MakespanPlan dp = run(cluster, root, "dp");
    ASSERT_TRUE(optimal.optimal);
    ASSERT_NEAR(optimal.makespan, dp.makespan, 1e-9) << "trial " << trial;
    if (n <= 12) {
      MakespanPlan generic = run(cluster, root, "generic-bnb");
      ASSERT_NEAR(generic.makespan, optimal.makespan, 1e-9) << "trial " << trial;
      // The seed's point (Table 1): the guided search examines far fewer nodes.
      EXPECT_LT(optimal.stats.nodes, generic.stats.nodes);
    }
    expect_valid(cluster, optimal);
    expect_valid(cluster, dp);
  }
}

TEST(ReduceSearch, ThreeClassesTwentyOneSendersMatchesDp) {
  std::mt19937_64 rng(21);
  const double speeds[] = {1.0, 1.5, 2.25};
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> times{1.0};  // the destination
    for (int i = 0; i < 21; ++i) times.push_back(speeds[std::uniform_int_distribution<int>(0, 2)(rng)]);
    Cluster cluster = Cluster::from_times(times);
    MakespanPlan optimal = run(cluster, 0, "optimal");
    MakespanPlan dp = run(cluster, 0, "dp");
    ASSERT_TRUE(optimal.optimal);
    EXPECT_NEAR(optimal.makespan, dp.makespan, 1e-9);
    EXPECT_LE(optimal.makespan, ep_makespan(cluster, snf_order(cluster, 0)) + 1e-9);
    expect_valid(cluster, optimal);
  }
}

TEST(ReduceSearch, Fig8CounterexampleOptimum) {
  // Liu, Kuo, Wang 2009, Fig. 8: 8 fast (t = 1), 4 slow (t = x), destination slow.
  for (double x : {1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875}) {
    std::vector<double> times(8, 1.0);
    for (int i = 0; i < 4; ++i) times.push_back(x);
    Cluster cluster = Cluster::from_times(times);
    const ProcessorIndex root = 8;
    MakespanPlan optimal = run(cluster, root, "optimal");
    const double expected = x < 1.5 ? 4.0 : 2 * x + 1;
    EXPECT_DOUBLE_EQ(optimal.makespan, expected) << "x = " << x;
    EXPECT_TRUE(optimal.optimal);
    EXPECT_DOUBLE_EQ(run(cluster, root, "snf").makespan, x + 3) << "x = " << x;
    EXPECT_DOUBLE_EQ(run(cluster, root, "generic-bnb").makespan, expected) << "x = " << x;
    expect_valid(cluster, optimal);
  }
}

TEST(ReduceSearch, LimitsReturnTheBestPlanSoFar) {
  std::vector<double> times{1.0};
  const double speeds[] = {1.0, 1.5, 2.25};
  std::mt19937_64 rng(3);
  for (int i = 0; i < 40; ++i) times.push_back(speeds[std::uniform_int_distribution<int>(0, 2)(rng)]);
  Cluster cluster = Cluster::from_times(times);
  MakespanRequest request;
  request.operation = Operation::reduce;
  request.root = 0;
  request.limits.node_limit = 5;
  for (const char* algorithm : {"optimal", "generic-bnb"}) {
    MakespanPlan plan = plan_makespan(cluster, request, algorithm);
    EXPECT_TRUE(plan.limit_reached()) << algorithm;
    EXPECT_FALSE(plan.optimal) << algorithm;
    EXPECT_LE(plan.lower_bound, plan.makespan);
    expect_valid(cluster, plan);
  }
  // A time limit stops the search too, with the incumbent kept.
  ReduceTreeSearch search({1.0, 1.5, 2.25}, {300, 300, 300});
  SearchLimits limits;
  limits.time_limit_seconds = 0.05;
  search.incumbent(100.0).limits(limits);
  ReduceTreeSearchResult result = search.run();
  EXPECT_GT(result.nodes, 0u);
  if (!result.finished()) {
    EXPECT_LE(result.best, 100.0);
  }
}

TEST(ReduceSearch, TrivialClusters) {
  Cluster one = Cluster::from_times({2.0});
  MakespanPlan plan = run(one, 0, "optimal");
  EXPECT_EQ(plan.makespan, 0.0);
  EXPECT_TRUE(plan.transfers.empty());
  expect_valid(one, plan);
  Cluster two = Cluster::from_times({2.0, 3.0});
  EXPECT_DOUBLE_EQ(run(two, 0, "optimal").makespan, 3.0);
  EXPECT_DOUBLE_EQ(run(two, 1, "optimal").makespan, 2.0);
  EXPECT_DOUBLE_EQ(run(two, 1, "generic-bnb").makespan, 2.0);
}

TEST(ReduceSearch, MemoDoesNotChangeTheOptimum) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<int> counts(3);
    for (auto& c : counts) c = std::uniform_int_distribution<int>(0, 7)(rng);
    ReduceTreeSearchResult with = ReduceTreeSearch({1.0, 1.5, 2.25}, counts).run();
    ReduceTreeSearchResult without = ReduceTreeSearch({1.0, 1.5, 2.25}, counts).memoise(false).run();
    ASSERT_TRUE(with.finished() && without.finished());
    EXPECT_DOUBLE_EQ(with.best, without.best);
    EXPECT_LE(with.nodes, without.nodes);
  }
}

TEST(ReduceSearch, ClassSequenceTreeSizeMatchesSeedTable1Scale) {
  // Liu, Kuo, Wang 2009, Table 1 counts N over class sequences of the P senders: for
  // counts (1, 1) the prefixes are {}, a, b, ab, ba = 5.
  EXPECT_DOUBLE_EQ(static_cast<double>(class_sequence_tree_size({1, 1})), 5.0);
  EXPECT_DOUBLE_EQ(static_cast<double>(class_sequence_tree_size({2})), 3.0);
  EXPECT_DOUBLE_EQ(static_cast<double>(class_sequence_tree_size({2, 1})), 1 + 2 + 3 + 3.0);
}

}  // namespace
}  // namespace hetcoll
