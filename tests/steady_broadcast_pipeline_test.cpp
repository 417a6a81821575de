// The steady broadcast pipeline in one call (steady/broadcast/
// steady_broadcast.h): the optimum, the packing and the schedule agree with
// the parts run by hand and pass the verifier; stages stop where asked; the
// latency-aware choice sets the slice size; missing or superfluous sizes are
// refused by parameter name; the JSON and text reports (report/) show the
// verdict.
#include <sstream>

#include <gtest/gtest.h>

#include "hetcoll/core/error.h"
#include "hetcoll/gen/tiers_platform.h"
#include "hetcoll/report/steady_broadcast_json.h"
#include "hetcoll/report/steady_broadcast_text.h"
#include "hetcoll/steady/broadcast/steady_broadcast.h"
#include "hetcoll/steady/steady_planner.h"

namespace hetcoll {
namespace {

// The complete graph of three hosts, c(i, j) = t(i) for t = 1, 2, 3.
Platform three_hosts() {
  std::vector<PlatformNode> nodes{PlatformNode::host("p0"), PlatformNode::host("p1"), PlatformNode::host("p2")};
  std::vector<PlatformEdge> edges;
  for (ProcessorIndex i = 0; i < 3; ++i) {
    for (ProcessorIndex j = 0; j < 3; ++j) {
      if (i != j) edges.push_back(PlatformEdge::with_cost(i, j, static_cast<double>(i + 1)));
    }
  }
  return Platform(std::move(nodes), std::move(edges), "three hosts");
}

Platform tiers(int nodes, std::uint64_t seed, bool latency) {
  auto options = tiers_preset(nodes);
  options.seed = seed;
  if (latency) {
    options.wan_latency = 1e-3;
    options.man_latency = 1e-4;
    options.lan_latency = 1e-5;
  }
  return generate_tiers_platform(options);
}

TEST(SteadyBroadcastPipeline, FixedCostsReachTheOptimumAndVerify) {
  const Platform platform = three_hosts();
  const auto result = plan_steady_broadcast(platform, 0);
  EXPECT_TRUE(result.valid()) << result.failure();
  EXPECT_EQ(to_string(result.optimum.throughput), "5/7");
  EXPECT_FALSE(result.slice_size);
  EXPECT_TRUE(result.packing.reaches_optimum);
  EXPECT_EQ(to_string(result.packing.total_weight), "5/7");
  EXPECT_TRUE(result.schedule_report.valid) << result.schedule_report.summary();
  EXPECT_TRUE(result.schedule_report.certificate_checked);
  EXPECT_TRUE(result.schedule.optimal());
  EXPECT_FALSE(result.latency_aware);
}

TEST(SteadyBroadcastPipeline, AgreesWithThePartsRunByHand) {
  const Platform platform = tiers(30, 3, false);
  SteadyBroadcastOptions options;
  options.slice_size = 1e6;
  const auto result = plan_steady_broadcast(platform, 0, options);
  ASSERT_TRUE(result.valid()) << result.failure();
  const auto times = platform.edge_costs(1e6);
  EXPECT_EQ(result.slice_times, times);
  const auto optimum = solve_ssb(platform, 0, times);
  EXPECT_EQ(result.optimum.throughput, optimum.throughput);
  EXPECT_EQ(result.optimum.edge_rates, optimum.edge_rates);
  EXPECT_EQ(result.packing.total_weight, optimum.throughput);
  EXPECT_EQ(result.schedule.throughput, optimum.throughput);
  EXPECT_EQ(result.schedule.message_size, std::optional<double>(1e6));
  EXPECT_FALSE(result.schedule.slots.empty());
}

// The practical schedule (Prop. 4): the period of practical_period, every
// weight rounded down to it, the loss within trees / period and within the
// fraction asked for, and the verifier's check of the rounded schedule.
TEST(SteadyBroadcastPipeline, PracticalScheduleRoundsToAShortPeriod) {
  const Platform platform = tiers(30, 3, true);
  SteadyBroadcastOptions exact_options;
  exact_options.slice_size = 1e6;
  const auto exact = plan_steady_broadcast(platform, 0, exact_options);
  ASSERT_TRUE(exact.valid()) << exact.failure();
  SteadyBroadcastOptions options = exact_options;
  options.practical_loss = 0.01;
  const auto practical = plan_steady_broadcast(platform, 0, options);
  ASSERT_TRUE(practical.valid()) << practical.failure();
  const PeriodicPlan& plan = practical.schedule;
  const BigInteger period = practical_period(exact.optimum.throughput, exact.packing.trees.size(), 0.01);
  ASSERT_GT(exact.schedule.period, period) << "the exact period is short: nothing to round";
  EXPECT_EQ(plan.period, period);
  ASSERT_TRUE(plan.exact_period);
  EXPECT_EQ(*plan.exact_period, exact.schedule.period);
  ASSERT_TRUE(plan.loss_bound);
  EXPECT_EQ(*plan.loss_bound, Rational(BigInteger(static_cast<unsigned long>(exact.packing.trees.size()))) /
                                  Rational(period));
  // Every weight rounded down to the period, independently of the planner.
  Rational rounded = 0;
  for (const auto& tree : exact.packing.trees) rounded += Rational(floor_of(tree.weight * Rational(period))) / Rational(period);
  EXPECT_EQ(plan.throughput, rounded);
  EXPECT_EQ(plan.throughput_bound, exact.optimum.throughput);
  const Rational lost = exact.optimum.throughput - plan.throughput;
  EXPECT_GE(lost, 0);
  EXPECT_LE(lost, *plan.loss_bound);
  EXPECT_LE(lost, Rational(1, 100) * exact.optimum.throughput);
  EXPECT_TRUE(practical.schedule_report.valid) << practical.schedule_report.summary();
  Rational slots = 0;
  for (const auto& slot : plan.slots) slots += slot.length;
  EXPECT_EQ(slots, Rational(period));
}

TEST(SteadyBroadcastPipeline, StagesStopWhereAsked) {
  const Platform platform = tiers(30, 4, false);
  SteadyBroadcastOptions options;
  options.slice_size = 1e6;
  options.stage = SteadyBroadcastStage::optimum;
  const auto lp_only = plan_steady_broadcast(platform, 0, options);
  EXPECT_TRUE(sgn(lp_only.optimum.throughput) > 0);
  EXPECT_TRUE(lp_only.packing.trees.empty());
  EXPECT_TRUE(lp_only.schedule.slots.empty());
  options.stage = SteadyBroadcastStage::packing;
  const auto packed = plan_steady_broadcast(platform, 0, options);
  EXPECT_TRUE(packed.packing.reaches_optimum);
  EXPECT_TRUE(packed.schedule.slots.empty());
  options.stage = SteadyBroadcastStage::schedule;
  const auto scheduled = plan_steady_broadcast(platform, 0, options);
  EXPECT_FALSE(scheduled.schedule.slots.empty());
  EXPECT_FALSE(scheduled.schedule_report.certificate_checked);  // not verified at this stage
  EXPECT_EQ(scheduled.optimum.throughput, lp_only.optimum.throughput);
}

TEST(SteadyBroadcastPipeline, MessageSizeChoosesTheSliceSize) {
  const Platform platform = tiers(30, 2, true);
  SteadyBroadcastOptions options;
  options.message_size = 1e8;
  const auto result = plan_steady_broadcast(platform, 0, options);
  ASSERT_TRUE(result.latency_aware);
  EXPECT_TRUE(result.valid()) << result.failure();
  ASSERT_TRUE(result.slice_size);
  EXPECT_EQ(*result.slice_size, result.latency_aware->packing_slice_size);
  EXPECT_EQ(result.optimum.throughput, result.latency_aware->optimum.throughput);
  EXPECT_EQ(result.packing.trees.size(), result.latency_aware->packing.trees.size());
  EXPECT_GT(result.latency_aware->chosen_makespan(), 0);
  std::ostringstream json;
  write_steady_broadcast_json(json, platform, result);
  EXPECT_NE(json.str().find("\"latency_aware\": {\"message_size\": 100000000"), std::string::npos) << json.str();
  EXPECT_NE(latency_aware_choice_text(*result.latency_aware).find("choice: "), std::string::npos);
}

TEST(SteadyBroadcastPipeline, RefusesMissingAndSuperfluousSizesByParameter) {
  try {
    plan_steady_broadcast(tiers(30, 1, true), 0);
    ADD_FAILURE() << "no slice size on a latency/bandwidth platform was accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.parameter(), "slice_size");
  }
  SteadyBroadcastOptions options;
  options.message_size = 1e6;
  try {
    plan_steady_broadcast(three_hosts(), 0, options);
    ADD_FAILURE() << "a message size on fixed costs was accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(error.parameter(), "message_size");
  }
}

TEST(SteadyBroadcastPipeline, ReportsShowTheVerdict) {
  const Platform platform = three_hosts();
  const auto result = plan_steady_broadcast(platform, 0);
  std::ostringstream json;
  write_steady_broadcast_json(json, platform, result);
  EXPECT_EQ(json.str().rfind("{\"operation\": \"broadcast\", \"algorithm\": \"ssb-lp\", \"source\": \"p0\", "
                             "\"slice_size\": null, \"throughput\": \"5/7\"",
                             0),
            0u)
      << json.str();
  EXPECT_NE(json.str().find("\"valid\": true"), std::string::npos);
  EXPECT_EQ(json.str().back(), '\n');
  SteadyBroadcastTextOptions text;
  text.detail_request = "DETAIL";
  text.json_request = "JSON";
  const std::string summary = steady_broadcast_summary(platform, result, text);
  EXPECT_NE(summary.find("throughput: 5/7 = 0.714286"), std::string::npos) << summary;
  EXPECT_NE(summary.find("max-flow under the edge rates: valid"), std::string::npos) << summary;
  EXPECT_NE(summary.find("(every tree's edges and every edge's rate: DETAIL, or JSON)"), std::string::npos) << summary;
  text.brief = true;
  EXPECT_EQ(steady_broadcast_summary(platform, result, text).find("busiest ports"), std::string::npos);
}

}  // namespace
}  // namespace hetcoll
