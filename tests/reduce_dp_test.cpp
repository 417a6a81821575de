// Two-class and k-class reduce DPs (dp_two_class.h, dp_k_class.h): the
// three DPs of Liu, Kuo, Wang 2009 and our capacity DP agree everywhere; the `dp`
// plans are optimal (brute force, search), verified, and SNF meets the
// optimum exactly where Liu, Kuo, Wang 2009's theorems say (snf_optimality()).
#include <gtest/gtest.h>

#include <random>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/sender_speed/reduce/dp_k_class.h"
#include "hetcoll/makespan/sender_speed/reduce/dp_two_class.h"
#include "hetcoll/makespan/sender_speed/reduce/optimal_search.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/verify/verify.h"
#include "support/brute_force.h"

namespace hetcoll {
namespace {

MakespanPlan run(const Cluster& cluster, ProcessorIndex root, std::string_view algorithm) {
  MakespanRequest request;
  request.operation = Operation::reduce;
  request.root = root;
  return plan_makespan(cluster, request, algorithm);
}

void expect_valid(const Cluster& cluster, const MakespanPlan& plan) {
  VerifyReport report = verify(cluster, plan);
  EXPECT_TRUE(report.valid) << report.summary();
}

TEST(TwoClassDp, ThreeDpsAndCapacityGiveIdenticalTables) {
  const int size = 60;
  for (double slow : {1.25, 1.5, 2.0, 3.0}) {
    TwoClassTable naive = two_class_table(1.0, slow, size, size, TwoClassDp::naive);
    TwoClassTable lemma4 = two_class_table(1.0, slow, size, size, TwoClassDp::lemma4);
    TwoClassTable lemma5 = two_class_table(1.0, slow, size, size, TwoClassDp::lemma5);
    TwoClassTable capacity = TwoClassCapacity(1.0, slow, size, size).table();
    for (int f = 0; f <= size; ++f) {
      for (int s = 0; s <= size; ++s) {
        ASSERT_EQ(naive.at(f, s), lemma4.at(f, s)) << "c_s " << slow << " f " << f << " s " << s;
        ASSERT_EQ(naive.at(f, s), lemma5.at(f, s)) << "c_s " << slow << " f " << f << " s " << s;
        ASSERT_NEAR(naive.at(f, s), capacity.at(f, s), 1e-12) << "c_s " << slow << " f " << f << " s " << s;
        // Lemma 4 (monotone in s) and Lemma 5 (monotone in f when f >= s - 1).
        if (s > 0) {
          EXPECT_GE(naive.at(f, s), naive.at(f, s - 1));
        }
        if (f > 0 && f - 1 >= s - 1) {
          EXPECT_GE(naive.at(f, s), naive.at(f - 1, s));
        }
      }
    }
    // The pruned DPs look at fewer entries on the big cells.
    EXPECT_LT(lemma4.references_at(size, size), naive.references_at(size, size));
    EXPECT_LE(lemma5.total_references, lemma4.total_references) << "c_s " << slow;
  }
}

TEST(TwoClassDp, GeneralTimesAgree) {
  // Non-dyadic times: the DPs compare sums of doubles; agree up to rounding.
  for (auto [fast, slow] : {std::pair{0.7, 1.13}, std::pair{3.0, 4.1}, std::pair{1.0, 1.0}, std::pair{1.0, 7.3}}) {
    TwoClassTable lemma5 = two_class_table(fast, slow, 30, 30, TwoClassDp::lemma5);
    TwoClassTable naive = two_class_table(fast, slow, 30, 30, TwoClassDp::naive);
    TwoClassCapacity capacity(fast, slow, 30, 30);
    for (int f = 0; f <= 30; ++f) {
      for (int s = 0; s <= 30; ++s) {
        ASSERT_NEAR(naive.at(f, s), lemma5.at(f, s), 1e-9);
        ASSERT_NEAR(naive.at(f, s), capacity.value(f, s), 1e-9);
      }
    }
  }
}

TEST(TwoClassDp, NaiveCountIsEveryBuddyPair) {
  TwoClassTable naive = two_class_table(1.0, 2.0, 20, 20, TwoClassDp::naive);
  for (int f = 1; f <= 20; ++f) {
    for (int s = 1; s <= 20; ++s) {
      // Unordered pairs {(f_l, s_l), (f_r, s_r)}: ceil(f (s + 1) / 2).
      EXPECT_EQ(naive.references_at(f, s), (static_cast<std::uint64_t>(f) * (s + 1) + 1) / 2) << f << " " << s;
    }
  }
}

TEST(TwoClassDp, Fig8Counterexample) {
  // Liu, Kuo, Wang 2009 Fig. 8: 8 fast (t = 1), 4 slow (t = x), destination slow:
  // T(8, 3) = 4 for 1 < x < 1.5, 2x + 1 for 1.5 <= x < 2; SNF takes x + 3.
  for (double x : {1.0625, 1.25, 1.4375, 1.5, 1.625, 1.75, 1.9375}) {
    const double expected = x < 1.5 ? 4.0 : 2 * x + 1;
    EXPECT_DOUBLE_EQ(TwoClassCapacity(1.0, x, 8, 3).value(8, 3), expected) << x;
    EXPECT_DOUBLE_EQ(two_class_table(1.0, x, 8, 3, TwoClassDp::lemma5).at(8, 3), expected) << x;
    std::vector<double> times(8, 1.0);
    for (int i = 0; i < 4; ++i) times.push_back(x);
    Cluster cluster = Cluster::from_times(times);
    for (ProcessorIndex root : {8, 11}) {
      MakespanPlan dp = run(cluster, root, "dp");
      EXPECT_DOUBLE_EQ(dp.makespan, expected) << x;
      EXPECT_TRUE(dp.optimal);
      expect_valid(cluster, dp);
      MakespanPlan snf = run(cluster, root, "snf");
      EXPECT_DOUBLE_EQ(snf.makespan, x + 3) << x;
      EXPECT_FALSE(snf.optimal) << "SNF must not claim optimality at ratio " << x;
    }
    // With a fast destination there are 7 fast and 4 slow senders: T(7, 4).
    MakespanPlan fast_root = run(cluster, 0, "dp");
    EXPECT_DOUBLE_EQ(fast_root.makespan, TwoClassCapacity(1.0, x, 7, 4).value(7, 4));
    expect_valid(cluster, fast_root);
  }
}

std::vector<double> random_times(std::mt19937_64& rng, int n, const std::vector<double>& classes) {
  std::vector<double> times(static_cast<size_t>(n));
  for (auto& t : times) t = classes[std::uniform_int_distribution<size_t>(0, classes.size() - 1)(rng)];
  return times;
}

TEST(ReduceDp, MatchesBruteForceWithAnyRoot) {
  std::mt19937_64 rng(99);
  const std::vector<std::vector<double>> palettes = {
      {1.0, 1.5}, {1.0, 1.25}, {1.0, 2.0}, {1.0, 3.0}, {2.0, 3.5}, {1.0, 1.5, 2.25}, {1.0, 1.25, 2.0, 3.0}, {1.0, 1.75, 2.5}};
  for (int trial = 0; trial < 2000; ++trial) {
    const auto& palette = palettes[static_cast<size_t>(trial) % palettes.size()];
    const int n = std::uniform_int_distribution<int>(1, 9)(rng);
    Cluster cluster = Cluster::from_times(random_times(rng, n, palette));
    const ProcessorIndex root = std::uniform_int_distribution<int>(0, n - 1)(rng);
    MakespanPlan dp = run(cluster, root, "dp");
    ASSERT_NEAR(dp.makespan, testing::reduce_by_ep_orders(cluster, root), 1e-9) << "trial " << trial;
    if (n <= 6) {
      ASSERT_NEAR(dp.makespan, testing::reduce_by_pairs(cluster, root), 1e-9) << "trial " << trial;
    }
    ASSERT_TRUE(dp.optimal);
    expect_valid(cluster, dp);
  }
}

TEST(ReduceDp, MatchesSearchOnLargerClusters) {
  std::mt19937_64 rng(5);
  const std::vector<std::vector<double>> palettes = {{1.0, 1.5}, {1.0, 1.125}, {1.0, 1.5, 2.25}, {1.0, 1.3, 1.7, 2.2}};
  for (int trial = 0; trial < 80; ++trial) {
    const auto& palette = palettes[static_cast<size_t>(trial) % palettes.size()];
    const int n = std::uniform_int_distribution<int>(10, palette.size() == 2 ? 60 : 30)(rng);
    Cluster cluster = Cluster::from_times(random_times(rng, n, palette));
    const ProcessorIndex root = std::uniform_int_distribution<int>(0, n - 1)(rng);
    MakespanPlan dp = run(cluster, root, "dp");
    MakespanPlan optimal = run(cluster, root, "optimal");
    ASSERT_TRUE(optimal.optimal);
    ASSERT_NEAR(dp.makespan, optimal.makespan, 1e-9) << "trial " << trial << " n " << n;
    expect_valid(cluster, dp);
  }
}

TEST(ReduceDp, KClassDpAgreesWithTwoClassDp) {
  for (double slow : {1.25, 1.5, 2.0}) {
    TwoClassCapacity capacity(1.0, slow, 25, 25);
    KClassDp dp({1.0, slow}, {25, 25});
    for (int f = 0; f <= 25; ++f) {
      for (int s = 0; s <= 25; ++s) ASSERT_DOUBLE_EQ(dp.value({f, s}), capacity.value(f, s)) << f << " " << s;
    }
  }
}

TEST(ReduceDp, LargeTwoClassClusterIsFast) {
  // 1000 fast and 1000 slow senders: the capacity DP and the rebuilt tree.
  std::vector<double> times(1001, 1.0);
  times.insert(times.end(), 1000, 1.5);
  Cluster cluster = Cluster::from_times(times);
  MakespanPlan dp = run(cluster, 0, "dp");
  EXPECT_TRUE(dp.optimal);
  EXPECT_LE(dp.makespan, run(cluster, 0, "snf").makespan);
  expect_valid(cluster, dp);
}

TEST(ReduceDp, RefusesHugeStateSpaces) {
  std::vector<double> times;
  for (int c = 0; c < 6; ++c) times.insert(times.end(), 40, 1.0 + 0.25 * c);
  Cluster cluster = Cluster::from_times(times);
  // Refused at once from the prediction (no table is built): SNF's plan,
  // status refused (exit code 4), the note says what to do instead.
  MakespanPlan plan = run(cluster, 0, "dp");
  EXPECT_EQ(plan.status, SearchStatus::refused);
  EXPECT_EQ(plan.algorithm, "dp");
  EXPECT_EQ(plan.stats.table_references, 0u);
  ASSERT_FALSE(plan.notes.empty());
  EXPECT_NE(plan.notes.back().find("algorithm \"optimal\""), std::string::npos) << plan.notes.back();
  expect_valid(cluster, plan);
}

// Issue 7: times 0.3, 1e-9, 0.1, 0.3 into 0.1 once built ~6e8 lattice
// deadlines (7 GB). A critical path holds at most f fast senders, so the
// lattice keeps a <= f: a handful of points.
TEST(ReduceDp, TwoClassLatticeStaysSmallForExtremeRatios) {
  Cluster cluster = Cluster::from_times({0.3, 1e-9, 0.1, 0.3});
  const DpWorkEstimate work = TwoClassCapacity::estimate(1e-9, 0.3, 1, 2);
  EXPECT_LT(work.table_entries, 100);
  MakespanPlan plan = run(cluster, 2, "dp");
  EXPECT_TRUE(plan.optimal);
  EXPECT_DOUBLE_EQ(plan.makespan, 0.3 + 1e-9);
  EXPECT_NEAR(plan.makespan, testing::reduce_by_ep_orders(cluster, 2), 1e-15);
  expect_valid(cluster, plan);
}

// A DP that would run past the time limit refuses from its prediction; one
// that is stopped while running returns SNF's plan with status time_limit.
TEST(ReduceDp, HonoursTheTimeLimit) {
  std::vector<double> times{1.0};
  for (int c = 0; c < 3; ++c) times.insert(times.end(), 40, 1.0 + 0.3 * c);
  Cluster cluster = Cluster::from_times(times);
  SearchLimits tiny;
  tiny.time_limit_seconds = 1e-3;
  MakespanPlan refused = plan_reduce_dp(cluster, 0, tiny);
  EXPECT_EQ(refused.status, SearchStatus::refused);
  expect_valid(cluster, refused);
  // The prediction is an upper estimate; a run given a little less time than
  // it needs stops and still returns a valid plan.
  const DpWorkEstimate work = KClassDp::estimate(sender_classes(cluster, 0).counts());
  SearchLimits cut;
  cut.time_limit_seconds = work.seconds;
  int stopped = 0;
  for (const double fraction : {1.0, 0.5, 0.2}) {
    cut.time_limit_seconds = work.seconds * fraction;
    MakespanPlan plan = plan_reduce_dp(cluster, 0, cut);
    expect_valid(cluster, plan);
    if (plan.status == SearchStatus::time_limit) ++stopped;
    if (plan.status == SearchStatus::finished) { EXPECT_TRUE(plan.optimal); }
  }
  RecordProperty("stopped_runs", stopped);
}

TEST(SnfOptimality, TheoremsHoldAgainstTheOptimum) {
  // Liu, Kuo, Wang 2009 Thm 4 (two classes, ratio >= 2) and Thm 1 / sec. 1
  // (divisibility chains): SNF is optimal, and snf_optimality() says so.
  std::mt19937_64 rng(2024);
  const std::vector<std::vector<double>> provable = {
      {1.0, 2.0}, {1.0, 2.5}, {1.0, 3.0}, {1.5, 4.0}, {1.0, 2.0, 4.0}, {1.0, 3.0, 6.0}, {1.0, 2.0, 6.0, 12.0}, {2.0, 4.0, 8.0}};
  int claims = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const auto& palette = provable[static_cast<size_t>(trial) % provable.size()];
    const int n = std::uniform_int_distribution<int>(2, trial < 1200 ? 9 : 40)(rng);
    Cluster cluster = Cluster::from_times(random_times(rng, n, palette));
    const ProcessorIndex root = std::uniform_int_distribution<int>(0, n - 1)(rng);
    MakespanPlan snf = run(cluster, root, "snf");
    const double optimum = n <= 9 ? testing::reduce_by_ep_orders(cluster, root) : run(cluster, root, "dp").makespan;
    ASSERT_NEAR(snf.makespan, optimum, 1e-9) << "trial " << trial << ": SNF not optimal on a provable cluster";
    EXPECT_FALSE(snf_optimality(cluster, root).empty()) << "trial " << trial;
    ++claims;
  }
  // And every claim snf_optimality() makes on arbitrary clusters holds.
  const std::vector<double> palette = {1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0};
  for (int trial = 0; trial < 1500; ++trial) {
    const int n = std::uniform_int_distribution<int>(2, 9)(rng);
    std::vector<double> classes;
    std::sample(palette.begin(), palette.end(), std::back_inserter(classes), std::uniform_int_distribution<int>(1, 3)(rng), rng);
    Cluster cluster = Cluster::from_times(random_times(rng, n, classes));
    const ProcessorIndex root = std::uniform_int_distribution<int>(0, n - 1)(rng);
    MakespanPlan snf = run(cluster, root, "snf");
    if (snf.optimal) {
      ASSERT_NEAR(snf.makespan, testing::reduce_by_ep_orders(cluster, root), 1e-9)
          << "trial " << trial << ": snf claims optimality (" << snf.optimality_proof << ") but is not optimal";
      ++claims;
    }
  }
  EXPECT_GT(claims, 1800);
}

}  // namespace
}  // namespace hetcoll
