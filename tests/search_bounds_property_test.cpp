// The global lower bound a stopped exact search reports (issue: honest
// bounds when a search stops). For the broadcast and reduce searches, on
// seeded random all-distinct instances and node budgets from nothing to
// past the finish: the bound never exceeds the optimum (brute force, or the
// finished search cross-checked against brute force elsewhere), the plan
// passes verify/ (which checks bound <= makespan and optimal <=> bound ==
// makespan), and the bound is the search's, not only the closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>

#include "experiments/experiment.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"
#include "hetcoll/makespan/sender_speed/reduce/optimal_search.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/verify/verify.h"
#include "support/brute_force.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

namespace brute = hetcoll::testing;

void expect_valid(const Cluster& cluster, const MakespanPlan& plan) {
  VerifyReport report = verify(cluster, plan);
  EXPECT_TRUE(report.valid) << report.summary();
}

// Node budgets spread over orders of magnitude (deterministic per seed).
std::uint64_t random_node_limit(std::mt19937_64& rng, double max_log10) {
  return static_cast<std::uint64_t>(std::pow(10.0, std::uniform_real_distribution<double>(0, max_log10)(rng)));
}

MakespanPlan plan_with_limit(const Cluster& cluster, Operation operation, ProcessorIndex root,
                             std::uint64_t node_limit) {
  MakespanRequest request;
  request.operation = operation;
  request.root = root;
  request.limits.node_limit = node_limit;
  return plan_makespan(cluster, request, "optimal");
}

TEST(SearchBounds, StoppedBroadcastBoundNeverExceedsBruteForce) {
  std::mt19937_64 rng(1301);
  for (int trial = 0; trial < 150; ++trial) {
    const int n = std::uniform_int_distribution<int>(4, 9)(rng);
    Cluster cluster = brute::random_cluster(rng, n, 0, 4.0);
    const ProcessorIndex source = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);
    const double optimum = brute::broadcast_by_sequences(cluster, source);
    MakespanPlan plan = plan_with_limit(cluster, Operation::broadcast, source, random_node_limit(rng, 3));
    expect_valid(cluster, plan);
    ASSERT_LE(plan.lower_bound, optimum + cluster.tolerance()) << "trial " << trial;
    ASSERT_GE(plan.makespan, optimum - cluster.tolerance()) << "trial " << trial;
  }
}

TEST(SearchBounds, StoppedBroadcastBoundNeverExceedsFinishedSearch) {
  std::mt19937_64 rng(1302);
  int beat_closed_form = 0, stopped = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int n = std::uniform_int_distribution<int>(12, 18)(rng);
    Cluster cluster = brute::random_cluster(rng, n, 0, 4.0);
    const ProcessorIndex source = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);
    MakespanPlan finished = plan_broadcast_optimal(cluster, source);
    ASSERT_TRUE(finished.optimal) << "trial " << trial;
    MakespanPlan plan = plan_with_limit(cluster, Operation::broadcast, source, random_node_limit(rng, 4));
    expect_valid(cluster, plan);
    ASSERT_LE(plan.lower_bound, finished.makespan + cluster.tolerance()) << "trial " << trial;
    if (plan.limit_reached()) {
      ++stopped;
      if (plan.lower_bound > broadcast_lower_bound(cluster, source) + cluster.tolerance()) ++beat_closed_form;
    }
  }
  EXPECT_GT(stopped, 5);
  EXPECT_GT(beat_closed_form, 0);  // the reported bound is the search's
}

TEST(SearchBounds, StoppedReduceBoundNeverExceedsBruteForce) {
  std::mt19937_64 rng(1303);
  int beat_closed_form = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const int n = std::uniform_int_distribution<int>(4, 9)(rng);
    Cluster cluster = brute::random_cluster(rng, n, 0, 4.0);
    const ProcessorIndex root = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);
    const double optimum = brute::reduce_by_ep_orders(cluster, root);
    MakespanPlan plan = plan_with_limit(cluster, Operation::reduce, root, random_node_limit(rng, 3));
    expect_valid(cluster, plan);
    ASSERT_LE(plan.lower_bound, optimum + cluster.tolerance()) << "trial " << trial;
    ASSERT_GE(plan.makespan, optimum - cluster.tolerance()) << "trial " << trial;
    if (plan.limit_reached() && plan.lower_bound > reduce_lower_bound(cluster, root) + cluster.tolerance()) {
      ++beat_closed_form;
    }
  }
  EXPECT_GT(beat_closed_form, 0);
}

TEST(SearchBounds, StoppedReduceBoundNeverExceedsFinishedSearch) {
  std::mt19937_64 rng(1304);
  int stopped = 0, beat_closed_form = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const int n = std::uniform_int_distribution<int>(10, 14)(rng);
    Cluster cluster = brute::random_cluster(rng, n, 0, 4.0);
    const ProcessorIndex root = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);
    MakespanPlan finished = plan_reduce_optimal(cluster, root);
    ASSERT_TRUE(finished.optimal) << "trial " << trial;
    MakespanPlan plan = plan_with_limit(cluster, Operation::reduce, root, random_node_limit(rng, 4));
    expect_valid(cluster, plan);
    ASSERT_LE(plan.lower_bound, finished.makespan + cluster.tolerance()) << "trial " << trial;
    if (plan.limit_reached()) {
      ++stopped;
      if (plan.lower_bound > reduce_lower_bound(cluster, root) + cluster.tolerance()) ++beat_closed_form;
    }
  }
  EXPECT_GT(stopped, 5);
  EXPECT_GT(beat_closed_form, 0);
}

// The search itself on class counts: the bound of a stopped run never
// exceeds the finished run's optimum, and a finished run's bound is it.
TEST(SearchBounds, ReduceTreeSearchBoundAgainstFinishedRun) {
  std::mt19937_64 rng(1305);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<double> times;
    double t = 1.0;
    const int k = std::uniform_int_distribution<int>(4, 9)(rng);
    for (int c = 0; c < k; ++c) times.push_back(t += std::uniform_real_distribution<double>(0.05, 0.5)(rng));
    std::vector<int> counts(static_cast<size_t>(k), 1);
    ReduceTreeSearchResult full = ReduceTreeSearch(times, counts).incumbent(times.back() * k).lower_bound(0).run();
    ASSERT_TRUE(full.finished());
    EXPECT_DOUBLE_EQ(full.lower_bound, full.best);
    SearchLimits limits;
    limits.node_limit = random_node_limit(rng, 3);
    ReduceTreeSearchResult part =
        ReduceTreeSearch(times, counts).incumbent(times.back() * k).lower_bound(0).limits(limits).run();
    EXPECT_LE(part.lower_bound, full.best + 1e-9) << "trial " << trial;
    EXPECT_GE(part.best, full.best - 1e-9) << "trial " << trial;
  }
}

// All-distinct times make every class a singleton: the case the searches'
// per-node shortcuts serve (flat slot arrays and packed memo keys in the
// reduce search; heap-ordered send streams and per-group deadlines in the
// broadcast search). Finished runs must meet the brute forces exactly.
TEST(SearchBounds, FinishedDistinctSearchesMatchBruteForce) {
  std::mt19937_64 rng(1306);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 9)(rng);
    Cluster cluster = brute::random_cluster(rng, n, 0, 4.0);
    const ProcessorIndex root = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);
    MakespanPlan broadcast = plan_broadcast_optimal(cluster, root);
    expect_valid(cluster, broadcast);
    ASSERT_TRUE(broadcast.optimal) << "trial " << trial;
    ASSERT_NEAR(broadcast.makespan, brute::broadcast_by_sequences(cluster, root), 1e-9) << "trial " << trial;
    MakespanPlan reduce = plan_reduce_optimal(cluster, root);
    expect_valid(cluster, reduce);
    ASSERT_TRUE(reduce.optimal) << "trial " << trial;
    ASSERT_NEAR(reduce.makespan, brute::reduce_by_ep_orders(cluster, root), 1e-9) << "trial " << trial;
  }
}

// A node budget makes a stopped search repeatable: same plan, bound and
// node count on every run (a time budget does not: where it stops depends
// on the machine's speed and load).
TEST(SearchBounds, NodeBudgetRunsAreDeterministic) {
  std::mt19937_64 rng(1307);
  for (int trial = 0; trial < 6; ++trial) {
    Cluster cluster = brute::random_cluster(rng, 24, 0, 4.0);
    for (Operation operation : {Operation::broadcast, Operation::reduce}) {
      MakespanPlan first = plan_with_limit(cluster, operation, 0, 3000);
      MakespanPlan second = plan_with_limit(cluster, operation, 0, 3000);
      EXPECT_EQ(first.makespan, second.makespan) << "trial " << trial;
      EXPECT_EQ(first.lower_bound, second.lower_bound) << "trial " << trial;
      EXPECT_EQ(first.stats.nodes, second.stats.nodes) << "trial " << trial;
      ASSERT_EQ(first.transfers.size(), second.transfers.size());
      for (size_t i = 0; i < first.transfers.size(); ++i) {
        EXPECT_EQ(first.transfers[i].from, second.transfers[i].from);
        EXPECT_EQ(first.transfers[i].to, second.transfers[i].to);
      }
    }
  }
}

TEST(SearchBounds, ExperimentQuickRuns) {
  const Experiment* experiment = find_experiment("search-distinct");
  ASSERT_NE(experiment, nullptr);
  ExperimentOptions options;
  options.quick = true;
  options.out_dir = (std::filesystem::temp_directory_path() / "hetcoll_search_distinct_test").string();
  std::filesystem::create_directories(options.out_dir);
  ExperimentResult result = experiment->run(options);
  ASSERT_EQ(result.files.size(), 3u);
  for (const auto& file : result.files) EXPECT_TRUE(std::filesystem::exists(file)) << file;
  EXPECT_NE(result.summary.find("reduce n = 30"), std::string::npos) << result.summary;
}

}  // namespace
}  // namespace hetcoll
