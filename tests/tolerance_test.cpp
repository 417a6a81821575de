// The tolerance rule of core/ids.h, property by property (issue 7): decimal
// noise does not flip decisions, rescaling every time by 1e-6 or 1e6 gives
// the same tree and the scaled makespan, near-ties are ties, extreme ratios
// keep every claim true, and theorem claims say when they hold only up to
// the tolerance. Over every registered sender-speed algorithm.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <tuple>
#include <vector>

#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/makespan/sender_speed/theorems.h"
#include "hetcoll/verify/verify.h"
#include "support/test_support.h"
#include "support/brute_force.h"

namespace hetcoll {
namespace {

// Who sends to whom (with the payload): the tree, without the times.
std::vector<std::tuple<ProcessorIndex, ProcessorIndex, int>> shape(const MakespanPlan& plan) {
  std::vector<std::tuple<ProcessorIndex, ProcessorIndex, int>> edges;
  for (const auto& t : plan.transfers) edges.push_back({t.from, t.to, static_cast<int>(t.payload)});
  std::sort(edges.begin(), edges.end());
  return edges;
}

MakespanRequest request_for(const MakespanAlgorithm& algorithm, ProcessorIndex n, std::mt19937_64& rng) {
  return testing::random_request(algorithm.operation, n, rng);
}

std::vector<double> scaled(std::vector<double> times, double factor) {
  for (double& t : times) t *= factor;
  return times;
}

// Every time x 1e-6 and x 1e6 (and decimal times against the same
// integers x 10): the same tree, the makespan scaled, the same claims.
TEST(ToleranceRule, RescalingGivesTheSameTreeForEveryAlgorithm) {
  std::mt19937_64 rng(99);
  int compared = 0;
  for (const auto& algorithm : makespan_algorithms()) {
    if (algorithm.model != CommunicationModel::sender_speed) continue;
    for (int trial = 0; trial < 12; ++trial) {
      const ProcessorIndex n = 2 + static_cast<ProcessorIndex>(rng() % 9);
      // Decimal times: 0.1 .. 0.9, the noisy ones (0.1 + 0.2 != 0.3).
      std::vector<double> tenths;
      for (ProcessorIndex p = 0; p < n; ++p) tenths.push_back(0.1 * static_cast<double>(1 + rng() % 9));
      const MakespanRequest request = request_for(algorithm, n, rng);
      std::vector<double> integers;
      for (double t : tenths) integers.push_back(std::round(t * 10));
      const MakespanPlan reference = plan_makespan(Cluster::from_times(integers), request, algorithm.name);
      for (const auto& [times, factor] : std::vector<std::pair<std::vector<double>, double>>{
               {tenths, 10.0}, {scaled(integers, 1e-6), 1e6}, {scaled(integers, 1e6), 1e-6},
               {scaled(tenths, 1e-6), 1e7}}) {
        const Cluster cluster = Cluster::from_times(times);
        const MakespanPlan plan = plan_makespan(cluster, request, algorithm.name);
        const std::string context = fmt::format("{} {} times {}: ", to_string(algorithm.operation), algorithm.name,
                                                fmt::join(times, ","));
        ASSERT_TRUE(verify(cluster, plan).valid) << context << verify(cluster, plan).summary();
        EXPECT_EQ(shape(plan), shape(reference)) << context << "a different tree";
        EXPECT_NEAR(plan.makespan * factor, reference.makespan, 1e-9 * reference.makespan) << context;
        EXPECT_EQ(plan.optimal, reference.optimal) << context;
        EXPECT_EQ(plan.guarantee.kind, reference.guarantee.kind) << context;
        ++compared;
      }
    }
  }
  RecordProperty("compared", compared);
}

// 1 and 1 + 1e-10 are the same time: the same plans as with all ones.
TEST(ToleranceRule, NearTiesAreTies) {
  for (const auto& algorithm : makespan_algorithms()) {
    if (algorithm.model != CommunicationModel::sender_speed || algorithm.operation == Operation::multicast) continue;
    const std::vector<double> exact{1, 1, 2, 1, 2, 2, 1};
    std::vector<double> noisy = exact;
    for (size_t i = 0; i < noisy.size(); i += 2) noisy[i] += 1e-10 * noisy[i];
    std::mt19937_64 rng(1);
    const MakespanRequest request = request_for(algorithm, 7, rng);
    const MakespanPlan a = plan_makespan(Cluster::from_times(exact), request, algorithm.name);
    const MakespanPlan b = plan_makespan(Cluster::from_times(noisy), request, algorithm.name);
    EXPECT_EQ(shape(a), shape(b)) << algorithm.name;
    // The same decisions, so the same makespan up to the noise (at most 7
    // sends of 2e-10 each). A claim may be lost, never gained: a search or
    // DP over classes that merged different times lowers its bound by the
    // merge (docs/ALGORITHMS.md), so it may no longer meet the makespan.
    EXPECT_NEAR(b.makespan, a.makespan, 7 * 2e-10 + 1e-9) << algorithm.name;
    if (b.optimal) { EXPECT_TRUE(a.optimal) << algorithm.name; }
    if (b.optimal && a.optimal) { EXPECT_NEAR(b.lower_bound, a.lower_bound, 7 * 2e-10 + 1e-9) << algorithm.name; }
    if (algorithm.guarantee.kind == Guarantee::Kind::exact && a.optimal && !b.optimal) {
      ASSERT_EQ(b.guarantee.kind, Guarantee::Kind::ratio) << algorithm.name;
      EXPECT_LE(b.guarantee.ratio, 1 + 1e-8) << algorithm.name << ": the lost claim costs at most the noise";
    }
    EXPECT_TRUE(verify(Cluster::from_times(noisy), b).valid) << algorithm.name;
  }
}

// The optimum of the request by brute force (no tolerance anywhere).
double brute_force_optimum(const Cluster& cluster, const MakespanRequest& request) {
  switch (request.operation) {
    case Operation::broadcast: return testing::broadcast_by_sequences(cluster, request.root);
    case Operation::multicast: return testing::multicast_by_helper_sets(cluster, request.root, request.targets);
    case Operation::reduce: return testing::reduce_by_ep_orders(cluster, request.root);
    case Operation::allreduce: return testing::allreduce_by_compositions(cluster);
    default: ADD_FAILURE() << "no brute force for " << to_string(request.operation); return 0;
  }
}

// The plan's bound, makespan, optimality and ratio claims against the
// optimum, each within `slack`.
void expect_claims_hold(const MakespanPlan& plan, double optimum, double slack, const std::string& context) {
  EXPECT_LE(plan.lower_bound, optimum + slack) << context;
  EXPECT_GE(plan.makespan, optimum - slack) << context;
  if (plan.optimal) { EXPECT_NEAR(plan.makespan, optimum, slack) << context << plan.optimality_proof; }
  if (plan.guarantee.kind == Guarantee::Kind::ratio) {
    EXPECT_LE(plan.makespan, plan.guarantee.ratio * optimum + slack) << context;
  }
}

// 1e-9 next to 1: valid plans, and every claim holds against brute force.
TEST(ToleranceRule, ExtremeRatiosKeepEveryClaimTrue) {
  std::mt19937_64 rng(5);
  for (const auto& algorithm : makespan_algorithms()) {
    if (algorithm.model != CommunicationModel::sender_speed) continue;
    for (int trial = 0; trial < 10; ++trial) {
      const ProcessorIndex n = 2 + static_cast<ProcessorIndex>(rng() % 6);
      std::vector<double> times;
      for (ProcessorIndex p = 0; p < n; ++p) {
        times.push_back(rng() % 2 ? 1e-9 * static_cast<double>(1 + rng() % 3) : 0.5 * static_cast<double>(1 + rng() % 3));
      }
      const Cluster cluster = Cluster::from_times(times);
      const MakespanRequest request = request_for(algorithm, n, rng);
      const MakespanPlan plan = plan_makespan(cluster, request, algorithm.name);
      const std::string context = fmt::format("{} {} times {}: ", to_string(algorithm.operation), algorithm.name,
                                              fmt::join(times, ","));
      ASSERT_TRUE(verify(cluster, plan).valid) << context << verify(cluster, plan).summary();
      const double optimum = brute_force_optimum(cluster, request);
      // The rule (core/ids.h): equal within 1e-9 of the larger value.
      const double slack = 1.000001e-9 * std::max(optimum, plan.makespan) + cluster.tolerance() * n;
      expect_claims_hold(plan, optimum, slack, context);
    }
  }
}

// Every sender-speed algorithm on `trials` random clusters per row whose
// times are 1, 2 or 3 x 10^d for d in [lowest_decade, highest_decade]: the
// plan is valid, its claims hold against brute force, and a finished exact
// search is the optimum up to the rule.
void expect_claims_hold_over_decades(std::uint64_t seed, int trials, int lowest_decade, int highest_decade) {
  std::mt19937_64 rng(seed);
  for (const auto& algorithm : makespan_algorithms()) {
    if (algorithm.model != CommunicationModel::sender_speed) continue;
    for (int trial = 0; trial < trials; ++trial) {
      const ProcessorIndex n = 2 + static_cast<ProcessorIndex>(rng() % 6);
      std::vector<double> times;
      for (ProcessorIndex p = 0; p < n; ++p) {
        const int decade = lowest_decade + static_cast<int>(rng() % static_cast<unsigned>(highest_decade - lowest_decade + 1));
        times.push_back(static_cast<double>(1 + rng() % 3) * std::pow(10.0, decade));
      }
      const Cluster cluster = Cluster::from_times(times);
      MakespanRequest request = request_for(algorithm, n, rng);
      request.limits.node_limit = 2000000;  // a finished search on 7 processors; a stopped one claims nothing
      const MakespanPlan plan = plan_makespan(cluster, request, algorithm.name);
      const std::string context = fmt::format("{} {} times {} root {} targets {}: ", to_string(algorithm.operation),
                                              algorithm.name, fmt::join(times, ","), request.root,
                                              fmt::join(request.targets, ","));
      const auto report = verify(cluster, plan);
      EXPECT_TRUE(report.valid) << context << report.summary();
      if (!report.valid) continue;
      const double optimum = brute_force_optimum(cluster, request);
      const double slack = 1.000001e-9 * std::max(optimum, plan.makespan);
      expect_claims_hold(plan, optimum, slack, context);
      if (algorithm.name == "optimal" && plan.status == SearchStatus::finished) {
        EXPECT_TRUE(plan.optimal) << context;
        EXPECT_NEAR(plan.makespan, optimum, slack) << context;
      }
    }
  }
}

// Times spanning 1e-9 .. 1e9 (18 decades; ties among equal mantissas of a
// decade): every algorithm's plan is valid, and its bound, optimality and
// ratio claims hold against a brute force that compares nothing with a
// tolerance. The exact searches prune and stop on the relative rule, so the
// rounding of sums of 1e9-sized times never passes for a difference.
TEST(ToleranceRule, TimesSpanningEighteenDecadesKeepEveryClaimTrue) { expect_claims_hold_over_decades(24, 12, -9, 9); }

// Times spanning 1e-20 .. 1e20 (40 decades, ties among equal mantissas of
// a decade): every algorithm's plan is valid and its claims hold against
// brute force; a finished exact search is the optimum up to the rule. Here
// the exact broadcast search once counted holder slots by stepping a 1e-20
// period towards 1e-3 (a hang), its fluid bound rounded 2e-5 above the
// optimum (t log(w1 / w0) with t = 2e11), and runs of the exact multicast
// that each beat the last by less than a tie lost the optimum.
TEST(ToleranceRule, TimesSpanningFortyDecadesKeepEveryClaimTrue) { expect_claims_hold_over_decades(2024, 200, -20, 20); }

// The instances of the test above that failed, each on its own: a bounded
// run, a bound at most the optimum, the optimum claimed.
TEST(ToleranceRule, ExactSearchesOnFortyDecadesStopAndClaimTheOptimum) {
  struct Case {
    Operation operation;
    std::vector<double> times;
    ProcessorIndex root;
    std::vector<ProcessorIndex> targets;
  };
  for (const Case& c : std::vector<Case>{
           {Operation::broadcast, {3e7, 2e11, 2e9, 2e-4, 3e6, 1e-3}, 5, {}},
           {Operation::multicast, {2e19, 1e-5, 2e-8, 1e4, 3e-3, 3e18}, 3, {0, 1, 5}},
           {Operation::multicast, {0.1, 1e6, 2e4, 100, 0.1, 1e-18, 1e-10}, 3, {0, 1, 2, 4, 6}},
           {Operation::broadcast, {1e-20, 1e20, 1e-20, 3e19, 2e-20, 1}, 1, {}}}) {
    const Cluster cluster = Cluster::from_times(c.times);
    MakespanRequest request;
    request.operation = c.operation;
    request.root = c.root;
    request.targets = c.targets;
    request.limits.time_limit_seconds = 20;
    const MakespanPlan plan = plan_makespan(cluster, request, "optimal");
    const std::string context = fmt::format("{} times {}: ", to_string(c.operation), fmt::join(c.times, ","));
    ASSERT_TRUE(verify(cluster, plan).valid) << context << verify(cluster, plan).summary();
    EXPECT_EQ(plan.status, SearchStatus::finished) << context;
    const double optimum = brute_force_optimum(cluster, request);
    const double slack = 1.000001e-9 * std::max(optimum, plan.makespan);
    expect_claims_hold(plan, optimum, slack, context);
    EXPECT_TRUE(plan.optimal) << context;
  }
}

TEST(ToleranceRule, TheRuleItself) {
  // The floor tau = 1e-9 t_min; above it, 1e-9 of the larger value compared.
  EXPECT_DOUBLE_EQ(Cluster::from_times({2, 3}).tolerance(), 2e-9);
  EXPECT_DOUBLE_EQ(Cluster::from_times({2e-6, 3e-6}).tolerance(), 2e-15);
  EXPECT_DOUBLE_EQ(Cluster::from_times({1e-9, 1}).tolerance(), 1e-18);
  EXPECT_TRUE(time_equal(1e20, 1e20 + 1e10, 1e-18));    // 1e-10 of the values
  EXPECT_FALSE(time_equal(1e20, 1e20 + 1e12, 1e-18));   // 1e-8 of the values
  EXPECT_EQ(Cluster::from_times({1, 1 + 1e-10, 2}).distinct_times().size(), 2u);
  EXPECT_EQ(Cluster::from_times({1, 1 + 1e-8, 2}).distinct_times().size(), 3u);
}

// Theorem hypotheses: exact, only up to the tolerance (said in the proof),
// or not at all.
TEST(ToleranceRule, TheoremClaimsSayWhenTheyHoldOnlyUpToTheTolerance) {
  const double tau = 1e-9;
  auto chain = is_divisibility_chain({1, 2, 4}, tau);
  EXPECT_TRUE(chain.holds && chain.exact);
  chain = is_divisibility_chain({1, 2 + 5e-10}, tau);
  EXPECT_TRUE(chain.holds);
  EXPECT_FALSE(chain.exact);
  EXPECT_FALSE(chain.caveat().empty());
  // Issue 7's example: 2.000000001 is outside the tolerance of 1 (a
  // multiple is accepted within 1e-9 of the faster time, not of the slower).
  EXPECT_FALSE(is_divisibility_chain({1, 2.000000001}, tau).holds);
  // 3e10 + 1 is not "a multiple of 3" because 1 is below a billionth of
  // 3e10 (issue 24: relative to the slower time, 1e20 is near a multiple of
  // anything); the slack is a billionth of 3.
  EXPECT_FALSE(is_divisibility_chain({3, 3e10 + 1}, tau).holds);
  EXPECT_TRUE(is_divisibility_chain({3, 3e10}, tau).exact);
  EXPECT_FALSE(is_power_of_two_cluster({1, 1099511627776.0 + 100}, tau).holds);  // 2^40 + 100
  // Decimal doubles: 0.3 is not exactly 3 x 0.1.
  chain = is_divisibility_chain({0.1, 0.3}, 1e-10);
  EXPECT_TRUE(chain.holds);
  EXPECT_FALSE(chain.exact);
  EXPECT_TRUE(has_two_classes_with_ratio_at_least({1, 2, 2}, 2.0, tau).exact);
  EXPECT_FALSE(has_two_classes_with_ratio_at_least({1, 1.9}, 2.0, tau).holds);

  // In the plans: exact hypotheses claim without a caveat, near ones with it.
  MakespanPlan plan = plan_broadcast_fnf(Cluster::from_times({1, 2, 2, 4, 4, 4}), 0);
  EXPECT_TRUE(plan.optimal);
  EXPECT_EQ(plan.optimality_proof.find("up to the tolerance"), std::string::npos) << plan.optimality_proof;
  // (Classes tie within 1e-9 of the times compared: 4 + 5e-10 joins 4.)
  plan = plan_broadcast_fnf(Cluster::from_times({1, 2 + 5e-10, 2, 4, 4, 4 + 5e-10}), 0);
  EXPECT_NE(plan.optimality_proof.find("up to the tolerance"), std::string::npos) << plan.optimality_proof;
  plan = plan_reduce_snf(Cluster::from_times({1, 1, 2, 2 + 5e-10, 1}), 0);
  EXPECT_NE(plan.optimality_proof.find("up to the tolerance"), std::string::npos) << plan.optimality_proof;
}

}  // namespace
}  // namespace hetcoll

namespace hetcoll {
namespace {

// Issue 24: with the old rule (1e-9 x max(t_min, 1e-4 t_max)), the times
// 1e-20, 1e20, 1, 3 gave tau = 1e7, so 1e-20, 1 and 3 were "equal" and the
// planner claimed a false optimum. Two values 1e19 apart (or any two values
// more than 1e-9 of the larger apart) are never equal, whatever else the
// instance holds.
TEST(ToleranceRule, ValuesFarApartAreNeverEqual) {
  const Cluster extreme = Cluster::from_times({1e-20, 1e20, 1, 3});
  const double tau = extreme.tolerance();
  EXPECT_FALSE(time_equal(1, 1e19, tau));
  EXPECT_FALSE(time_equal(1e-20, 1, tau));
  EXPECT_FALSE(time_equal(1, 3, tau));
  EXPECT_FALSE(time_equal(1e-20, 3e-20, tau));
  EXPECT_FALSE(time_leq(3, 1, tau));
  EXPECT_TRUE(time_less(1, 3, tau));
  EXPECT_TRUE(time_equal(1e20, 1e20 * (1 + 1e-12), tau));  // rounding noise of large sums still ties
  EXPECT_EQ(extreme.distinct_times().size(), 4u);
  for (double huge : {1e10, 1e20, 1e300}) {
    for (double small : {1e-300, 1e-20, 1.0}) {
      EXPECT_FALSE(time_equal(small, small * 1e19, time_tolerance(small, huge))) << small << " " << huge;
    }
  }
}

// Every broadcast algorithm on the extreme times: a valid plan in which no
// processor sends before it has received, and an optimal claim only when
// the makespan is the brute-force optimum.
TEST(ToleranceRule, ExtremeTimesGetTrueClaimsOnly) {
  for (const std::vector<double>& times : std::vector<std::vector<double>>{
           {1e-20, 1e20, 1, 3}, {1e-20, 1, 3}, {1e20, 1e-20, 3, 1}, {1e-20, 1e20, 1, 3, 1e-20, 2}}) {
    const Cluster cluster = Cluster::from_times(times);
    for (const auto& algorithm : makespan_algorithms()) {
      if (algorithm.model != CommunicationModel::sender_speed || algorithm.operation != Operation::broadcast) continue;
      MakespanRequest request;
      request.operation = Operation::broadcast;
      request.root = 0;
      const MakespanPlan plan = plan_makespan(cluster, request, algorithm.name);
      const std::string context = fmt::format("{} times {}: ", algorithm.name, fmt::join(times, ","));
      ASSERT_TRUE(verify(cluster, plan).valid) << context << verify(cluster, plan).summary();
      std::vector<double> received(times.size(), std::numeric_limits<double>::infinity());
      received[0] = 0;
      for (const auto& t : plan.transfers) received[static_cast<size_t>(t.to)] = std::min(received[static_cast<size_t>(t.to)], t.end);
      for (const auto& t : plan.transfers) {
        EXPECT_GE(t.start, received[static_cast<size_t>(t.from)])
            << context << "p" << t.from << " sends at " << t.start << " before it receives";
      }
      const double optimum = testing::broadcast_by_sequences(cluster, 0);
      EXPECT_GE(plan.makespan, optimum * (1 - 1e-12)) << context;
      EXPECT_LE(plan.lower_bound, optimum * (1 + 1e-12)) << context << "a lower bound above the optimum";
      if (plan.optimal) {
        EXPECT_NEAR(plan.makespan, optimum, 1e-9 * optimum) << context << "a false optimal claim: "
                                                            << plan.optimality_proof;
      }
    }
  }
}

}  // namespace
}  // namespace hetcoll
