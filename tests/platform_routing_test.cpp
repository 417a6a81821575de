// Platform routing: declared routes (JSON "routes"), the direct-edge and
// shortest-path fallbacks, route times, participants, and the sender-speed
// view built from routes.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "hetcoll/core/error.h"
#include "hetcoll/model/participants.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/model/shortest_paths.h"

namespace hetcoll {
namespace {

std::string input_error_of(const auto& action) {
  try {
    action();
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

// The node ids a route visits, from its first edge's tail.
std::vector<std::string> visited(const Platform& platform, const Route& route) {
  std::vector<std::string> ids;
  if (route.empty()) return ids;
  ids.push_back(platform.id(platform.edges()[route.front()].from));
  for (size_t e : route) ids.push_back(platform.id(platform.edges()[e].to));
  return ids;
}

// A -> X -> B is the cheap path, A -> L -> B the declared route; C has no
// edge from B (routing fills the pair in through A).
const char* kDeclared = R"({"model": "graph", "symmetric": true,
  "nodes": [{"id": "A"}, {"id": "B"}, {"id": "C"}, {"id": "X", "router": true},
            {"id": "L", "kind": "link"}],
  "edges": [{"from": "A", "to": "X", "cost": 1}, {"from": "X", "to": "B", "cost": 1},
            {"from": "A", "to": "L", "cost": 5}, {"from": "L", "to": "B", "cost": 0},
            {"from": "A", "to": "C", "cost": 2}],
  "routes": [{"from": "A", "to": "B", "path": ["A", "L", "B"]}]})";

TEST(PlatformRouting, DeclaredRoutesWinOverCheaperPaths) {
  Platform platform = parse_platform_json(kDeclared, "d.json").graph();
  ASSERT_TRUE(platform.has_declared_routes());
  auto costs = platform.edge_costs();
  auto a = *platform.find("A"), b = *platform.find("B"), c = *platform.find("C");
  EXPECT_EQ(visited(platform, *platform.route(a, b, costs)), (std::vector<std::string>{"A", "L", "B"}));
  // "symmetric" gives the declared route its reverse.
  EXPECT_EQ(visited(platform, *platform.route(b, a, costs)), (std::vector<std::string>{"B", "L", "A"}));
  EXPECT_DOUBLE_EQ(platform.route_time(*platform.route(a, b, costs), std::nullopt), 5.0);
  // Undeclared pairs: the direct edge, else the cheapest path.
  EXPECT_EQ(visited(platform, *platform.route(a, c, costs)), (std::vector<std::string>{"A", "C"}));
  EXPECT_EQ(visited(platform, *platform.route(c, b, costs)), (std::vector<std::string>{"C", "A", "X", "B"}));
  EXPECT_TRUE(platform.route(a, a, costs)->empty());
  EXPECT_FALSE(platform.declared_route(a, c));
  // routes_from agrees with route for every target.
  auto all = platform.routes_from(c, costs);
  for (ProcessorIndex v = 0; v < platform.size(); ++v) EXPECT_EQ(all[static_cast<size_t>(v)], platform.route(c, v, costs));
  auto some = platform.routes_from(a, costs, {b, c});
  EXPECT_EQ(some[0], platform.route(a, b, costs));
  EXPECT_EQ(some[1], platform.route(a, c, costs));
  for (auto [from, to] : std::vector<std::pair<ProcessorIndex, ProcessorIndex>>{{a, b}, {b, a}, {c, b}}) {
    EXPECT_FALSE(route_problem(platform, from, to, *platform.route(from, to, costs)));
  }
}

TEST(PlatformRouting, DirectEdgeBeatsACheaperDetourAndUnreachableIsNullopt) {
  Platform platform({{"A"}, {"B"}, {"C"}}, {{0, 1, 5.0}, {0, 2, 1.0}, {2, 1, 1.0}});
  auto costs = platform.edge_costs();
  EXPECT_EQ(*platform.route(0, 1, costs), (Route{0}));
  EXPECT_FALSE(platform.route(1, 0, costs));
  EXPECT_FALSE(platform.has_declared_routes());
  EXPECT_TRUE(route_problem(platform, 0, 1, Route{1}).has_value());
  EXPECT_TRUE(route_problem(platform, 0, 1, Route{2}).has_value());
}

TEST(PlatformRouting, RouteTimeIsCutThroughOverLatencyBandwidthEdges) {
  PlatformEdge slow{0, 1, std::nullopt, 0.001, 1e6};
  PlatformEdge wire{1, 2, 0.0};
  PlatformEdge fast{2, 3, std::nullopt, 0.002, 1e8};
  PlatformEdge fixed{3, 0, 0.5};
  Platform platform({{"A"}, {"L1", {}, {}, true, NodeKind::link}, {"L2", {}, {}, true, NodeKind::link}, {"B"}},
                    {slow, wire, fast, fixed});
  // 1e6 bytes: latencies 0.003 + size / slowest bandwidth 1e6 (not a sum per hop).
  EXPECT_DOUBLE_EQ(platform.route_time({0, 1, 2}, 1e6), 0.003 + 1.0);
  EXPECT_DOUBLE_EQ(platform.route_time({2, 3}, 1e6), 0.5 + 0.002 + 0.01);
  EXPECT_DOUBLE_EQ(platform.route_time({3}, std::nullopt), 0.5);
  EXPECT_DOUBLE_EQ(platform.route_time({}, 1e6), 0.0);
  EXPECT_THROW(platform.route_time({0}, std::nullopt), InputError);
}

TEST(PlatformRouting, KindsPortsAndRoutesSurviveAJsonRoundTrip) {
  Platform platform = parse_platform_json(kDeclared, "d.json").graph();
  EXPECT_EQ(platform.node(4).kind, NodeKind::link);
  EXPECT_TRUE(platform.node(4).router);
  EXPECT_EQ(platform.node(3).kind, NodeKind::router);
  EXPECT_EQ(platform.participants(), (std::vector<ProcessorIndex>{0, 1, 2}));
  std::ostringstream written;
  write_platform_json(written, platform);
  Platform back = parse_platform_json(written.str(), "w.json").graph();
  ASSERT_EQ(back.size(), platform.size());
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    EXPECT_EQ(back.node(v).kind, platform.node(v).kind);
    EXPECT_EQ(back.node(v).router, platform.node(v).router);
    EXPECT_EQ(back.node(v).ports, platform.node(v).ports);
  }
  auto costs = back.edge_costs();
  EXPECT_EQ(visited(back, *back.route(0, 1, costs)), (std::vector<std::string>{"A", "L", "B"}));
  EXPECT_EQ(visited(back, *back.route(1, 0, costs)), (std::vector<std::string>{"B", "L", "A"}));

  auto unlimited = parse_platform_json(R"({"model": "graph", "nodes": [{"id": "A"},
      {"id": "S", "kind": "router", "ports": "unlimited"}], "edges": []})",
                                       "u.json");
  EXPECT_EQ(unlimited.graph().node(1).ports, PortModel::unlimited);
  std::ostringstream again;
  write_platform_json(again, unlimited.graph());
  EXPECT_NE(again.str().find(R"("ports":"unlimited")"), std::string::npos) << again.str();
}

TEST(Participants, EveryOtherHostBecomesARouter) {
  Platform platform = parse_platform_json(kDeclared, "d.json").graph();
  Platform chosen = with_participants(platform, {"C", "0"});
  EXPECT_EQ(chosen.participants(), (std::vector<ProcessorIndex>{0, 2}));
  EXPECT_TRUE(chosen.node(1).router);
  EXPECT_EQ(chosen.node(1).kind, NodeKind::host);
  EXPECT_EQ(chosen.edges().size(), platform.edges().size());
  auto costs = chosen.edge_costs();
  EXPECT_EQ(visited(chosen, *chosen.route(0, 1, costs)), (std::vector<std::string>{"A", "L", "B"}));  // routes kept
  // A host left out can be chosen again.
  EXPECT_EQ(with_participants(chosen, {"B"}).participants(), (std::vector<ProcessorIndex>{1}));

  EXPECT_NE(input_error_of([&] { with_participants(platform, {}); }).find("participants: the list is empty"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { with_participants(platform, {"A", "Q"}); }).find("participants: no node \"Q\""),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { with_participants(platform, {"A", "A"}); }).find("\"A\" is listed twice"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { with_participants(platform, {"L"}); }).find("\"L\" is a link, not a host"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { with_participants(platform, {"X"}, "targets"); }).find("targets: \"X\" is a router"),
            std::string::npos);
}

TEST(SenderSpeedView, UsesRoutesBetweenParticipantsOnly) {
  Platform platform = parse_platform_json(kDeclared, "d.json").graph();
  Cluster cluster = cluster_from_platform(platform, std::nullopt, "d.json");
  ASSERT_EQ(cluster.size(), 3);
  EXPECT_EQ(cluster.ids(), (std::vector<std::string>{"A", "B", "C"}));
  EXPECT_DOUBLE_EQ(cluster.transmission_time(0), 5.0);  // A -> B by its declared route, not the cheaper X
  EXPECT_DOUBLE_EQ(cluster.transmission_time(1), 5.0);  // B -> A declared (5); B -> C filled in: B, X, A, C (4)
  EXPECT_DOUBLE_EQ(cluster.transmission_time(2), 4.0);  // C -> A -> X -> B
  Cluster two = cluster_from_platform(with_participants(platform, {"A", "C"}), std::nullopt, "d.json");
  EXPECT_EQ(two.ids(), (std::vector<std::string>{"A", "C"}));
  EXPECT_DOUBLE_EQ(two.transmission_time(0), 2.0);
}

}  // namespace
}  // namespace hetcoll
