// The verifier must reject every kind of broken plan: these tests break
// valid plans one way at a time and check that verify() names the problem.
#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <random>

#include "hetcoll/makespan/sender_speed/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"
#include "hetcoll/makespan/sender_speed/reduce/optimal_search.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {
namespace {

const Cluster kCluster = Cluster::from_times({1, 1, 2, 2, 3, 1.5, 2.5, 1});

bool mentions(const VerifyReport& report, const std::string& word) {
  for (const auto& line : report.violations) {
    if (line.find(word) != std::string::npos) return true;
  }
  return false;
}

TEST(Verify, AcceptsTheGreedyPlans) {
  EXPECT_TRUE(verify(kCluster, plan_broadcast_fnf(kCluster, 3)).valid);
  EXPECT_TRUE(verify(kCluster, plan_reduce_snf(kCluster, 4)).valid);
  EXPECT_TRUE(verify(kCluster, plan_allreduce_snf_fnf(kCluster, kNoProcessor)).valid);
}

TEST(Verify, BroadcastMissingReceiver) {
  auto plan = plan_broadcast_fnf(kCluster, 0);
  plan.transfers.pop_back();
  plan.makespan = last_completion(plan.transfers);
  auto report = verify(kCluster, plan);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "never receives")) << report.summary();
}

TEST(Verify, BroadcastSenderWithoutMessage) {
  auto plan = plan_broadcast_fnf(kCluster, 0);
  // Make a leaf forward before it holds the message.
  auto& last = plan.transfers.back();
  last.start -= 0.5;
  last.end -= 0.5;
  plan.makespan = last_completion(plan.transfers);
  Transfer early = plan.transfers.back();
  early.from = early.to;
  early.to = plan.transfers.front().to;
  early.start = 0;
  early.end = kCluster.transmission_time(early.from);
  plan.transfers.push_back(early);
  auto report = verify(kCluster, plan);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "causality")) << report.summary();
}

TEST(Verify, OnePortOverlap) {
  auto plan = plan_broadcast_fnf(kCluster, 0);
  // The source sends its second message while its first is still under way.
  for (auto& t : plan.transfers) {
    if (t.from == 0 && t.start > 0) {
      t.start -= 0.5;
      t.end -= 0.5;
      break;
    }
  }
  plan.makespan = last_completion(plan.transfers);
  auto report = verify(kCluster, plan);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "one-port")) << report.summary();
}

TEST(Verify, WrongDuration) {
  auto plan = plan_broadcast_fnf(kCluster, 0);
  plan.transfers.back().end += 0.25;
  plan.makespan = last_completion(plan.transfers);
  auto report = verify(kCluster, plan);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "takes")) << report.summary();
}

TEST(Verify, ClaimedMakespanMustMatch) {
  auto plan = plan_broadcast_fnf(kCluster, 0);
  plan.makespan -= 0.5;
  auto report = verify(kCluster, plan);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "claims")) << report.summary();
}

TEST(Verify, LowerBoundAboveMakespan) {
  auto plan = plan_broadcast_fnf(kCluster, 0);
  plan.lower_bound = plan.makespan + 1;
  EXPECT_FALSE(verify(kCluster, plan).valid);
}

TEST(Verify, ReduceSenderSendsTwice) {
  auto plan = plan_reduce_snf(kCluster, 0);
  Transfer again = plan.transfers.front();
  again.start = plan.makespan;
  again.end = again.start + kCluster.transmission_time(again.from);
  again.to = 0;
  plan.transfers.push_back(again);
  plan.makespan = last_completion(plan.transfers);
  auto report = verify(kCluster, plan);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "second time")) << report.summary();
}

TEST(Verify, ReduceRootSends) {
  auto plan = plan_reduce_snf(kCluster, 0);
  plan.transfers.push_back({0, 1, plan.makespan, plan.makespan + 1, Payload::partial_reduction});
  plan.makespan = last_completion(plan.transfers);
  auto report = verify(kCluster, plan);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "root")) << report.summary();
}

TEST(Verify, ReduceSendsBeforeItsLastReceive) {
  auto plan = plan_reduce_snf(kCluster, 0);
  // Find a processor that receives and sends; move its send to time 0 rows.
  for (auto& send : plan.transfers) {
    bool receives = false;
    for (const auto& t : plan.transfers) receives = receives || t.to == send.from;
    if (receives && send.to != 0) {
      double duration = send.end - send.start;
      send.start = 0;
      send.end = duration;
      break;
    }
  }
  plan.makespan = last_completion(plan.transfers);
  auto report = verify(kCluster, plan);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "causality")) << report.summary();
}

TEST(Verify, ReduceMissingContribution) {
  auto plan = plan_reduce_snf(kCluster, 0);
  plan.transfers.erase(plan.transfers.begin());
  plan.makespan = last_completion(plan.transfers);
  auto report = verify(kCluster, plan);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "never sends")) << report.summary();
}

TEST(Verify, ReduceCycleNeverReachesRoot) {
  Cluster cluster = Cluster::from_times({1, 1, 1});
  MakespanPlan plan;
  plan.operation = Operation::reduce;
  plan.root = 0;
  plan.transfers = {{1, 2, 0, 1, Payload::partial_reduction}, {2, 1, 1, 2, Payload::partial_reduction}};
  plan.makespan = 2;
  auto report = verify(cluster, plan);
  EXPECT_FALSE(report.valid);
  EXPECT_NE(report.summary().find("travels in a cycle and never reaches the root"), std::string::npos)
      << report.summary();
}

TEST(Verify, AllreduceBroadcastBeforeResult) {
  auto plan = plan_allreduce_snf_fnf(kCluster, kNoProcessor);
  for (auto& t : plan.transfers) {
    if (t.payload == Payload::broadcast_value) {
      double duration = t.end - t.start;
      t.start = 0;
      t.end = duration;
      break;
    }
  }
  plan.makespan = last_completion(plan.transfers);
  EXPECT_FALSE(verify(kCluster, plan).valid);
}

TEST(Verify, MulticastOnlyTargetsMustReceive) {
  Cluster cluster = Cluster::from_times({1, 1, 5, 5});
  MakespanPlan plan;
  plan.operation = Operation::multicast;
  plan.root = 0;
  plan.targets = {2, 3};
  plan.transfers = {{0, 1, 0, 1, Payload::broadcast_value},  // a helper
                    {0, 2, 1, 2, Payload::broadcast_value},
                    {1, 3, 1, 2, Payload::broadcast_value}};
  plan.makespan = 2;
  EXPECT_TRUE(verify(cluster, plan).valid) << verify(cluster, plan).summary();
  plan.transfers.pop_back();
  plan.makespan = 2;
  auto report = verify(cluster, plan);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "target")) << report.summary();
}

TEST(Verify, UnknownProcessorIsReportedNotCrashed) {
  auto plan = plan_broadcast_fnf(kCluster, 0);
  plan.transfers.front().to = 99;
  EXPECT_FALSE(verify(kCluster, plan).valid);
  plan.root = -3;
  EXPECT_FALSE(verify(kCluster, plan).valid);
}

TEST(Verify, ManyViolationsAreCountedButListedBriefly) {
  Cluster cluster = Cluster::from_times(std::vector<double>(100, 1.0));
  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.root = 0;
  auto report = verify(cluster, plan);
  EXPECT_FALSE(report.valid);
  EXPECT_EQ(report.violation_count, 99u);
  EXPECT_EQ(report.violations.size(), 20u);
  EXPECT_NE(report.summary().find("79 more"), std::string::npos);
}

// --- Issue 7: tolerances are local, claims are checked -------------------

// Issue 7: one transfer ending at 1e12 used to set a global tolerance of
// 1e3 and hide an overlap at time 0, a send lasting 0.001 where t = 1, and
// sends starting at -500.
TEST(VerifyLocalTolerance, ALateTransferDoesNotHideEarlyViolations) {
  Cluster big = Cluster::from_times({1, 1, 1, 1e12, 1});
  MakespanPlan wide;
  wide.operation = Operation::broadcast;
  wide.root = 0;
  wide.transfers = {{0, 1, 0, 1, Payload::broadcast_value},
                    {0, 2, 0, 1, Payload::broadcast_value},  // p0 sends twice at time 0: one-port broken
                    {1, 3, 1, 2, Payload::broadcast_value},
                    {3, 4, 2, 2 + 1e12, Payload::broadcast_value}};
  wide.makespan = 2 + 1e12;
  auto report = verify(big, wide);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "one-port")) << report.summary();
  // A send lasting 0.001 where t = 1, in the same schedule.
  wide.transfers[1] = {0, 2, 1, 1.001, Payload::broadcast_value};
  wide.transfers[2] = {1, 3, 1, 2, Payload::broadcast_value};
  report = verify(big, wide);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "lasts 0.0009")) << report.summary();
  // Sends starting at -500.
  wide.transfers[1] = {0, 2, -500, -499, Payload::broadcast_value};
  report = verify(big, wide);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "before time 0")) << report.summary();
  // Repaired, the plan is valid: the checks are not simply stricter.
  wide.transfers[1] = {0, 2, 1, 2, Payload::broadcast_value};
  wide.transfers[2] = {1, 3, 1, 2, Payload::broadcast_value};
  EXPECT_TRUE(verify(big, wide).valid) << verify(big, wide).summary();
}

TEST(VerifyClaims, OptimalNeedsTheBoundToMeetTheMakespan) {
  auto plan = plan_broadcast_fnf(kCluster, 0);
  ASSERT_TRUE(verify(kCluster, plan).valid);
  plan.optimal = true;
  plan.lower_bound = plan.makespan * 0.75;
  auto report = verify(kCluster, plan);
  EXPECT_FALSE(report.valid);
  EXPECT_TRUE(mentions(report, "claims to be optimal")) << report.summary();
  plan.lower_bound = plan.makespan;
  EXPECT_TRUE(verify(kCluster, plan).valid) << verify(kCluster, plan).summary();
  // An exact guarantee is a claim of optimality.
  plan.optimal = false;
  plan.guarantee = Guarantee::exact();
  EXPECT_TRUE(mentions(verify(kCluster, plan), "guarantee is exact"));
  plan.guarantee = Guarantee::at_most(0.5);
  EXPECT_TRUE(mentions(verify(kCluster, plan), "ratio guarantee"));
}

TEST(VerifyClaims, NonFiniteNumbersAreRejected) {
  for (double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    auto plan = plan_reduce_snf(kCluster, 2);
    plan.makespan = bad;
    EXPECT_TRUE(mentions(verify(kCluster, plan), "makespan must be a finite number"));
    plan = plan_reduce_snf(kCluster, 2);
    plan.lower_bound = bad;
    EXPECT_TRUE(mentions(verify(kCluster, plan), "lower bound must be a finite number"));
    plan = plan_reduce_snf(kCluster, 2);
    plan.transfers.front().end = bad;
    EXPECT_TRUE(mentions(verify(kCluster, plan), "must be finite"));
  }
}

TEST(VerifyClaims, MulticastMakespanIsTheLastTargetArrival) {
  // A correct plan whose helper receives a useless message after the last
  // target: its makespan is the last target's arrival (2), not 3.
  Cluster cluster = Cluster::from_times({1, 1, 1, 1});
  MakespanPlan plan;
  plan.operation = Operation::multicast;
  plan.root = 0;
  plan.targets = {1, 2};
  plan.transfers = {{0, 1, 0, 1, Payload::broadcast_value},
                    {0, 2, 1, 2, Payload::broadcast_value},
                    {1, 3, 2, 3, Payload::broadcast_value}};
  plan.makespan = 2;
  EXPECT_TRUE(verify(cluster, plan).valid) << verify(cluster, plan).summary();
  plan.makespan = 3;
  EXPECT_TRUE(mentions(verify(cluster, plan), "completes at 2"));
  // Without targets there is nothing to check completeness against.
  plan.makespan = 2;
  plan.targets.clear();
  EXPECT_TRUE(mentions(verify(cluster, plan), "lists no targets"));
}

// Every single-number mutation of a planner's plan is caught: a transfer's
// start or end moved by a relative 1e-6 or more, the claimed makespan, a
// bound above the makespan, optimal claimed with a lower bound.
TEST(VerifyMutations, EverySingleNumberMutationIsRejected) {
  std::mt19937_64 rng(7);
  int mutations = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 10);
    std::vector<double> times;
    for (int p = 0; p < n; ++p) times.push_back(0.5 * static_cast<double>(1 + rng() % 6) * (trial % 3 == 0 ? 1e-6 : 1.0));
    Cluster cluster = Cluster::from_times(times);
    const auto root = static_cast<ProcessorIndex>(rng() % static_cast<unsigned>(n));
    std::vector<MakespanPlan> plans{plan_broadcast_fnf(cluster, root), plan_reduce_snf(cluster, root),
                                    plan_allreduce_snf_fnf(cluster, root)};
    for (const MakespanPlan& plan : plans) {
      ASSERT_TRUE(verify(cluster, plan).valid) << verify(cluster, plan).summary();
      const double scale = std::max(plan.makespan, cluster.fastest_time());
      for (const double delta : {1e-6, -1e-6, 0.3, -0.3}) {
        // One transfer's start, or its end.
        MakespanPlan mutated = plan;
        auto& t = mutated.transfers[rng() % mutated.transfers.size()];
        (rng() % 2 ? t.start : t.end) += delta * scale;
        EXPECT_FALSE(verify(cluster, mutated).valid) << "transfer time moved by " << delta;
        // The claimed makespan.
        mutated = plan;
        mutated.makespan += delta * scale;
        EXPECT_FALSE(verify(cluster, mutated).valid) << "makespan moved by " << delta;
        mutations += 2;
      }
      MakespanPlan mutated = plan;
      mutated.lower_bound = plan.makespan * (1 + 1e-6);
      EXPECT_FALSE(verify(cluster, mutated).valid) << "bound above the makespan";
      if (plan.lower_bound < plan.makespan * (1 - 1e-6)) {
        mutated = plan;
        mutated.optimal = true;
        EXPECT_FALSE(verify(cluster, mutated).valid) << "optimal with a smaller bound";
        ++mutations;
      }
      mutations += 1;
      // What the plan states about the platform, and its payloads.
      mutated = plan;
      mutated.stated_processors = n + 1;
      EXPECT_FALSE(verify(cluster, mutated).valid) << "processors";
      mutated = plan;
      mutated.stated_time_unit = "ms";
      EXPECT_FALSE(verify(cluster, mutated).valid) << "time unit";
      mutated = plan;
      mutated.model = PlanModel::platform_graph;
      EXPECT_FALSE(verify(cluster, mutated).valid) << "model";
      mutations += 3;
      if (plan.operation != Operation::allreduce) {
        mutated = plan;
        auto& payload = mutated.transfers[rng() % mutated.transfers.size()].payload;
        payload = payload == Payload::partial_reduction ? Payload::broadcast_value : Payload::partial_reduction;
        EXPECT_FALSE(verify(cluster, mutated).valid) << "payload";
        ++mutations;
      }
    }
    // A bound between the optimum and a heuristic's makespan is a lie the
    // exact re-search exposes; the optimum itself is proven.
    const MakespanPlan best_broadcast = plan_broadcast_optimal(cluster, root);
    const MakespanPlan best_reduce = plan_reduce_optimal(cluster, root);
    for (std::size_t k = 0; k < 2; ++k) {
      const MakespanPlan& heuristic = plans[k];
      const double optimum = (k == 0 ? best_broadcast : best_reduce).makespan;
      MakespanPlan claimed = heuristic;
      claimed.lower_bound = optimum;
      claimed.optimal = optimum >= heuristic.makespan;
      if (claimed.optimal) claimed.guarantee = Guarantee::exact();
      EXPECT_TRUE(verify(cluster, claimed).valid) << "the optimum as the bound: " << verify(cluster, claimed).summary();
      if (heuristic.makespan > optimum * (1 + 1e-6)) {
        claimed.lower_bound = heuristic.makespan;
        claimed.optimal = true;
        claimed.guarantee = Guarantee::exact();
        EXPECT_FALSE(verify(cluster, claimed).valid) << "optimal claimed above the optimum " << optimum;
        claimed.lower_bound = 0.5 * (optimum + heuristic.makespan);
        claimed.optimal = false;
        claimed.guarantee = heuristic.guarantee;
        EXPECT_FALSE(verify(cluster, claimed).valid) << "bound above the optimum " << optimum;
        mutations += 2;
      }
    }
  }
  RecordProperty("mutations", mutations);
  std::printf("VerifyMutations: %d mutations, all rejected unless a failure is listed above\n", mutations);
}

}  // namespace
}  // namespace hetcoll
