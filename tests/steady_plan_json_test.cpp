// Periodic plans survive a JSON round trip exactly; bad files are bad input.
#include <sstream>

#include <gtest/gtest.h>

#include "hetcoll/core/error.h"
#include "hetcoll/plan/periodic_plan_json.h"

namespace hetcoll {
namespace {

Platform triangle() {
  std::vector<PlatformNode> nodes = {{"A", 1.0, std::nullopt, false}, {"B", 1.0, std::nullopt, false},
                                     {"C", 2.0, std::nullopt, false}};
  std::vector<PlatformEdge> edges;
  for (ProcessorIndex i = 0; i < 3; ++i) {
    for (ProcessorIndex j = 0; j < 3; ++j) {
      if (i != j) edges.push_back({i, j, 1.0, std::nullopt, std::nullopt});
    }
  }
  return Platform(nodes, edges, "triangle");
}

Rational q(long num, long den = 1) {
  Rational value(num, den);
  value.canonicalize();
  return value;
}

TEST(PeriodicPlanJson, ReducePlanRoundTripsExactly) {
  const auto platform = triangle();
  PeriodicPlan plan;
  plan.operation = SteadyOperation::reduce;
  plan.algorithm = "reduce";
  plan.root = 0;
  plan.participants = {0, 1, 2};
  plan.throughput = 1;
  plan.throughput_bound = 1;
  plan.period = BigInteger("123456789012345678901234567890");
  plan.operations_per_period = plan.period;
  plan.split_messages = false;
  plan.slots.push_back({q(3, 2), {{1, 2, MessageType::partial(1, 1), q(7, 2), 0}}});
  plan.flows.push_back({1, 2, MessageType::partial(1, 1), q(2)});
  plan.computations.push_back({1, 1, 1, 2, q(1), 0});
  plan.trees.push_back({q(1, 3), kNoProcessor, {{2, 1, MessageType::partial(2, 2)}}, {{1, 1, 1, 2}}});
  plan.certificate.formulation = "reduce";
  plan.certificate.bound = 1;
  plan.certificate.duals.push_back({{"receive_port", {"A"}}, q(1)});

  std::ostringstream out;
  write_periodic_plan_json(out, plan, platform, {true, true});
  const std::string text = out.str();
  EXPECT_NE(text.find("\"period\":\"123456789012345678901234567890\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"messages\":\"7/2\""), std::string::npos);
  EXPECT_NE(text.find("\"type\":\"[1,1]\""), std::string::npos);
  EXPECT_TRUE(looks_like_periodic_plan(text));

  const auto back = parse_periodic_plan_json(text, platform, "plan.json");
  EXPECT_EQ(back.operation, SteadyOperation::reduce);
  EXPECT_EQ(back.period, plan.period);
  EXPECT_EQ(back.participants, plan.participants);
  ASSERT_EQ(back.slots.size(), 1u);
  EXPECT_EQ(back.slots[0].length, q(3, 2));
  EXPECT_EQ(back.slots[0].transfers[0].messages, q(7, 2));
  EXPECT_EQ(back.slots[0].transfers[0].type, MessageType::partial(1, 1));
  EXPECT_EQ(back.slots[0].transfers[0].tree, 0);
  ASSERT_EQ(back.trees.size(), 1u);
  EXPECT_EQ(back.trees[0].weight, q(1, 3));
  EXPECT_EQ(back.trees[0].computations[0].split, 1);
  EXPECT_EQ(back.computations[0].count, 1);
  EXPECT_EQ(back.certificate.bound, 1);
  EXPECT_EQ(back.certificate.duals.size(), 1u);
  EXPECT_FALSE(back.split_messages);
}

TEST(PeriodicPlanJson, ScatterTypesAreTargetsAndGossipTypesArePairs) {
  const auto platform = triangle();
  PeriodicPlan scatter;
  scatter.operation = SteadyOperation::scatter;
  scatter.root = 0;
  scatter.targets = {1, 2};
  scatter.throughput = q(1, 2);
  scatter.throughput_bound = q(1, 2);
  scatter.period = 2;
  scatter.operations_per_period = 1;
  scatter.slots.push_back({q(2), {{0, 2, MessageType::personal(0, 2), q(1), -1}, {1, 0, MessageType::personal(0, 2), q(0), -1}}});
  std::ostringstream out;
  write_periodic_plan_json(out, scatter, platform);
  EXPECT_NE(out.str().find("\"type\":\"C\""), std::string::npos) << out.str();
  const auto back = parse_periodic_plan_json(out.str(), platform, "p.json");
  EXPECT_EQ(back.slots[0].transfers[0].type, MessageType::personal(0, 2));

  PeriodicPlan gossip = scatter;
  gossip.operation = SteadyOperation::gossip;
  gossip.sources = {0, 1};
  gossip.slots[0].transfers[0].type = MessageType::personal(1, 2);
  std::ostringstream gossip_out;
  write_periodic_plan_json(gossip_out, gossip, platform);
  EXPECT_NE(gossip_out.str().find("\"type\":\"B->C\""), std::string::npos) << gossip_out.str();
  const auto gossip_back = parse_periodic_plan_json(gossip_out.str(), platform, "p.json");
  EXPECT_EQ(gossip_back.slots[0].transfers[0].type, MessageType::personal(1, 2));
}

TEST(PeriodicPlanJson, BadFilesNameTheField) {
  const auto platform = triangle();
  const auto expect_error = [&](const std::string& text, const std::string& fragment) {
    try {
      parse_periodic_plan_json(text, platform, "bad.json");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
    }
  };
  expect_error("{", "not valid JSON");
  expect_error(R"({"operation": "scatter", "source": "A", "targets": ["Z"], "throughput": "1", "period": 1, "slots": []})",
               "targets[0]");
  expect_error(R"({"operation": "scatter", "source": "A", "targets": ["B"], "throughput": "x", "period": 1, "slots": []})",
               "throughput");
  expect_error(R"({"operation": "scatter", "source": "A", "targets": ["B"], "throughput": "1", "period": "1/2", "slots": []})",
               "period");
  expect_error(R"({"operation": "reduce", "root": "A", "participants": ["A"], "throughput": "1", "period": 1,
                  "slots": [{"length": "1", "transfers": [{"from": "A", "to": "B", "messages": 1, "type": "oops"}]}]})",
               "slots[0].transfers[0].type");
}

}  // namespace
}  // namespace hetcoll
