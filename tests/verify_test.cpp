// The verifier must reject every kind of broken plan: these tests break
// valid plans one way at a time and check that verify() names the problem.
#include <gtest/gtest.h>

#include "hetcoll/makespan/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/broadcast/fnf.h"
#include "hetcoll/makespan/reduce/snf.h"
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

}  // namespace
}  // namespace hetcoll
