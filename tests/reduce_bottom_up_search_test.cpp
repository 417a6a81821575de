// The bottom-up reduce search (reduce/bottom_up_search.h) against the brute
// force of tests/support, the top-down search (reduce/optimal_search.h) and
// mcp_length: exact optima, trees of the right senders and length, and
// honest bounds when a node budget stops it.
#include <gtest/gtest.h>

#include <random>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/sender_speed/reduce/bottom_up_search.h"
#include "hetcoll/makespan/sender_speed/reduce/leaf_average_bound.h"
#include "hetcoll/makespan/sender_speed/reduce/mcp_tree.h"
#include "hetcoll/makespan/sender_speed/reduce/optimal_search.h"
#include "hetcoll/verify/verify.h"
#include "support/brute_force.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

// The tree has every sender of every class once and the claimed length.
void expect_tree(const ReduceTreeSearchResult& result, const SenderClasses& classes) {
  ASSERT_TRUE(result.improved);
  std::vector<int> seen(classes.times.size(), 0);
  for (const McpNode& node : result.tree.nodes) ++seen[static_cast<size_t>(node.class_index)];
  EXPECT_EQ(seen, classes.counts());
  EXPECT_NEAR(mcp_length(result.tree, classes.times), result.best, 1e-9);
}

TEST(ReduceBottomUpSearch, MatchesBruteForceOnSmallClusters) {
  std::mt19937_64 rng(1339);
  for (int trial = 0; trial < 1500; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 9)(rng);
    const int classes_wanted = trial % 2 ? 0 : std::uniform_int_distribution<int>(1, 4)(rng);
    Cluster cluster = testing::random_cluster(rng, n, classes_wanted, 4.0);
    const ProcessorIndex root = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);
    const SenderClasses classes = sender_classes(cluster, root);
    ASSERT_EQ(classes.spread, 0);  // exact ties only: the class times are the times
    const double optimum = testing::reduce_by_ep_orders(cluster, root);
    const ReduceTreeSearchResult result = ReduceBottomUpSearch(classes.times, classes.counts()).run();
    ASSERT_TRUE(result.finished());
    ASSERT_NEAR(result.best, optimum, 1e-9) << "trial " << trial;
    EXPECT_DOUBLE_EQ(result.lower_bound, result.best);
    expect_tree(result, classes);
  }
}

// With the best possible incumbent (the optimum) it proves it without
// finding a tree, and a stopped search never claims more than the truth.
TEST(ReduceBottomUpSearch, BoundsAndIncumbentsOnAllDistinctTimes) {
  std::mt19937_64 rng(1340);
  std::uniform_real_distribution<double> uniform(1.0, 4.0);
  int stopped = 0, improved = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int n = std::uniform_int_distribution<int>(10, 18)(rng);
    std::vector<double> times(static_cast<size_t>(n));
    for (auto& t : times) t = uniform(rng);
    const Cluster cluster = Cluster::from_times(times);
    const SenderClasses classes = sender_classes(cluster, 0);
    const ReduceTreeSearchResult top_down = ReduceTreeSearch(classes.times, classes.counts()).run();
    ASSERT_TRUE(top_down.finished());
    const ReduceTreeSearchResult bottom_up = ReduceBottomUpSearch(classes.times, classes.counts()).run();
    ASSERT_TRUE(bottom_up.finished());
    ASSERT_NEAR(bottom_up.best, top_down.best, 1e-9) << "trial " << trial;
    expect_tree(bottom_up, classes);

    const ReduceTreeSearchResult proving =
        ReduceBottomUpSearch(classes.times, classes.counts()).incumbent(top_down.best).run();
    ASSERT_TRUE(proving.finished());
    EXPECT_FALSE(proving.improved);
    EXPECT_DOUBLE_EQ(proving.lower_bound, top_down.best);

    SearchLimits limits;
    limits.node_limit = std::uniform_int_distribution<std::uint64_t>(1, 3000)(rng);
    const double start = reduce_leaf_average_bound(cluster, 0);
    const ReduceTreeSearchResult partial =
        ReduceBottomUpSearch(classes.times, classes.counts()).incumbent(1.03 * top_down.best).lower_bound(start).limits(limits).run();
    EXPECT_LE(partial.lower_bound, top_down.best + 1e-9) << "trial " << trial;
    EXPECT_GE(partial.best, top_down.best - 1e-9) << "trial " << trial;
    if (!partial.finished()) {
      ++stopped;
      EXPECT_EQ(partial.nodes, limits.node_limit);
      EXPECT_EQ(partial.lower_bound, start);  // the given bound, not more
      if (partial.improved) ++improved;
    } else {
      EXPECT_NEAR(partial.lower_bound, top_down.best, 1e-9);
    }
  }
  EXPECT_GT(stopped, 5);
  EXPECT_GT(improved, 0);  // stopped passes still improve the incumbent
}

// plan_reduce_optimal takes this search on all-distinct times; its plan
// passes verify/, and under a node budget two runs give the same plan,
// bound and node count.
TEST(ReduceBottomUpSearch, NodeBudgetRunsAreDeterministic) {
  std::mt19937_64 rng(1341);
  std::uniform_real_distribution<double> uniform(1.0, 4.0);
  for (int trial = 0; trial < 4; ++trial) {
    std::vector<double> times(30);
    for (auto& t : times) t = uniform(rng);
    const Cluster cluster = Cluster::from_times(times);
    SearchLimits limits;
    limits.node_limit = 20000;
    const MakespanPlan first = plan_reduce_optimal(cluster, 0, limits);
    const MakespanPlan second = plan_reduce_optimal(cluster, 0, limits);
    const VerifyReport report = verify(cluster, first);
    EXPECT_TRUE(report.valid) << report.summary();
    EXPECT_EQ(first.makespan, second.makespan);
    EXPECT_EQ(first.lower_bound, second.lower_bound);
    EXPECT_EQ(first.stats.nodes, second.stats.nodes);
    ASSERT_EQ(first.transfers.size(), second.transfers.size());
    for (size_t i = 0; i < first.transfers.size(); ++i) {
      EXPECT_EQ(first.transfers[i].from, second.transfers[i].from);
      EXPECT_EQ(first.transfers[i].to, second.transfers[i].to);
    }
  }
}

TEST(ReduceBottomUpSearch, TrivialInputs) {
  EXPECT_EQ(ReduceBottomUpSearch({}, {}).run().best, 0);
  const auto one = ReduceBottomUpSearch({2.0}, {1}).run();
  EXPECT_DOUBLE_EQ(one.best, 2.0);
  EXPECT_EQ(one.tree.nodes.size(), 1u);
  EXPECT_THROW(ReduceBottomUpSearch({2.0, 1.0}, {1, 1}), InputError);
}

}  // namespace
}  // namespace hetcoll
