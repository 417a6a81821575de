// The parallel mode of the exact broadcast search (SearchLimits::threads,
// makespan/sender_speed/broadcast/optimal_search.h): with 2 and 4 threads it must find
// the serial search's optimum (and brute force's on small clusters), hand
// out plans the verifier accepts, and keep every bound it reports when a
// node limit, a time limit or the progress callback stops it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/verify/verify.h"
#include "support/brute_force.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

namespace brute = hetcoll::testing;

using testing::everyone_but;

::testing::AssertionResult valid(const Cluster& cluster, const MakespanPlan& plan) {
  VerifyReport report = verify(cluster, plan);
  if (report.valid) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << report.summary();
}

constexpr double kNone = std::numeric_limits<double>::infinity();  // no incumbent given

SearchLimits with_threads(unsigned threads) {
  SearchLimits limits;
  limits.threads = threads;
  return limits;
}

// Half all-distinct times (the hard case), half 1-4 classes (ties, the memo
// and fastest-first paths); any source, also a slow one.
Cluster random_cluster(std::mt19937_64& rng, int n, int trial) {
  const int classes = trial % 2 == 0 ? 0 : std::uniform_int_distribution<int>(1, 4)(rng);
  return brute::random_cluster(rng, n, classes, 4.0);
}

TEST(ParallelBroadcastSearch, MatchesBruteForceWithTwoAndFourThreads) {
  std::mt19937_64 rng(4013);
  for (int trial = 0; trial < 600; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 9)(rng);
    Cluster cluster = random_cluster(rng, n, trial);
    const auto source = std::uniform_int_distribution<ProcessorIndex>(0, cluster.size() - 1)(rng);
    const double optimum = brute::broadcast_by_sequences(cluster, source);
    // Small trees: split them finely, so that the threads do the work.
    OptimalBroadcastOptions options;
    options.subproblems_per_thread = trial % 3 == 0 ? 32 : trial % 3;
    options.parallel_pass_min_nodes = trial % 4 == 0 ? 2000 : 0;
    for (unsigned threads : {2U, 4U}) {
      BroadcastSearchResult result = optimal_broadcast(cluster, source, everyone_but(cluster, source),
                                                       with_threads(threads), kNone, options);
      ASSERT_TRUE(result.complete()) << "trial " << trial << " threads " << threads;
      ASSERT_NEAR(result.makespan, optimum, 1e-9) << "trial " << trial << " threads " << threads;
      ASSERT_LE(result.lower_bound, optimum + cluster.tolerance()) << "trial " << trial;
      MakespanPlan plan = plan_broadcast_optimal(cluster, source, with_threads(threads));
      ASSERT_TRUE(valid(cluster, plan)) << "trial " << trial << " threads " << threads;
      ASSERT_TRUE(plan.optimal) << "trial " << trial;
      ASSERT_NEAR(plan.makespan, optimum, 1e-9) << "trial " << trial;
    }
  }
}

// Beyond brute force: the serial search is the reference (every technique
// on, and with the memo off and plain branch-and-bound, which take other
// paths through the passes). Half the clusters have all-distinct times, on
// which the search needs thousands of nodes: the parallel runs split them.
TEST(ParallelBroadcastSearch, MatchesTheSerialSearchOnLargerClusters) {
  std::mt19937_64 rng(4021);
  OptimalBroadcastOptions every_pass;  // every pass on the threads
  every_pass.parallel_pass_min_nodes = 0;
  OptimalBroadcastOptions no_memo;
  no_memo.memoize = false;
  no_memo.parallel_pass_min_nodes = 0;
  OptimalBroadcastOptions plain;
  plain.parallel_pass_min_nodes = 0;
  plain.iterative_targets = false;
  plain.fnf_incumbent = false;
  plain.local_search_evaluations = 0;
  const OptimalBroadcastOptions variants[] = {every_pass, no_memo, plain};
  std::uint64_t parallel_nodes = 0;
  int hard = 0;  // instances the serial search needed 1000+ nodes for
  for (int trial = 0; trial < 60; ++trial) {
    // Plain branch-and-bound without an incumbent is slow on all-distinct
    // times (n = 20: over 400 k nodes): n <= 16 there.
    const int n = trial % 2 == 0 ? std::uniform_int_distribution<int>(14, trial % 3 == 2 ? 16 : 21)(rng)
                                 : std::uniform_int_distribution<int>(10, 30)(rng);
    Cluster cluster = random_cluster(rng, n, trial);
    const auto source = std::uniform_int_distribution<ProcessorIndex>(0, cluster.size() - 1)(rng);
    const auto receivers = everyone_but(cluster, source);
    const OptimalBroadcastOptions& options = variants[trial % 3];
    BroadcastSearchResult serial =
        optimal_broadcast(cluster, source, receivers, {}, kNone, options);
    ASSERT_TRUE(serial.complete()) << "trial " << trial;
    if (serial.stats.nodes >= 1000) ++hard;
    for (unsigned threads : {2U, 4U}) {
      BroadcastSearchResult parallel = optimal_broadcast(cluster, source, receivers, with_threads(threads),
                                                         kNone, options);
      ASSERT_TRUE(parallel.complete()) << "trial " << trial << " threads " << threads;
      const double serial_makespan = serial.transfers.empty() ? serial.makespan : last_completion(serial.transfers);
      ASSERT_NEAR(parallel.makespan, serial_makespan, 1e-9) << "trial " << trial << " n " << n << " threads " << threads;
      ASSERT_LE(parallel.lower_bound, serial_makespan + cluster.tolerance()) << "trial " << trial;
      parallel_nodes += parallel.stats.nodes;
    }
    MakespanPlan plan = plan_broadcast_optimal(cluster, source, with_threads(2));
    ASSERT_TRUE(valid(cluster, plan)) << "trial " << trial;
    ASSERT_TRUE(plan.optimal) << "trial " << trial;
  }
  EXPECT_GT(parallel_nodes, 100000U);
  EXPECT_GE(hard, 10);
}

// Stopped after 1-3000 nodes (over all threads), by a short time limit or
// by the progress callback: the plan is valid, never better than the
// optimum, and the bound never above it; a node limit is met exactly.
TEST(ParallelBroadcastSearch, StoppedSearchesKeepValidBounds) {
  std::mt19937_64 rng(4027);
  int stopped = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const int n = std::uniform_int_distribution<int>(4, 9)(rng);
    Cluster cluster = random_cluster(rng, n, trial);
    const auto source = std::uniform_int_distribution<ProcessorIndex>(0, cluster.size() - 1)(rng);
    const double optimum = brute::broadcast_by_sequences(cluster, source);
    SearchLimits limits = with_threads(trial % 3 == 0 ? 4 : 2);
    limits.node_limit = static_cast<std::uint64_t>(std::pow(10.0, std::uniform_real_distribution<double>(0, 3.5)(rng)));
    OptimalBroadcastOptions options;
    options.subproblems_per_thread = trial % 2 == 0 ? 1 : 32;
    options.parallel_pass_min_nodes = trial % 5 == 0 ? 2000 : 0;
    BroadcastSearchResult result =
        optimal_broadcast(cluster, source, everyone_but(cluster, source), limits, kNone, options);
    ASSERT_LE(result.lower_bound, optimum + cluster.tolerance()) << "trial " << trial;
    ASSERT_GE(result.makespan, optimum - 1e-9) << "trial " << trial;
    ASSERT_LE(result.stats.nodes, limits.node_limit) << "trial " << trial;
    if (result.status == SearchStatus::node_limit) {
      ASSERT_EQ(result.stats.nodes, limits.node_limit) << "trial " << trial;
      ++stopped;
    } else {
      ASSERT_TRUE(result.complete()) << "trial " << trial;
      ASSERT_NEAR(result.makespan, optimum, 1e-9) << "trial " << trial;
    }
    MakespanPlan plan = plan_broadcast_optimal(cluster, source, limits);
    ASSERT_TRUE(valid(cluster, plan)) << "trial " << trial;
    ASSERT_LE(plan.lower_bound, optimum + cluster.tolerance()) << "trial " << trial;
    if (plan.optimal) {
      ASSERT_NEAR(plan.makespan, optimum, 1e-9) << "trial " << trial;
    }
  }
  EXPECT_GT(stopped, 50);  // the limits did stop searches

  // Larger all-distinct clusters, where the optimum is the serial search's.
  for (int trial = 0; trial < 12; ++trial) {
    Cluster cluster = brute::random_cluster(rng, 22, 0, 4.0);
    const double optimum = plan_broadcast_optimal(cluster, 0).makespan;
    SearchLimits limits = with_threads(trial % 2 == 0 ? 2 : 4);
    if (trial % 3 == 0) {
      limits.time_limit_seconds = 0.002;
    } else if (trial % 3 == 1) {
      limits.node_limit = 200 + 500 * static_cast<std::uint64_t>(trial);
    } else {
      limits.progress = [](const SearchStats&, double) { return false; };
    }
    MakespanPlan plan = plan_broadcast_optimal(cluster, 0, limits);
    ASSERT_TRUE(valid(cluster, plan)) << "trial " << trial;
    ASSERT_LE(plan.lower_bound, optimum + cluster.tolerance()) << "trial " << trial;
    ASSERT_GE(plan.makespan, optimum - 1e-9) << "trial " << trial;
    if (trial % 3 == 1 && plan.limit_reached()) {
      ASSERT_EQ(plan.stats.nodes, limits.node_limit) << "trial " << trial;
    }
  }
}

TEST(ParallelBroadcastSearch, ThreadsSettingIsValidatedAndZeroMeansTheHardware) {
  SearchLimits limits;
  limits.threads = kMaxSearchThreads + 1;
  try {
    validate_limits(limits);
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("threads"), std::string::npos) << error.what();
  }
  limits.threads = 0;
  EXPECT_NO_THROW(validate_limits(limits));
  EXPECT_GE(resolved_threads(limits), 1U);
  // 0 threads runs (as many threads as the hardware has) and finds the optimum.
  std::mt19937_64 rng(4049);
  Cluster cluster = brute::random_cluster(rng, 8, 0, 4.0);
  MakespanPlan plan = plan_broadcast_optimal(cluster, 0, limits);
  EXPECT_TRUE(plan.optimal);
  EXPECT_NEAR(plan.makespan, brute::broadcast_by_sequences(cluster, 0), 1e-9);
  // Through the registry, as the command line does.
  MakespanRequest request;
  request.operation = Operation::broadcast;
  request.root = 0;
  request.limits.threads = 2;
  MakespanPlan via_registry = plan_makespan(cluster, request, "optimal");
  EXPECT_TRUE(via_registry.optimal);
  EXPECT_NEAR(via_registry.makespan, plan.makespan, 1e-9);
  EXPECT_TRUE(valid(cluster, via_registry));
}

}  // namespace
}  // namespace hetcoll
