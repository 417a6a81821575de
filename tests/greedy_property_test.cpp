// Property tests of the greedy planners (FNF, EP/SNF, all-reduce) on
// thousands of seeded random clusters: every plan passes verify/, meets its
// lower bound, and keeps its guarantee against independent brute force.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "hetcoll/core/distinct_values.h"
#include "hetcoll/makespan/sender_speed/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf_internal.h"
#include "hetcoll/makespan/sender_speed/reduce/ep.h"
#include "hetcoll/makespan/sender_speed/reduce/ep_internal.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/makespan/sender_speed/theorems.h"
#include "hetcoll/verify/verify.h"
#include "support/brute_force.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

using testing::random_cluster;

constexpr double kSlack = 1e-9;

Cluster random_instance(std::mt19937_64& rng, int max_n) {
  std::uniform_int_distribution<int> size(1, max_n);
  std::uniform_int_distribution<int> classes(0, 4);  // 0 = continuous times
  int n = size(rng);
  int k = classes(rng);
  return random_cluster(rng, n, k, k == 0 ? 5.0 : 4.0);
}

ProcessorIndex random_processor(std::mt19937_64& rng, const Cluster& cluster) {
  return std::uniform_int_distribution<ProcessorIndex>(0, cluster.size() - 1)(rng);
}

void expect_valid(const Cluster& cluster, const MakespanPlan& plan) {
  VerifyReport report = verify(cluster, plan);
  ASSERT_TRUE(report.valid) << report.summary();
  EXPECT_LE(plan.lower_bound, plan.makespan + kSlack);
  EXPECT_NEAR(plan.makespan, report.measured_makespan, kSlack);
}

TEST(FnfProperty, ValidOnRandomClusters) {
  std::mt19937_64 rng(20261122);
  for (int trial = 0; trial < 3000; ++trial) {
    Cluster cluster = random_instance(rng, 40);
    ProcessorIndex source = random_processor(rng, cluster);
    MakespanPlan plan = plan_broadcast_fnf(cluster, source);
    expect_valid(cluster, plan);
    EXPECT_EQ(plan.transfers.size(), static_cast<size_t>(cluster.size() - 1));
    if (HasFatalFailure()) return;
  }
}

TEST(FnfProperty, GuaranteesHoldAgainstBruteForce) {
  std::mt19937_64 rng(7);
  int checked_optimal_claims = 0;
  for (int trial = 0; trial < 2500; ++trial) {
    Cluster cluster = random_instance(rng, 8);
    ProcessorIndex source = random_processor(rng, cluster);
    MakespanPlan plan = plan_broadcast_fnf(cluster, source);
    const double optimum = testing::broadcast_by_sequences(cluster, source);
    EXPECT_GE(plan.makespan, optimum - kSlack);
    EXPECT_LE(plan.lower_bound, optimum + kSlack) << "the lower bound exceeds the optimum";
    const bool source_is_fastest = cluster.transmission_time(source) == cluster.fastest_time();
    EXPECT_LE(plan.makespan, (source_is_fastest ? 1.5 : 2.0) * optimum + kSlack)
        << "FNF broke its guarantee; times " << ::testing::PrintToString(cluster.transmission_times());
    if (plan.optimal) {
      ++checked_optimal_claims;
      EXPECT_NEAR(plan.makespan, optimum, kSlack)
          << "FNF claims optimality (" << plan.optimality_proof << ") but the optimum is " << optimum
          << "; times " << ::testing::PrintToString(cluster.transmission_times()) << " source " << source;
    }
  }
  EXPECT_GT(checked_optimal_claims, 300);
}

TEST(FnfProperty, TwoBruteForcesAgree) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    Cluster cluster = random_instance(rng, 6);
    ProcessorIndex source = random_processor(rng, cluster);
    EXPECT_NEAR(testing::broadcast_by_sequences(cluster, source), testing::broadcast_by_pairs(cluster, source), kSlack);
  }
}

// fnf_transfers keeps one FIFO per time when a cluster has few distinct
// times (makespan/sender_speed/broadcast/fnf_internal.h); the priority-queue version is
// the reference. Same transfers, in the same order, on clusters of 1-16
// exact classes, from any source, to all or some receivers, with a start
// offset; and the class path declines near-ties and too many classes.
TEST(FnfProperty, ClassQueuesMatchThePriorityQueue) {
  std::mt19937_64 rng(20261127);
  int compared = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, trial % 10 == 0 ? 400 : 40)(rng);
    const int k = std::uniform_int_distribution<int>(1, 16)(rng);
    std::vector<double> class_times;
    for (int c = 0; c < k; ++c) {
      // Halves make many equal finish times (groups); sqrt(2)s make sums
      // that differ by rounding noise only (within the tolerance).
      class_times.push_back(trial % 3 == 0 ? 1.0 + std::sqrt(2.0) * c : 1.0 + 0.5 * c);
    }
    std::vector<double> times;
    for (int p = 0; p < n; ++p) times.push_back(class_times[std::uniform_int_distribution<int>(0, k - 1)(rng)]);
    Cluster cluster = Cluster::from_times(times);
    const ProcessorIndex source = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);
    std::vector<ProcessorIndex> receivers;
    for (ProcessorIndex p = 0; p < n; ++p) {
      if (p != source && (trial % 4 != 0 || rng() % 2 == 0)) receivers.push_back(p);
    }
    if (trial % 5 == 0) std::shuffle(receivers.begin(), receivers.end(), rng);
    const double start = trial % 7 == 0 ? 3.25 : 0.0;
    auto by_class = fnf_transfers_by_class(cluster, source, receivers, start);
    ASSERT_TRUE(by_class.has_value()) << "trial " << trial;
    EXPECT_EQ(*by_class, fnf_transfers_by_heap(cluster, source, receivers, start)) << "trial " << trial;
    ++compared;
  }
  EXPECT_EQ(compared, 3000);
  // A broadcast plan takes the class path over every processor but the
  // source (no receiver list) and checks its theorems on the distinct
  // times: the same transfers as the queue, the same claims as
  // fnf_optimality on all the times.
  for (int trial = 0; trial < 600; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, trial % 10 == 0 ? 300 : 30)(rng);
    const int k = std::uniform_int_distribution<int>(1, trial % 2 == 0 ? 3 : 16)(rng);
    std::vector<double> times;
    for (int p = 0; p < n; ++p) {
      const int c = std::uniform_int_distribution<int>(0, k - 1)(rng);
      times.push_back(trial % 3 == 0 ? std::ldexp(1.0, c) : trial % 3 == 1 ? 1.0 + c : 1.0 + std::sqrt(2.0) * c);
    }
    Cluster cluster = Cluster::from_times(times);
    const ProcessorIndex source = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);
    std::vector<ProcessorIndex> receivers;
    for (ProcessorIndex p = 0; p < n; ++p) {
      if (p != source) receivers.push_back(p);
    }
    const MakespanPlan plan = plan_broadcast_fnf(cluster, source);
    EXPECT_EQ(plan.transfers, fnf_transfers_by_heap(cluster, source, receivers, 0.0)) << "trial " << trial;
    const std::string theorem = fnf_optimality(cluster, source);
    if (!theorem.empty()) {
      EXPECT_TRUE(plan.optimal) << "trial " << trial;
      EXPECT_EQ(plan.optimality_proof, theorem) << "trial " << trial;
    } else if (plan.optimal) {
      EXPECT_EQ(plan.optimality_proof, kBoundMetProof) << "trial " << trial;
    }
  }
  // Two times within the tolerance form one class of the tolerance rule but
  // two exact values: the class path declines (the heap path handles them).
  Cluster near_tie = Cluster::from_times({1.0, 1.0 + 1e-12, 2.0});
  EXPECT_FALSE(fnf_transfers_by_class(near_tie, 0, {1, 2}, 0.0).has_value());
  // Times 1e14 apart: two classes (the tolerance is relative to the times
  // compared, never 1e-4 of the slowest), and both paths agree.
  Cluster tiny = Cluster::from_times({1e-14, 1.0, 1.0, 1e-14});
  if (auto by_class = fnf_transfers_by_class(tiny, 0, {1, 2, 3}, 0.0)) {
    EXPECT_EQ(*by_class, fnf_transfers_by_heap(tiny, 0, {1, 2, 3}, 0.0));
  }
  EXPECT_EQ(fnf_transfers(tiny, 0, {1, 2, 3}), fnf_transfers_by_heap(tiny, 0, {1, 2, 3}, 0.0));
  std::vector<double> many;
  for (int p = 0; p <= static_cast<int>(kFewDistinctTimes); ++p) many.push_back(1.0 + p);
  Cluster distinct = Cluster::from_times(many);
  std::vector<ProcessorIndex> all;
  for (ProcessorIndex p = 1; p < distinct.size(); ++p) all.push_back(p);
  EXPECT_FALSE(fnf_transfers_by_class(distinct, 0, all, 0.0).has_value());
  EXPECT_EQ(fnf_transfers(distinct, 0, all), fnf_transfers_by_heap(distinct, 0, all, 0.0));
}

TEST(FnfGolden, Liu2002Figure2FnfIsNotOptimal) {
  // Liu 2002 Fig. 2: the t = 2 processor served first costs one time unit.
  Cluster cluster = Cluster::from_times({1, 3, 3, 2, 3, 3, 3});
  MakespanPlan plan = plan_broadcast_fnf(cluster, 0);
  expect_valid(cluster, plan);
  EXPECT_DOUBLE_EQ(plan.makespan, 5.0);
  EXPECT_FALSE(plan.optimal);
  EXPECT_DOUBLE_EQ(testing::broadcast_by_sequences(cluster, 0), 4.0);
}

TEST(FnfGolden, HomogeneousClusterDoubles) {
  for (int k = 0; k <= 10; ++k) {
    Cluster cluster = Cluster::from_times(std::vector<double>(static_cast<size_t>(1) << k, 0.1));
    MakespanPlan plan = plan_broadcast_fnf(cluster, 0);
    expect_valid(cluster, plan);
    EXPECT_NEAR(plan.makespan, 0.1 * k, 1e-12);
    EXPECT_TRUE(plan.optimal);
  }
}

TEST(FnfGolden, SlowSourceSendsToFastestFirst) {
  Cluster cluster = Cluster::from_times({3, 1, 1, 1, 2});
  MakespanPlan plan = plan_broadcast_fnf(cluster, 0);
  expect_valid(cluster, plan);
  ASSERT_FALSE(plan.transfers.empty());
  EXPECT_EQ(plan.transfers.front().to, 1);
  // Three classes, slow source: no theorem applies, but FNF's makespan 5
  // meets the broadcast bound t(s) + t_min ceil(log2(n / 2)) = 3 + 2.
  EXPECT_DOUBLE_EQ(plan.makespan, 5.0);
  EXPECT_TRUE(plan.optimal);
  EXPECT_EQ(plan.optimality_proof, "the makespan equals a proven lower bound");
  EXPECT_EQ(plan.lower_bound, plan.makespan);
  // With a slower last processor the bound no longer meets it: FNF's ratio.
  MakespanPlan unproven = plan_broadcast_fnf(Cluster::from_times({3, 1, 1, 1, 2.5, 2.5}), 0);
  EXPECT_FALSE(unproven.optimal);
  EXPECT_DOUBLE_EQ(unproven.guarantee.ratio, 2.0);
  // A power-2 cluster with a given slow source is covered by Liu 2002 sec. 4.4.
  EXPECT_TRUE(plan_broadcast_fnf(Cluster::from_times({4, 1, 1, 1, 2}), 0).optimal);
}

TEST(FnfProperty, DecimalTimesWithRoundingNoise) {
  // 0.1 + 0.2 != 0.3 in binary: the tie rule must still give valid plans.
  std::mt19937_64 rng(3);
  const std::vector<double> values = {0.1, 0.2, 0.3, 0.7};
  for (int trial = 0; trial < 300; ++trial) {
    std::uniform_int_distribution<size_t> pick(0, values.size() - 1);
    std::vector<double> times(static_cast<size_t>(std::uniform_int_distribution<int>(2, 60)(rng)));
    for (auto& t : times) t = values[pick(rng)];
    Cluster cluster = Cluster::from_times(times);
    expect_valid(cluster, plan_broadcast_fnf(cluster, random_processor(rng, cluster)));
    expect_valid(cluster, plan_reduce_snf(cluster, random_processor(rng, cluster)));
    expect_valid(cluster, plan_allreduce_snf_fnf(cluster, kNoProcessor));
    if (HasFatalFailure()) return;
  }
}

TEST(SnfProperty, ValidOnRandomClusters) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 3000; ++trial) {
    Cluster cluster = random_instance(rng, 40);
    ProcessorIndex root = random_processor(rng, cluster);
    MakespanPlan plan = plan_reduce_snf(cluster, root);
    expect_valid(cluster, plan);
    EXPECT_EQ(plan.transfers.size(), static_cast<size_t>(cluster.size() - 1));
    EXPECT_NEAR(plan.makespan, ep_makespan(cluster, snf_order(cluster, root)), kSlack);
    if (HasFatalFailure()) return;
  }
}

TEST(EpProperty, AnyOrderGivesAValidSchedule) {
  // Lemma 1: every EP schedule has receivers for all its messages.
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 3000; ++trial) {
    Cluster cluster = random_instance(rng, 30);
    ProcessorIndex root = random_processor(rng, cluster);
    std::vector<ProcessorIndex> order;
    for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
      if (p != root) order.push_back(p);
    }
    std::shuffle(order.begin(), order.end(), rng);
    MakespanPlan plan = plan_reduce_ep(cluster, root, order);
    expect_valid(cluster, plan);
    if (HasFatalFailure()) return;
  }
}

TEST(EpProperty, ClassWindowsMatchThePriorityQueue) {
  // ep_transfers' class windows (ep_internal.h) against the priority queue:
  // SNF orders and other orders listing each class in one run, on clusters
  // of 1-16 classes whose times are halves (many ties: groups of sends
  // completing together) or multiples of sqrt 2 (completions that differ by
  // rounding noise only), with a start offset; orders with a class in two
  // runs are declined.
  std::mt19937_64 rng(20261127);
  int compared = 0, declined = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, trial % 10 == 0 ? 400 : 40)(rng);
    const int k = std::uniform_int_distribution<int>(1, 16)(rng);
    std::vector<double> class_times;
    for (int c = 0; c < k; ++c) class_times.push_back(trial % 3 == 0 ? 1.0 + std::sqrt(2.0) * c : 1.0 + 0.5 * c);
    std::vector<double> times;
    for (int p = 0; p < n; ++p) times.push_back(class_times[std::uniform_int_distribution<int>(0, k - 1)(rng)]);
    Cluster cluster = Cluster::from_times(times);
    const ProcessorIndex root = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);
    std::vector<ProcessorIndex> order = snf_order(cluster, root);
    if (trial % 4 == 1) {
      // Classes in another order, each still one run, shuffled inside.
      std::vector<double> run_order = class_times;
      std::shuffle(run_order.begin(), run_order.end(), rng);
      std::stable_sort(order.begin(), order.end(), [&](ProcessorIndex a, ProcessorIndex b) {
        return std::find(run_order.begin(), run_order.end(), cluster.transmission_time(a)) <
               std::find(run_order.begin(), run_order.end(), cluster.transmission_time(b));
      });
      for (std::size_t begin = 0, end = 0; begin < order.size(); begin = end) {
        end = begin;
        while (end < order.size() && cluster.transmission_time(order[end]) == cluster.transmission_time(order[begin])) {
          ++end;
        }
        std::shuffle(order.begin() + static_cast<std::ptrdiff_t>(begin), order.begin() + static_cast<std::ptrdiff_t>(end),
                     rng);
      }
    } else if (trial % 4 == 2) {
      std::shuffle(order.begin(), order.end(), rng);  // classes in several runs (most of the time)
    }
    const double start = trial % 7 == 0 ? 3.25 : 0.0;
    const auto heap = ep_transfers_by_heap(cluster, root, order, start);
    EXPECT_EQ(ep_transfers(cluster, root, order, start), heap) << "trial " << trial;
    if (auto by_class = ep_transfers_by_class(cluster, root, order, start)) {
      EXPECT_EQ(*by_class, heap) << "trial " << trial;
      ++compared;
    } else {
      ++declined;
    }
  }
  EXPECT_GT(compared, 2000);
  EXPECT_GT(declined, 300);
  // Two times within the tolerance: one class of the tolerance rule, two
  // exact values; the window path declines.
  Cluster near_tie = Cluster::from_times({1.0, 1.0 + 1e-12, 2.0});
  EXPECT_FALSE(ep_transfers_by_class(near_tie, 2, {0, 1}, 0.0).has_value());
  // A class in two runs.
  Cluster two_runs = Cluster::from_times({1.0, 2.0, 1.0, 3.0});
  EXPECT_FALSE(ep_transfers_by_class(two_runs, 3, {0, 1, 2}, 0.0).has_value());
  EXPECT_TRUE(ep_transfers_by_class(two_runs, 3, {0, 2, 1}, 0.0).has_value());
}

TEST(SnfProperty, OrderAndClaimsMatchTheSortAndTheTheorems) {
  // snf_order and plan_reduce_snf take one counting pass when the senders
  // have few exact times more than the tolerance apart: the order must be
  // sort_by_time_class's, the claims snf_optimality's on all the times.
  std::mt19937_64 rng(1127);
  for (int trial = 0; trial < 1500; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, trial % 10 == 0 ? 300 : 30)(rng);
    const int k = std::uniform_int_distribution<int>(1, trial % 2 == 0 ? 3 : 20)(rng);
    std::vector<double> class_times;
    for (int c = 0; c < k; ++c) {
      class_times.push_back(trial % 4 == 0   ? std::ldexp(1.0, c)
                            : trial % 4 == 1 ? 1.0 + c
                            : trial % 4 == 2 ? 1.0 + std::sqrt(2.0) * c
                                             : 1.0 + 1e-12 * c);  // near ties: declined
    }
    std::vector<double> times;
    for (int p = 0; p < n; ++p) times.push_back(class_times[std::uniform_int_distribution<int>(0, k - 1)(rng)]);
    Cluster cluster = Cluster::from_times(times);
    const ProcessorIndex root = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);
    std::vector<ProcessorIndex> sorted;
    for (ProcessorIndex p = 0; p < n; ++p) {
      if (p != root) sorted.push_back(p);
    }
    std::shuffle(sorted.begin(), sorted.end(), rng);
    sort_by_time_class(cluster, sorted, /*slowest_first=*/true);
    EXPECT_EQ(snf_order(cluster, root), sorted) << "trial " << trial;
    const MakespanPlan plan = plan_reduce_snf(cluster, root);
    EXPECT_EQ(plan.transfers, ep_transfers_by_heap(cluster, root, sorted, 0.0)) << "trial " << trial;
    const std::string theorem = snf_optimality(cluster, root);
    if (!theorem.empty()) {
      EXPECT_TRUE(plan.optimal) << "trial " << trial;
      EXPECT_EQ(plan.optimality_proof, theorem) << "trial " << trial;
    } else if (plan.optimal) {
      EXPECT_EQ(plan.optimality_proof, kBoundMetProof) << "trial " << trial;
    }
    // snf_optimality against its hypotheses checked on every sender's time.
    std::vector<double> sender_times;
    for (ProcessorIndex p = 0; p < n; ++p) {
      if (p != root) sender_times.push_back(cluster.transmission_time(p));
    }
    if (n > 2) {
      const bool chain = is_divisibility_chain(sender_times, cluster.tolerance()).holds;
      const bool two = has_two_classes_with_ratio_at_least(sender_times, 2.0, cluster.tolerance()).holds;
      EXPECT_EQ(!theorem.empty(), chain || two) << "trial " << trial;
    }
  }
}

TEST(SnfProperty, GuaranteesHoldAgainstBruteForce) {
  std::mt19937_64 rng(17);
  int checked_optimal_claims = 0;
  for (int trial = 0; trial < 2500; ++trial) {
    Cluster cluster = random_instance(rng, 8);
    ProcessorIndex root = random_processor(rng, cluster);
    MakespanPlan plan = plan_reduce_snf(cluster, root);
    const double optimum = testing::reduce_by_ep_orders(cluster, root);
    EXPECT_GE(plan.makespan, optimum - kSlack);
    EXPECT_LE(plan.lower_bound, optimum + kSlack) << "the lower bound exceeds the optimum";
    EXPECT_LE(plan.makespan, 2.0 * optimum + kSlack);
    if (plan.optimal) {
      ++checked_optimal_claims;
      EXPECT_NEAR(plan.makespan, optimum, kSlack)
          << "SNF claims optimality (" << plan.optimality_proof << ") but the optimum is " << optimum
          << "; times " << ::testing::PrintToString(cluster.transmission_times()) << " root " << root;
    }
  }
  EXPECT_GT(checked_optimal_claims, 300);
}

TEST(SnfProperty, EpOrdersCoverEverySchedule) {
  // The EP canonical form loses nothing: the best EP order equals a search
  // over every (sender, receiver) schedule.
  std::mt19937_64 rng(23);
  for (int trial = 0; trial < 300; ++trial) {
    Cluster cluster = random_instance(rng, 6);
    ProcessorIndex root = random_processor(rng, cluster);
    EXPECT_NEAR(testing::reduce_by_ep_orders(cluster, root), testing::reduce_by_pairs(cluster, root), kSlack)
        << ::testing::PrintToString(cluster.transmission_times()) << " root " << root;
  }
}

// Liu, Kuo, Wang 2009 Fig. 8: 8 fast (t = 1) and 4 slow (t = x) processors, the root one
// of the slow ones. SNF takes x + 3; the optimum is 4 for 1 < x < 1.5 and
// 2x + 1 for 1.5 <= x < 2. Identical processors are interchangeable, so the
// best EP order is the best placement of the 3 slow senders among the 11.
TEST(SnfGolden, LiuKuoWang2009Figure8) {
  for (double x : {1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875}) {
    std::vector<double> times(8, 1.0);
    times.insert(times.end(), 4, x);
    Cluster cluster = Cluster::from_times(times);
    const ProcessorIndex root = 11;
    MakespanPlan plan = plan_reduce_snf(cluster, root);
    expect_valid(cluster, plan);
    EXPECT_DOUBLE_EQ(plan.makespan, x + 3) << "x = " << x;
    EXPECT_FALSE(plan.optimal);
    double best = std::numeric_limits<double>::infinity();
    std::vector<ProcessorIndex> best_order;
    for (int a = 0; a < 11; ++a) {
      for (int b = a + 1; b < 11; ++b) {
        for (int c = b + 1; c < 11; ++c) {
          std::vector<ProcessorIndex> order;
          ProcessorIndex next_fast = 0, next_slow = 8;
          for (int position = 0; position < 11; ++position) {
            order.push_back(position == a || position == b || position == c ? next_slow++ : next_fast++);
          }
          double makespan = ep_makespan(cluster, order);
          if (makespan < best) {
            best = makespan;
            best_order = order;
          }
        }
      }
    }
    EXPECT_DOUBLE_EQ(best, x < 1.5 ? 4.0 : 2 * x + 1) << "x = " << x;
    expect_valid(cluster, plan_reduce_ep(cluster, root, best_order));
  }
}

TEST(SnfGolden, TwoClassesRatioTwoIsOptimal) {
  Cluster cluster = Cluster::from_times({1, 1, 1, 2, 2, 2, 1, 2});
  MakespanPlan plan = plan_reduce_snf(cluster, 0);
  EXPECT_TRUE(plan.optimal);
  EXPECT_NEAR(plan.makespan, testing::reduce_by_ep_orders(cluster, 0), kSlack);
}

TEST(AllreduceProperty, ValidAndWithinTheCompositionBound) {
  std::mt19937_64 rng(31);
  for (int trial = 0; trial < 1500; ++trial) {
    Cluster cluster = random_instance(rng, 8);
    MakespanPlan plan = plan_allreduce_snf_fnf(cluster, kNoProcessor);
    expect_valid(cluster, plan);
    const ProcessorIndex root = plan.root;
    EXPECT_EQ(cluster.transmission_time(root), cluster.fastest_time());
    // Thm 3's argument: reduce <= 2 x the optimal reduce into the root, and
    // FNF from a fastest source <= 1.5 x the optimal broadcast.
    const double bound = 2.0 * testing::reduce_by_ep_orders(cluster, root) +
                         1.5 * testing::broadcast_by_sequences(cluster, root);
    EXPECT_LE(plan.makespan, bound + kSlack);
    EXPECT_EQ(plan.transfers.size(), static_cast<size_t>(2 * (cluster.size() - 1)));
    if (HasFatalFailure()) return;
  }
}

TEST(AllreduceProperty, UserRootIsHonoured) {
  std::mt19937_64 rng(37);
  for (int trial = 0; trial < 500; ++trial) {
    Cluster cluster = random_instance(rng, 30);
    ProcessorIndex root = random_processor(rng, cluster);
    MakespanPlan plan = plan_allreduce_snf_fnf(cluster, root);
    EXPECT_EQ(plan.root, root);
    expect_valid(cluster, plan);
    if (HasFatalFailure()) return;
  }
}

TEST(Greedy, SingleProcessorNeedsNoMessage) {
  Cluster cluster = Cluster::from_times({2.5});
  for (const auto& plan : {plan_broadcast_fnf(cluster, 0), plan_reduce_snf(cluster, 0),
                           plan_allreduce_snf_fnf(cluster, kNoProcessor)}) {
    expect_valid(cluster, plan);
    EXPECT_EQ(plan.makespan, 0.0);
    EXPECT_TRUE(plan.transfers.empty());
  }
}

TEST(Greedy, LargeClustersStayValid) {
  std::mt19937_64 rng(41);
  Cluster cluster = random_cluster(rng, 200000, 5, 8.0);
  expect_valid(cluster, plan_broadcast_fnf(cluster, 17));
  expect_valid(cluster, plan_reduce_snf(cluster, 17));
  expect_valid(cluster, plan_allreduce_snf_fnf(cluster, kNoProcessor));
}

TEST(Bounds, CeilLog2) {
  EXPECT_EQ(ceil_log2(1), 0);
  EXPECT_EQ(ceil_log2(2), 1);
  EXPECT_EQ(ceil_log2(3), 2);
  EXPECT_EQ(ceil_log2(1024), 10);
  EXPECT_EQ(ceil_log2(1025), 11);
}

}  // namespace
}  // namespace hetcoll
