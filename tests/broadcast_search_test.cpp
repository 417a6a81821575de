// Optimal broadcast search (optimal_search.h) and the seed's generic
// branch-and-bound (generic_search.h) against the independent brute forces
// of tests/support, each other, the verifier, and the FNF optimality claims
// of fnf.cpp (Liu 2002 Thms 4.4, 4.5, sec. 4.4).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <queue>
#include <random>

#include "hetcoll/core/error.h"
#include "experiments/experiment.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/broadcast/generic_search.h"
#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"
#include "hetcoll/makespan/sender_speed/broadcast/sequence_local_search.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/verify/verify.h"
#include "support/brute_force.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

namespace brute = hetcoll::testing;

using testing::everyone_but;

void expect_valid(const Cluster& cluster, const MakespanPlan& plan) {
  VerifyReport report = verify(cluster, plan);
  EXPECT_TRUE(report.valid) << report.summary();
}

// Times of a random cluster: `classes` values drawn from multiples of 1/2
// (ties on purpose), or continuous values when classes == 0.
Cluster random_test_cluster(std::mt19937_64& rng, int n) {
  const int classes = std::uniform_int_distribution<int>(0, 4)(rng);
  return brute::random_cluster(rng, n, classes, 4.0);
}

ProcessorIndex random_source(std::mt19937_64& rng, const Cluster& cluster) {
  return std::uniform_int_distribution<ProcessorIndex>(0, cluster.size() - 1)(rng);
}

// Best makespan over the receiver sequences in which every fastest receiver
// comes before every slower one (Thm 4.3's restriction), by brute force.
double best_fastest_first(const Cluster& cluster, ProcessorIndex source) {
  std::vector<double> receivers;
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != source) receivers.push_back(cluster.transmission_time(p));
  }
  std::sort(receivers.begin(), receivers.end());
  const double fastest = receivers.front();
  double best = std::numeric_limits<double>::infinity();
  do {
    auto first_slow = std::find_if(receivers.begin(), receivers.end(), [&](double t) { return t > fastest; });
    if (std::find(first_slow, receivers.end(), fastest) != receivers.end()) continue;
    using Slot = std::pair<double, double>;  // (next send end, period)
    std::priority_queue<Slot, std::vector<Slot>, std::greater<>> holders;
    const double ts = cluster.transmission_time(source);
    holders.push({ts, ts});
    double makespan = 0;
    for (double t : receivers) {
      auto [end, period] = holders.top();
      holders.pop();
      makespan = end;
      holders.push({end + period, period});
      holders.push({end + t, t});
    }
    best = std::min(best, makespan);
  } while (std::next_permutation(receivers.begin(), receivers.end()));
  return best;
}

TEST(BroadcastSearch, MatchesBruteForceOverSequencesWithTiesAndAnySource) {
  std::mt19937_64 rng(20240301);
  int slow_sources = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 9)(rng);
    Cluster cluster = random_test_cluster(rng, n);
    const ProcessorIndex source = random_source(rng, cluster);
    if (cluster.transmission_time(source) > cluster.fastest_time()) ++slow_sources;
    const double expected = brute::broadcast_by_sequences(cluster, source);
    MakespanPlan plan = plan_broadcast_optimal(cluster, source);
    ASSERT_NEAR(plan.makespan, expected, 1e-9) << "trial " << trial;
    EXPECT_TRUE(plan.optimal);
    EXPECT_FALSE(plan.limit_reached());
    EXPECT_DOUBLE_EQ(plan.lower_bound, plan.makespan);
    expect_valid(cluster, plan);
    MakespanPlan generic = plan_broadcast_generic_bnb(cluster, source);
    ASSERT_NEAR(generic.makespan, expected, 1e-9) << "trial " << trial;
    EXPECT_TRUE(generic.optimal);
    expect_valid(cluster, generic);
  }
  EXPECT_GT(slow_sources, 1000);
}

TEST(BroadcastSearch, MatchesBruteForceOverAllPairSchedules) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 1500; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 7)(rng);
    Cluster cluster = random_test_cluster(rng, n);
    const ProcessorIndex source = random_source(rng, cluster);
    const double expected = brute::broadcast_by_pairs(cluster, source);
    ASSERT_NEAR(plan_broadcast_optimal(cluster, source).makespan, expected, 1e-9) << "trial " << trial;
  }
}

// Every technique switched off in turn (and all at once) gives the same
// optimum: the rules prune only dominated schedules.
TEST(BroadcastSearch, EveryRuleSubsetAgrees) {
  std::mt19937_64 rng(99);
  std::vector<OptimalBroadcastOptions> variants(9);
  variants[7].counting_bound = false;
  variants[8].local_search_evaluations = 0;
  variants[1].exchange_rule = false;
  variants[2].fastest_first = false;
  variants[3].relaxation_bound = false;
  variants[4].memoize = false;
  variants[5].iterative_targets = false;
  variants[6].exchange_rule = variants[6].fastest_first = variants[6].relaxation_bound = false;
  variants[6].memoize = variants[6].fnf_incumbent = variants[6].iterative_targets = false;
  for (int trial = 0; trial < 700; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, trial < 600 ? 9 : 11)(rng);
    Cluster cluster = random_test_cluster(rng, n);
    const ProcessorIndex source = random_source(rng, cluster);
    const auto receivers = everyone_but(cluster, source);
    const double expected =
        n <= 9 ? brute::broadcast_by_sequences(cluster, source) : generic_bnb_broadcast(cluster, source, receivers).makespan;
    for (size_t v = 0; v < variants.size(); ++v) {
      BroadcastSearchResult result = optimal_broadcast(cluster, source, receivers, {}, 1e300, variants[v]);
      ASSERT_TRUE(result.complete());
      ASSERT_NEAR(result.makespan, expected, 1e-9) << "trial " << trial << " variant " << v;
    }
  }
}

// The memo keys hold the holders (class, next slot, multiplicity) and the
// exchange-rule ready times only (the remaining counts follow from the
// holders), and with every class a singleton only subtrees of 32+ nodes are
// stored. A key that merged two states with different futures would give
// a wrong optimum here: all-distinct and tied times against brute force (n
// <= 9), then against the search without memo: all-distinct times (n =
// 11-13, where subtrees reach the threshold) and 2-3 tied classes (n =
// 12-18, many memo hits), broadcasts and multicasts to random subsets.
TEST(BroadcastSearch, MemoKeysAgreeWithBruteForceOnDistinctAndTiedTimes) {
  std::mt19937_64 rng(2024);
  OptimalBroadcastOptions no_memo;
  no_memo.memoize = false;
  // Without the relaxation bound the memo does most of the pruning.
  OptimalBroadcastOptions memo_only;
  memo_only.relaxation_bound = false;
  for (int trial = 0; trial < 400; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 9)(rng);
    const int classes = trial % 2 == 0 ? 0 : std::uniform_int_distribution<int>(1, 3)(rng);
    Cluster cluster = brute::random_cluster(rng, n, classes, 4.0);
    const ProcessorIndex source = random_source(rng, cluster);
    const double expected = brute::broadcast_by_sequences(cluster, source);
    for (const auto& options : {OptimalBroadcastOptions{}, memo_only}) {
      BroadcastSearchResult result = optimal_broadcast(cluster, source, everyone_but(cluster, source), {}, 1e300, options);
      ASSERT_TRUE(result.complete());
      ASSERT_NEAR(result.makespan, expected, 1e-9) << "trial " << trial << " n " << n << " classes " << classes;
    }
  }
  std::uint64_t hits = 0;
  for (int trial = 0; trial < 90; ++trial) {
    const bool distinct = trial % 3 == 0;
    const int n = distinct ? std::uniform_int_distribution<int>(11, 13)(rng) : std::uniform_int_distribution<int>(12, 18)(rng);
    const int classes = distinct ? 0 : std::uniform_int_distribution<int>(2, 3)(rng);
    Cluster cluster = brute::random_cluster(rng, n, classes, 4.0);
    const ProcessorIndex source = random_source(rng, cluster);
    std::vector<ProcessorIndex> receivers = everyone_but(cluster, source);
    if (trial % 4 == 1) {  // a multicast: drop a few receivers
      std::shuffle(receivers.begin(), receivers.end(), rng);
      receivers.resize(receivers.size() - 3);
      std::sort(receivers.begin(), receivers.end());
    }
    BroadcastSearchResult with_memo = optimal_broadcast(cluster, source, receivers);
    BroadcastSearchResult without = optimal_broadcast(cluster, source, receivers, {}, 1e300, no_memo);
    ASSERT_TRUE(with_memo.complete() && without.complete());
    ASSERT_NEAR(with_memo.makespan, without.makespan, 1e-9) << "trial " << trial << " n " << n;
    hits += with_memo.memo_hits;
    if (distinct && n <= 12) {  // the relaxation off: larger or tied clusters take too long
      BroadcastSearchResult memo_pruned = optimal_broadcast(cluster, source, receivers, {}, 1e300, memo_only);
      ASSERT_TRUE(memo_pruned.complete());
      ASSERT_NEAR(memo_pruned.makespan, without.makespan, 1e-9) << "trial " << trial << " n " << n;
    }
  }
  EXPECT_GT(hits, 0U);  // the memo was used
}

// The counting bound (optimal_search.h) on all-distinct and tied times:
// finished searches match brute force, and the bound of searches stopped
// after 1 to 1000 nodes never exceeds the optimum; then larger all-distinct
// clusters against the search without it. The bound must have pruned (a
// test it never reaches could not fail).
TEST(BroadcastSearch, CountingBoundNeverExceedsTheOptimum) {
  std::mt19937_64 rng(1327);
  std::uint64_t prunes = 0;
  for (int trial = 0; trial < 2500; ++trial) {
    const int n = std::uniform_int_distribution<int>(3, 9)(rng);
    const int classes = trial % 2 == 0 ? 0 : std::uniform_int_distribution<int>(1, 4)(rng);
    Cluster cluster = brute::random_cluster(rng, n, classes, 4.0);
    const ProcessorIndex source = random_source(rng, cluster);
    const auto receivers = everyone_but(cluster, source);
    const double optimum = brute::broadcast_by_sequences(cluster, source);
    BroadcastSearchResult finished = optimal_broadcast(cluster, source, receivers);
    ASSERT_TRUE(finished.complete());
    ASSERT_NEAR(finished.makespan, optimum, 1e-9) << "trial " << trial;
    prunes += finished.counting_prunes;
    SearchLimits limits;
    limits.node_limit = static_cast<std::uint64_t>(std::pow(10.0, std::uniform_real_distribution<double>(0, 3)(rng)));
    BroadcastSearchResult stopped = optimal_broadcast(cluster, source, receivers, limits);
    ASSERT_LE(stopped.lower_bound, optimum + cluster.tolerance()) << "trial " << trial;
    prunes += stopped.counting_prunes;
  }
  EXPECT_GT(prunes, 100U);
  OptimalBroadcastOptions without;
  without.counting_bound = false;
  std::uint64_t larger_prunes = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int n = std::uniform_int_distribution<int>(11, 15)(rng);
    Cluster cluster = brute::random_cluster(rng, n, 0, 4.0);
    const ProcessorIndex source = random_source(rng, cluster);
    const auto receivers = everyone_but(cluster, source);
    BroadcastSearchResult with_bound = optimal_broadcast(cluster, source, receivers);
    BroadcastSearchResult reference = optimal_broadcast(cluster, source, receivers, {}, 1e300, without);
    ASSERT_TRUE(with_bound.complete() && reference.complete());
    ASSERT_NEAR(with_bound.makespan, reference.makespan, 1e-9) << "trial " << trial << " n " << n;
    larger_prunes += with_bound.counting_prunes;
  }
  EXPECT_GT(larger_prunes, 100U);
}

// The local-search incumbent (sequence_local_search.h) from FNF's sequence:
// never longer than FNF, never shorter than the optimum (brute force), its
// makespan is the one no_delay_transfers builds (what the search hands on),
// and on all-distinct clusters it does beat FNF (a no-op would pass the
// other checks).
TEST(BroadcastSearch, LocalSearchIncumbentBetweenOptimumAndFnf) {
  std::mt19937_64 rng(4242);
  int improved = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const int n = std::uniform_int_distribution<int>(3, 9)(rng);
    const int classes = trial % 3 == 0 ? std::uniform_int_distribution<int>(1, 4)(rng) : 0;
    Cluster cluster = brute::random_cluster(rng, n, classes, 4.0);
    const ProcessorIndex source = random_source(rng, cluster);
    std::vector<Transfer> fnf = fnf_transfers(cluster, source, everyone_but(cluster, source));
    std::stable_sort(fnf.begin(), fnf.end(), [](const Transfer& a, const Transfer& b) { return a.end < b.end; });
    std::vector<ProcessorIndex> sequence;
    for (const auto& transfer : fnf) sequence.push_back(transfer.to);
    const double fnf_makespan = last_completion(fnf);
    const double makespan = improve_sequence_by_swaps(cluster, source, sequence, 4000);
    const double tolerance = cluster.tolerance();
    ASSERT_LE(makespan, fnf_makespan + tolerance) << "trial " << trial;
    ASSERT_GE(makespan, brute::broadcast_by_sequences(cluster, source) - tolerance) << "trial " << trial;
    ASSERT_NEAR(last_completion(no_delay_transfers(cluster, source, sequence)), makespan, tolerance) << "trial " << trial;
    if (makespan < fnf_makespan - tolerance) ++improved;
  }
  EXPECT_GT(improved, 50);
}

TEST(BroadcastSearch, LargerClustersAgreeWithGenericAndBounds) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = std::uniform_int_distribution<int>(10, 15)(rng);
    Cluster cluster = brute::random_cluster(rng, n, 3, 3.0);
    const ProcessorIndex source = random_source(rng, cluster);
    MakespanPlan optimal = plan_broadcast_optimal(cluster, source);
    MakespanPlan generic = plan_broadcast_generic_bnb(cluster, source);
    ASSERT_TRUE(optimal.optimal && generic.optimal);
    ASSERT_NEAR(optimal.makespan, generic.makespan, 1e-9) << "trial " << trial;
    EXPECT_LE(optimal.makespan, plan_broadcast_fnf(cluster, source).makespan + 1e-9);
    expect_valid(cluster, optimal);
  }
  for (int trial = 0; trial < 40; ++trial) {
    Cluster cluster = brute::random_cluster(rng, 60, 3, 3.0);
    MakespanPlan optimal = plan_broadcast_optimal(cluster, random_source(rng, cluster));
    EXPECT_TRUE(optimal.optimal);
    EXPECT_GE(optimal.makespan + 1e-9, optimal.lower_bound);
    expect_valid(cluster, optimal);
  }
}

// Liu 2002 Fig. 2: FNF sends to the only 2 first and needs 5; the optimum is 4.
TEST(BroadcastSearch, SeedFigure2) {
  Cluster cluster = Cluster::from_times({1, 3, 3, 2, 3, 3, 3});
  EXPECT_DOUBLE_EQ(plan_broadcast_fnf(cluster, 0).makespan, 5);
  MakespanPlan plan = plan_broadcast_optimal(cluster, 0);
  EXPECT_DOUBLE_EQ(plan.makespan, 4);
  EXPECT_TRUE(plan.optimal);
  expect_valid(cluster, plan);
  EXPECT_DOUBLE_EQ(plan_broadcast_generic_bnb(cluster, 0).makespan, 4);
  EXPECT_DOUBLE_EQ(brute::broadcast_by_pairs(cluster, 0), 4);
}

// Thm 4.4 (two classes, source a fastest processor): FNF is optimal.
TEST(BroadcastSearch, FnfOptimalForTwoClassesFromAFastestSource) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 1500; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, trial < 1000 ? 9 : 40)(rng);
    Cluster cluster = brute::random_cluster(rng, n, 2, 5.0);
    const ProcessorIndex source = cluster.fastest_processor();
    const double fnf = plan_broadcast_fnf(cluster, source).makespan;
    const double optimum =
        n <= 9 ? brute::broadcast_by_sequences(cluster, source) : plan_broadcast_optimal(cluster, source).makespan;
    ASSERT_NEAR(fnf, optimum, 1e-9) << "trial " << trial;
    EXPECT_FALSE(fnf_optimality(cluster, source).empty());
  }
}

// With a slower given source, two classes are not enough: the source (3)
// should serve a 2 then a 3 while the first 2 serves a 3 (makespan 8);
// FNF gives both 2s first and needs 9. fnf_optimality must claim nothing.
TEST(BroadcastSearch, FnfNotOptimalForTwoClassesFromASlowSource) {
  Cluster cluster = Cluster::from_times({3, 2, 2, 3, 3, 3, 3});
  MakespanPlan fnf = plan_broadcast_fnf(cluster, 0);
  EXPECT_DOUBLE_EQ(fnf.makespan, 9);
  EXPECT_FALSE(fnf.optimal);
  EXPECT_EQ(fnf_optimality(cluster, 0), "");
  EXPECT_DOUBLE_EQ(brute::broadcast_by_sequences(cluster, 0), 8);
  MakespanPlan optimal = plan_broadcast_optimal(cluster, 0);
  EXPECT_DOUBLE_EQ(optimal.makespan, 8);
  EXPECT_TRUE(optimal.optimal);
  expect_valid(cluster, optimal);

  // And such gaps are common: count them on random two-class clusters.
  std::mt19937_64 rng(13);
  int gaps = 0;
  for (int trial = 0; trial < 400; ++trial) {
    Cluster random = brute::random_cluster(rng, std::uniform_int_distribution<int>(3, 9)(rng), 2, 4.0);
    ProcessorIndex slow = 0;
    for (ProcessorIndex p = 0; p < random.size(); ++p) {
      if (random.transmission_time(p) > random.transmission_time(slow)) slow = p;
    }
    if (random.transmission_time(slow) <= random.fastest_time()) continue;
    const double optimum = brute::broadcast_by_sequences(random, slow);
    const double fnf_makespan = plan_broadcast_fnf(random, slow).makespan;
    EXPECT_GE(fnf_makespan + 1e-9, optimum);
    if (fnf_makespan > optimum + 1e-9) {
      ++gaps;
      EXPECT_EQ(fnf_optimality(random, slow), "") << "FNF claimed optimal but is not";
    }
  }
  EXPECT_GT(gaps, 0);
}

// Thm 4.3 (fastest first) needs a fastest source: from a slower source the
// best sequence may serve a slower receiver before a fastest one.
TEST(BroadcastSearch, FastestFirstFailsFromASlowSource) {
  Cluster cluster = Cluster::from_times({4, 3, 4, 3.5, 3.5, 3, 4});
  EXPECT_DOUBLE_EQ(brute::broadcast_by_sequences(cluster, 0), 11);
  EXPECT_DOUBLE_EQ(best_fastest_first(cluster, 0), 11.5);
  EXPECT_DOUBLE_EQ(plan_broadcast_optimal(cluster, 0).makespan, 11);
}

// fnf.cpp claims FNF optimal from any source on power-2 clusters (Liu 2002
// sec. 4.4, Lemmas 4.7-4.8): check it against brute force and the search.
TEST(BroadcastSearch, FnfOptimalOnPowerOfTwoClustersFromAnySource) {
  std::mt19937_64 rng(17);
  const double powers[] = {1, 2, 4, 8};
  for (int trial = 0; trial < 1500; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, trial < 1000 ? 9 : 30)(rng);
    const int largest = std::uniform_int_distribution<int>(1, 3)(rng);
    std::vector<double> times(static_cast<size_t>(n));
    for (auto& t : times) t = powers[std::uniform_int_distribution<int>(0, largest)(rng)];
    Cluster cluster = Cluster::from_times(times);
    const ProcessorIndex source = random_source(rng, cluster);
    const double optimum =
        n <= 9 ? brute::broadcast_by_sequences(cluster, source) : plan_broadcast_optimal(cluster, source).makespan;
    MakespanPlan fnf = plan_broadcast_fnf(cluster, source);
    ASSERT_NEAR(fnf.makespan, optimum, 1e-9) << "trial " << trial;
    EXPECT_TRUE(fnf.optimal);
  }
}

// Whatever fnf_optimality claims must hold (random clusters, any source).
TEST(BroadcastSearch, FnfOptimalityClaimsHold) {
  std::mt19937_64 rng(19);
  int claims = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    Cluster cluster = random_test_cluster(rng, std::uniform_int_distribution<int>(2, 9)(rng));
    const ProcessorIndex source = random_source(rng, cluster);
    MakespanPlan fnf = plan_broadcast_fnf(cluster, source);
    if (!fnf.optimal) continue;
    ++claims;
    ASSERT_NEAR(fnf.makespan, brute::broadcast_by_sequences(cluster, source), 1e-9)
        << "trial " << trial << ": " << fnf.optimality_proof;
  }
  EXPECT_GT(claims, 200);
}

TEST(BroadcastSearch, LimitsReturnTheBestPlanSoFar) {
  // Distinct continuous times: the search needs far more than one node.
  std::mt19937_64 rng(23);
  Cluster cluster = brute::random_cluster(rng, 40, 0, 4.0);
  const double fnf = plan_broadcast_fnf(cluster, 0).makespan;

  SearchLimits by_nodes;
  by_nodes.node_limit = 1;
  MakespanPlan plan = plan_broadcast_optimal(cluster, 0, by_nodes);
  EXPECT_TRUE(plan.limit_reached());
  EXPECT_FALSE(plan.optimal);
  EXPECT_TRUE(plan.optimality_proof.empty());
  EXPECT_LE(plan.makespan, fnf + 1e-9);
  EXPECT_LE(plan.lower_bound, plan.makespan);
  expect_valid(cluster, plan);

  SearchLimits by_time;
  by_time.time_limit_seconds = 0.01;
  plan = plan_broadcast_optimal(cluster, 0, by_time);
  EXPECT_TRUE(plan.limit_reached());
  EXPECT_FALSE(plan.optimal);
  expect_valid(cluster, plan);

  MakespanPlan generic = plan_broadcast_generic_bnb(cluster, 0, by_nodes);
  EXPECT_TRUE(generic.limit_reached());
  EXPECT_FALSE(generic.optimal);
  expect_valid(cluster, generic);

  // Through the registry, as the command line does.
  MakespanRequest request;
  request.operation = Operation::broadcast;
  request.root = 0;
  request.limits.node_limit = 1;
  MakespanPlan via_registry = plan_makespan(cluster, request, "optimal");
  EXPECT_TRUE(via_registry.limit_reached());
  expect_valid(cluster, via_registry);
}

// Stopped early, the plan is still valid and its bound still a bound.
TEST(BroadcastSearch, StoppedSearchesKeepValidBounds) {
  std::mt19937_64 rng(37);
  for (int trial = 0; trial < 400; ++trial) {
    Cluster cluster = random_test_cluster(rng, std::uniform_int_distribution<int>(3, 9)(rng));
    const ProcessorIndex source = random_source(rng, cluster);
    const double optimum = brute::broadcast_by_sequences(cluster, source);
    SearchLimits limits;
    limits.node_limit = std::uniform_int_distribution<std::uint64_t>(0, 6)(rng);
    MakespanPlan plan = plan_broadcast_optimal(cluster, source, limits);
    expect_valid(cluster, plan);
    ASSERT_LE(plan.lower_bound, optimum + 1e-9) << "trial " << trial;
    ASSERT_GE(plan.makespan, optimum - 1e-9) << "trial " << trial;
    if (plan.optimal) {
      EXPECT_NEAR(plan.makespan, optimum, 1e-9);
    }
    EXPECT_EQ(plan.optimal, !plan.limit_reached());
  }
}

TEST(BroadcastSearch, ProgressCallbackCanStopTheSearch) {
  // The generic search on 40 processors of 3 classes runs for a long time;
  // the callback is asked every 65536 nodes.
  std::mt19937_64 rng(29);
  Cluster cluster = brute::random_cluster(rng, 40, 3, 3.0);
  int calls = 0;
  SearchLimits limits;
  limits.progress = [&](const SearchStats& stats, double best) {
    ++calls;
    EXPECT_GT(stats.nodes, 0u);
    EXPECT_GT(best, 0);
    return false;
  };
  MakespanPlan plan = plan_broadcast_generic_bnb(cluster, cluster.fastest_processor(), limits);
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(plan.limit_reached());
  expect_valid(cluster, plan);
}

// The subset form used by exact multicast: only `receivers` get the message.
TEST(BroadcastSearch, SubsetOfReceivers) {
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 300; ++trial) {
    Cluster cluster = random_test_cluster(rng, 12);
    std::vector<ProcessorIndex> order(12);
    for (int i = 0; i < 12; ++i) order[static_cast<size_t>(i)] = i;
    std::shuffle(order.begin(), order.end(), rng);
    const int size = std::uniform_int_distribution<int>(1, 8)(rng);
    const ProcessorIndex source = order[0];
    std::vector<ProcessorIndex> receivers(order.begin() + 1, order.begin() + size);
    std::vector<double> sub_times{cluster.transmission_time(source)};
    for (ProcessorIndex p : receivers) sub_times.push_back(cluster.transmission_time(p));
    const double expected = brute::broadcast_by_sequences(Cluster::from_times(sub_times), 0);

    BroadcastSearchResult result = optimal_broadcast(cluster, source, receivers);
    ASSERT_TRUE(result.complete());
    ASSERT_NEAR(result.makespan, expected, 1e-9) << "trial " << trial;
    EXPECT_NEAR(result.lower_bound, result.makespan, 1e-9);
    ASSERT_EQ(result.transfers.size(), receivers.size());
    std::vector<ProcessorIndex> got;
    for (const auto& transfer : result.transfers) {
      got.push_back(transfer.to);
      EXPECT_TRUE(transfer.from == source ||
                  std::find(receivers.begin(), receivers.end(), transfer.from) != receivers.end());
    }
    std::sort(got.begin(), got.end());
    std::vector<ProcessorIndex> want = receivers;
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want);
    EXPECT_NEAR(generic_bnb_broadcast(cluster, source, receivers).makespan, expected, 1e-9);

    // With the optimum as incumbent nothing strictly better exists.
    BroadcastSearchResult none = optimal_broadcast(cluster, source, receivers, {}, expected);
    EXPECT_TRUE(none.complete());
    EXPECT_TRUE(none.transfers.empty() || last_completion(none.transfers) < expected - 1e-9);
    EXPECT_TRUE(none.transfers.empty());
  }
  EXPECT_THROW(optimal_broadcast(Cluster::from_times({1, 2}), 0, {0}), InputError);
  EXPECT_THROW(optimal_broadcast(Cluster::from_times({1, 2, 3}), 0, {1, 1}), InputError);
}

TEST(BroadcastSearch, RegisteredAndTrivialCases) {
  ASSERT_NE(find_makespan_algorithm(Operation::broadcast, "optimal"), nullptr);
  ASSERT_NE(find_makespan_algorithm(Operation::broadcast, "generic-bnb"), nullptr);
  MakespanRequest request;
  request.operation = Operation::broadcast;
  request.root = 2;
  Cluster cluster = Cluster::from_times({1, 3, 3, 2, 3, 3, 3});
  const double expected = brute::broadcast_by_sequences(cluster, 2);  // a slow source
  EXPECT_DOUBLE_EQ(plan_makespan(cluster, request, "optimal").makespan, expected);
  EXPECT_DOUBLE_EQ(plan_makespan(cluster, request, "generic-bnb").makespan, expected);
  request.root = 0;
  EXPECT_DOUBLE_EQ(plan_makespan(cluster, request, "optimal").makespan, 4);
  Cluster single = Cluster::from_times({2});
  MakespanPlan alone = plan_broadcast_optimal(single, 0);
  EXPECT_TRUE(alone.optimal);
  EXPECT_EQ(alone.makespan, 0);
  expect_valid(single, alone);
}

TEST(BroadcastSearch, ExperimentQuickRuns) {
  const Experiment* experiment = find_experiment("bcast-search");
  ASSERT_NE(experiment, nullptr);
  ExperimentOptions options;
  options.quick = true;
  options.out_dir = (std::filesystem::temp_directory_path() / "hetcoll_bcast_search_test").string();
  std::filesystem::create_directories(options.out_dir);
  ExperimentResult result = experiment->run(options);
  ASSERT_FALSE(result.files.empty());
  for (const auto& file : result.files) EXPECT_TRUE(std::filesystem::exists(file)) << file;
  EXPECT_FALSE(result.summary.empty());
}

}  // namespace
}  // namespace hetcoll
