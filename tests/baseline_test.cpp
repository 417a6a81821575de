// The MPI baselines in the sender-speed model: binomial trees must be valid
// plans and coincide with FNF/SNF on homogeneous power-of-two clusters;
// recursive doubling must be a valid exchange all-reduce whose every
// processor ends with each contribution exactly once (replayed here with
// counts, independently of verify's contribution sets), with the makespan
// of its closed form on homogeneous clusters; and verify must reject
// exchange plans that count a contribution twice, lose one or stop short.
#include <gtest/gtest.h>

#include <random>

#include "hetcoll/makespan/sender_speed/allreduce/recursive_doubling.h"
#include "hetcoll/makespan/sender_speed/broadcast/binomial.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/reduce/binomial.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/sim/makespan_simulation.h"
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

// Replays an exchange plan with contribution counts (how many times each
// processor's value is in each processor's partial result), messages in
// time order: sends read their sender's counts at their start, receives add
// ("partial") or overwrite ("value") at their end. Returns the counts.
std::vector<std::vector<int>> replay_counts(ProcessorIndex n, const MakespanPlan& plan) {
  std::vector<std::vector<int>> counts(static_cast<size_t>(n), std::vector<int>(static_cast<size_t>(n), 0));
  for (ProcessorIndex p = 0; p < n; ++p) counts[static_cast<size_t>(p)][static_cast<size_t>(p)] = 1;
  struct Event {
    double time;
    int kind;  // 0 receive, 1 send: receives that end when a send starts come first
    std::size_t transfer;
  };
  std::vector<Event> events;
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    events.push_back({plan.transfers[i].start, 1, i});
    events.push_back({plan.transfers[i].end, 0, i});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.time != b.time ? a.time < b.time : a.kind < b.kind;
  });
  std::vector<std::vector<int>> carried(plan.transfers.size());
  for (const auto& event : events) {
    const auto& t = plan.transfers[event.transfer];
    if (event.kind == 1) {
      carried[event.transfer] = counts[static_cast<size_t>(t.from)];
      continue;
    }
    auto& own = counts[static_cast<size_t>(t.to)];
    for (size_t q = 0; q < own.size(); ++q) {
      own[q] = t.payload == Payload::partial_reduction ? own[q] + carried[event.transfer][q]
                                                        : carried[event.transfer][q];
    }
  }
  return counts;
}

TEST(RecursiveDoubling, EveryProcessorEndsWithEachContributionOnce) {
  std::mt19937_64 rng(321);
  for (int trial = 0; trial < 400; ++trial) {
    const int n = std::uniform_int_distribution<int>(1, 70)(rng);
    Cluster cluster = testing::random_cluster(rng, n, trial % 4);
    const ProcessorIndex first_rank = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);
    MakespanPlan plan = plan_allreduce_recursive_doubling(cluster, first_rank);
    auto report = verify(cluster, plan);
    ASSERT_TRUE(report.valid) << "n = " << n << ": " << report.summary();
    if (n > 1) { EXPECT_EQ(plan.transfers.front().from, first_rank); }  // rank 0 sends first (fold or exchange)
    int power = 1, rounds = 0;
    while (power * 2 <= n) power *= 2, ++rounds;
    EXPECT_EQ(plan.transfers.size(), static_cast<size_t>(2 * (n - power) + power * rounds));
    for (const auto& held : replay_counts(cluster.size(), plan)) {
      ASSERT_EQ(held, std::vector<int>(static_cast<size_t>(n), 1)) << "n = " << n;
    }
    // The event simulator executes the plan as planned.
    EXPECT_NEAR(simulate(cluster, plan, {}).makespan, plan.makespan, 1e-9 * plan.makespan);
    EXPECT_LE(plan.lower_bound, plan.makespan);
  }
}

TEST(RecursiveDoubling, HomogeneousClosedForm) {
  // Every exchange round costs two messages in turn (one-port); a
  // non-power-of-two count adds the fold and the unfold message.
  for (int n = 1; n <= 40; ++n) {
    Cluster cluster = Cluster::from_times(std::vector<double>(static_cast<size_t>(n), 2.0));
    int power = 1, rounds = 0;
    while (power * 2 <= n) power *= 2, ++rounds;
    const double expected = 2.0 * 2 * rounds + (power < n ? 2.0 * 2 : 0.0);
    EXPECT_DOUBLE_EQ(plan_allreduce_recursive_doubling(cluster).makespan, expected) << "n = " << n;
  }
}

TEST(RecursiveDoubling, WaitsForTheSlowerPartner) {
  // Ranks 0,1 exchange (1 + 5), ranks 2,3 (1 + 1); then 0,2 and 1,3 meet at 6.
  Cluster cluster = Cluster::from_times({1, 5, 1, 1});
  MakespanPlan plan = plan_allreduce_recursive_doubling(cluster);
  EXPECT_DOUBLE_EQ(plan.makespan, 6.0 + 5 + 1);
  EXPECT_TRUE(verify(cluster, plan).valid);
}

TEST(RecursiveDoubling, VerifyRejectsBrokenExchanges) {
  Cluster cluster = Cluster::from_times({1, 2, 1, 3, 2, 1});
  const MakespanPlan plan = plan_allreduce_recursive_doubling(cluster);
  ASSERT_TRUE(verify(cluster, plan).valid);
  auto violations_of = [&](const MakespanPlan& broken) {
    auto report = verify(cluster, broken);
    EXPECT_FALSE(report.valid);
    return report.summary();
  };
  // The pair's reply combined instead of taken: the first sender's own value counts twice.
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    if (plan.transfers[i].payload != Payload::broadcast_value || i + 1 == plan.transfers.size()) continue;
    MakespanPlan twice = plan;
    twice.transfers[i].payload = Payload::partial_reduction;
    EXPECT_NE(violations_of(twice).find("would count twice"), std::string::npos);
    break;
  }
  // The last message (rank 3 gives folded rank 2 the result) dropped: rank 2 stops short.
  MakespanPlan short_of_one = plan;
  short_of_one.transfers.pop_back();
  short_of_one.makespan = last_completion(short_of_one.transfers);
  EXPECT_NE(violations_of(short_of_one).find("ends holding"), std::string::npos);
  // A reply that leaves before the partial it answers arrives lacks the receiver's own value.
  MakespanPlan early = plan;
  for (std::size_t i = 0; i + 1 < early.transfers.size(); ++i) {
    auto& first = early.transfers[i];
    auto& reply = early.transfers[i + 1];
    if (first.payload == Payload::partial_reduction && reply.payload == Payload::broadcast_value &&
        reply.to == first.from) {
      const double length = reply.end - reply.start;
      // Swap the two messages in time: the reply now goes first.
      reply.start = first.start;
      reply.end = reply.start + length;
      const double first_length = first.end - first.start;
      first.start = reply.end;
      first.end = first.start + first_length;
      break;
    }
  }
  EXPECT_NE(violations_of(early).find("would be lost"), std::string::npos);
}

}  // namespace
}  // namespace hetcoll
