// The platform-graph model: routes, the graph verifier and the simulator,
// on hand-made platforms whose answers are worked out in the comments.
#include <gtest/gtest.h>

#include <sstream>

#include "hetcoll/core/error.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/sim/event_engine.h"
#include "hetcoll/sim/makespan_simulation.h"
#include "hetcoll/verify/verify.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

PlatformEdge edge(ProcessorIndex from, ProcessorIndex to, double cost) { return PlatformEdge::with_cost(from, to, cost); }
PlatformNode host(std::string id, std::optional<double> speed = std::nullopt) {
  return PlatformNode::host(std::move(id), speed);
}
PlatformNode router(std::string id) { return PlatformNode::forwarder(std::move(id)); }

// a, b, c hang off a one-port switch `sw` (a router); d is joined to c
// only; e only sends (to a).
//   a-sw: 1 each way, b-sw: 2 each way, c-sw: 1 each way, c-d: 3 each way,
//   a direct a->b edge of cost 5 (the platform routes adjacent nodes over
//   their direct edge, even though a->sw->b costs 1 + 2 = 3), e->a: 1.
Platform star() {
  std::vector<PlatformNode> nodes = {host("a"), host("b"), host("c"), host("d"), router("sw"), host("e")};
  std::vector<PlatformEdge> edges = {edge(0, 4, 1), edge(4, 0, 1), edge(1, 4, 2), edge(4, 1, 2), edge(2, 4, 1),
                                     edge(4, 2, 1), edge(2, 3, 3), edge(3, 2, 3), edge(0, 1, 5), edge(5, 0, 1)};
  return Platform(std::move(nodes), std::move(edges), "star");
}

Transfer transfer(ProcessorIndex from, ProcessorIndex to, double start, double end,
                  Payload payload = Payload::broadcast_value) {
  Transfer t;
  t.from = from;
  t.to = to;
  t.start = start;
  t.end = end;
  t.payload = payload;
  return t;
}

MakespanPlan graph_plan(Operation operation, ProcessorIndex root, std::vector<Transfer> transfers, double makespan) {
  MakespanPlan plan;
  plan.operation = operation;
  plan.model = PlanModel::platform_graph;
  plan.root = root;
  plan.transfers = std::move(transfers);
  plan.makespan = makespan;
  return plan;
}

bool mentions(const VerifyReport& report, const std::string& text) {
  for (const auto& v : report.violations) {
    if (v.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(GraphNetwork, RoutesAreThePlatformsAndHoldTheOnePortNodesTheyCross) {
  Platform platform = star();
  GraphNetwork network(platform, std::nullopt);
  EXPECT_EQ(network.participants(), (std::vector<ProcessorIndex>{0, 1, 2, 3, 5}));
  EXPECT_EQ(network.route(0, 1), (Route{8}));           // the direct edge
  EXPECT_EQ(network.route_time(Route{8}), 5);
  EXPECT_EQ(network.route(0, 3), (Route{0, 5, 6}));     // a -> sw -> c -> d: c relays
  EXPECT_EQ(network.route_time(Route{0, 5, 6}), 5);
  EXPECT_EQ(network.route(0, 5), std::nullopt);         // nothing reaches e
  // Many at once, and exactly Platform::route for every pair.
  RouteFinder finder = network.route_finder();
  const ProcessorIndex targets[] = {3, 1, 2, 0, 5};
  auto many = finder.routes_from(0, targets);
  EXPECT_EQ(many[0], (Route{0, 5, 6}));
  EXPECT_EQ(many[1], (Route{8}));
  EXPECT_EQ(many[2], (Route{0, 5}));
  EXPECT_EQ(many[3], Route{});
  EXPECT_EQ(many[4], std::nullopt);
  for (ProcessorIndex u = 0; u < platform.size(); ++u) {
    for (ProcessorIndex v = 0; v < platform.size(); ++v) {
      EXPECT_EQ(network.route(u, v), platform.route(u, v, network.edge_costs())) << u << " -> " << v;
    }
  }
  // a -> d holds a's send port, d's receive port, and both ports of the
  // one-port nodes it crosses (sw, c).
  std::vector<PortId> ports;
  network.held_ports(0, 3, Route{0, 5, 6}, ports);
  EXPECT_EQ(ports, (std::vector<PortId>{0, 7, 9, 8, 5, 4}));
  RouteMatrix reversed(network, {0, 1, 2}, true);
  EXPECT_EQ(reversed.cost(1, 0), 5);  // reversed entry b -> a is the platform transfer a -> b
  EXPECT_EQ(std::vector<std::size_t>(reversed.edges(1, 0).begin(), reversed.edges(1, 0).end()), (Route{8}));
}

TEST(GraphVerify, AcceptsAValidBroadcastAndChecksEveryRule) {
  Platform platform = star();
  GraphNetwork network(platform, std::nullopt);
  // From a: a -> c (via sw, 2) at 0..2, c -> d (3) at 2..5, a -> b (direct, 5)
  // at 2..7 (a's send port is busy until 2). e is left out (nothing reaches it).
  auto plan = graph_plan(Operation::broadcast, 0,
                         {transfer(0, 2, 0, 2), transfer(2, 3, 2, 5), transfer(0, 1, 2, 7)}, 7);
  auto report = verify(network, plan);
  EXPECT_EQ(report.violation_count, 1u) << report.summary();
  EXPECT_TRUE(mentions(report, "e never receives")) << report.summary();

  auto overlap = plan;
  overlap.transfers[2] = transfer(0, 1, 1, 6);  // a sends twice at once
  overlap.makespan = 6;
  report = verify(network, overlap);
  EXPECT_TRUE(mentions(report, "one-port: a's send port")) << report.summary();

  // c -> b crosses sw at 2..5 while a -> d (a -> sw -> c -> d) crosses it at 2..7.
  auto router = graph_plan(Operation::broadcast, 0,
                           {transfer(0, 2, 0, 2), transfer(2, 1, 2, 5), transfer(0, 3, 2, 7)}, 7);
  report = verify(network, router);
  EXPECT_TRUE(mentions(report, "one-port: sw's receive port (a one-port router)")) << report.summary();

  auto wrong_cost = plan;
  wrong_cost.transfers[2] = transfer(0, 1, 2, 5);
  wrong_cost.makespan = 5;
  report = verify(network, wrong_cost);
  EXPECT_TRUE(mentions(report, "takes 5")) << report.summary();

  auto wrong_route = plan;
  wrong_route.transfers[2].route = {0, 3};  // a -> sw -> b, not the platform's route
  report = verify(network, wrong_route);
  EXPECT_TRUE(mentions(report, "platform's route is a -> b")) << report.summary();

  auto to_router = plan;
  to_router.transfers.push_back(transfer(1, 4, 7, 9));
  to_router.makespan = 9;
  report = verify(network, to_router);
  EXPECT_TRUE(mentions(report, "router")) << report.summary();

  auto no_route = plan;
  no_route.transfers.push_back(transfer(0, 5, 7, 8));
  no_route.makespan = 8;
  report = verify(network, no_route);
  EXPECT_TRUE(mentions(report, "no route from a to e")) << report.summary();

  auto claims = plan;
  claims.optimal = true;
  claims.lower_bound = 4;
  report = verify(network, claims);
  EXPECT_TRUE(mentions(report, "claims to be optimal")) << report.summary();
}

TEST(GraphVerify, ReduceWaitsForCombines) {
  // c and b send to a; a has speed 1 (a combine takes 1), c has speed 0.5.
  std::vector<PlatformNode> nodes = {host("a", 1.0), host("b"), host("c", 0.5), router("sw")};
  std::vector<PlatformEdge> edges = {edge(0, 3, 1), edge(3, 0, 1), edge(1, 3, 1), edge(3, 1, 1),
                                     edge(2, 3, 1), edge(3, 2, 1)};
  Platform platform(std::move(nodes), std::move(edges), "reduce");
  GraphNetwork network(platform, std::nullopt);
  // b -> c 0..2, c combines 2..4 (1/0.5), c -> a 4..6, a combines 6..7.
  auto plan = graph_plan(Operation::reduce, 0,
                         {transfer(1, 2, 0, 2, Payload::partial_reduction),
                          transfer(2, 0, 4, 6, Payload::partial_reduction)},
                         7);
  auto report = verify(network, plan);
  EXPECT_TRUE(report.valid) << report.summary();
  EXPECT_EQ(report.measured_makespan, 7);
  EXPECT_EQ(simulate(network, plan).makespan, 7);

  auto early = plan;
  early.transfers[1] = transfer(2, 0, 3, 5, Payload::partial_reduction);
  early.makespan = 6;
  report = verify(network, early);
  EXPECT_TRUE(mentions(report, "before it can have combined")) << report.summary();
  // Executed, it waits for the combine.
  EXPECT_EQ(simulate(network, early).makespan, 7);
}

TEST(GraphSimulate, ReplaysOrderAndCountsBackToBackOperations) {
  Platform platform = star();
  GraphNetwork network(platform, std::nullopt);
  auto plan = graph_plan(Operation::broadcast, 0,
                         {transfer(0, 2, 0, 2), transfer(2, 3, 2, 5), transfer(0, 1, 2, 7)}, 7);
  auto once = simulate(network, plan);
  EXPECT_EQ(once.makespan, 7);
  ASSERT_EQ(once.first_operation.size(), 3u);
  EXPECT_EQ(once.first_operation[0].route, (Route{0, 5}));  // filled in
  // Twice: the second a -> c waits for a's send port (free at 7): 7..9, then
  // c -> d 9..12 and a -> b 9..14.
  SimulationOptions options;
  options.operations = 2;
  auto twice = simulate(network, plan, options);
  EXPECT_EQ(twice.operation_completion, (std::vector<double>{7, 14}));
  EXPECT_EQ(twice.makespan, 14);

  // A plan planned too pessimistically is compressed by the simulator.
  auto slack = plan;
  for (auto& t : slack.transfers) t.start += 1, t.end += 1;
  EXPECT_EQ(simulate(network, slack).makespan, 7);
  EXPECT_EQ(as_soon_as_possible(network, slack).makespan, 7);

  auto forwarder = graph_plan(Operation::broadcast, 0, {transfer(2, 3, 0, 3)}, 3);
  EXPECT_THROW(simulate(network, forwarder), InputError);
}

TEST(GraphSimulate, EngineDetectsDeadlockAndServesFirstReady) {
  sim::EventEngine engine;
  auto port = engine.add_resource(sim::Discipline::in_order);
  // Task 1 must run after task 0 (data), but the port serves task 1 first.
  sim::SimTask first{1.0, 0.0, 0, 2.0};
  sim::SimTask second{1.0, 0.0, 0, 1.0};
  const sim::ResourceId held[] = {port};
  auto a = engine.add_task(first, held, {});
  const sim::TaskId after[] = {a};
  engine.add_task(second, held, after);
  auto outcome = engine.run();
  EXPECT_FALSE(outcome.completed());
  EXPECT_EQ(outcome.stuck.size(), 2u);

  sim::EventEngine compute;
  auto cpu = compute.add_resource(sim::Discipline::first_ready);
  const sim::ResourceId on_cpu[] = {cpu};
  sim::SimTask late{2.0, 3.0, 0, 0.0};   // ready at 3, first in key order
  sim::SimTask early{2.0, 1.0, 0, 9.0};  // ready at 1
  auto x = compute.add_task(late, on_cpu, {});
  auto y = compute.add_task(early, on_cpu, {});
  auto result = compute.run();
  EXPECT_EQ(result.start[y], 1);
  EXPECT_EQ(result.start[x], 3);
  EXPECT_EQ(result.makespan, 5);
}

TEST(GraphPlanJson, RoundTripsRoutesModelAndMessageSize) {
  Platform platform = star();
  auto plan = graph_plan(Operation::broadcast, 0, {transfer(0, 1, 0, 3)}, 3);
  plan.transfers[0].route = {0, 3};  // a -> sw -> b (written, not checked here)
  plan.message_size = 1e6;
  std::ostringstream out;
  write_plan_json(out, plan, platform);
  EXPECT_NE(out.str().find(R"("route": ["a", "sw", "b"])"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find(R"("model": "graph")"), std::string::npos);
  EXPECT_NE(out.str().find(R"("routers": 1)"), std::string::npos);
  MakespanPlan back = parse_plan_json(out.str(), platform, "plan.json");
  EXPECT_EQ(back.transfers[0].route, plan.transfers[0].route);
  EXPECT_EQ(back.model, PlanModel::platform_graph);
  EXPECT_EQ(back.message_size, 1e6);
  EXPECT_THROW(parse_plan_json(R"({"operation": "broadcast", "source": "a", "transfers": [
      {"from": "a", "to": "b", "start": 0, "end": 3, "route": ["a", "c", "b"]}]})",
                               platform, "plan.json"),
               InputError);
}

TEST(GraphSimulate, TheSenderSpeedViewOfTwoSitesTakesItsRealRouteCosts) {
  // The two-site example: FNF in the sender-speed view gives every node
  // t = 0.09 (its WAN route) and predicts 0.18; executed on the platform
  // its tree takes one LAN copy (0.00805) and then the WAN transfers.
  LoadedPlatform loaded = load_platform_file(testing::source_path("examples/two-sites.json"));
  GraphNetwork network(loaded.graph(), 1e6);
  auto plan = graph_plan(Operation::broadcast, 0,
                         {transfer(0, 1, 0, 0.09), transfer(0, 2, 0.09, 0.18), transfer(1, 3, 0.09, 0.18)}, 0.18);
  plan.model = PlanModel::sender_speed;
  auto executed = simulate(network, plan);
  EXPECT_NEAR(executed.makespan, 0.00805 + 0.09, 1e-12);
}

}  // namespace
}  // namespace hetcoll
