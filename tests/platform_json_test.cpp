// The JSON platform reader on bad input: every problem is an InputError whose
// message starts with the file name and names the field (or the line and
// column of malformed JSON).
#include <gtest/gtest.h>

#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>

#include "hetcoll/core/error.h"
#include "hetcoll/model/platform_io.h"

namespace hetcoll {
namespace {

void expect_error(const std::string& text, std::initializer_list<std::string> fragments) {
  try {
    parse_platform_json(text, "bad.json");
    ADD_FAILURE() << "no error for: " << text;
  } catch (const InputError& error) {
    std::string message = error.what();
    EXPECT_EQ(message.rfind("bad.json: ", 0), 0u) << message;
    for (const auto& fragment : fragments) {
      EXPECT_NE(message.find(fragment), std::string::npos) << "missing \"" << fragment << "\" in: " << message;
    }
  }
}

std::string graph(const std::string& nodes, const std::string& edges) {
  return R"({"model": "graph", "nodes": [)" + nodes + R"(], "edges": [)" + edges + "]}";
}

const std::string kTwoNodes = R"({"id": "A", "speed": 1.0}, {"id": "B"})";

TEST(PlatformJsonErrors, MalformedJsonGivesLineAndColumn) {
  expect_error("{\"model\": \"cluster\",\n \"processors\": [\n  {\"id\": \"a\" \"t\": 1}]}",
               {"malformed JSON at line 3, column"});
  expect_error("{\"model\": \"cluster\",\n \"processors\": [", {"malformed JSON at line 2"});
  expect_error("", {"malformed JSON at line 1, column 1"});
  expect_error("[1, 2]", {"must be a JSON object"});
}

TEST(PlatformJsonErrors, UnknownOrMissingModel) {
  expect_error(R"({"model": "torus", "nodes": []})", {"model: unknown model \"torus\""});
  expect_error(R"({"nodes": []})", {"model: missing"});
  expect_error(R"({"model": 3})", {"model: must be"});
  expect_error(R"({"model": "cluster", "processors": [], "colour": "red"})", {"colour: unknown field"});
}

TEST(PlatformJsonErrors, MissingAndDuplicateIds) {
  expect_error(R"({"model": "cluster", "processors": [{"t": 1.0}]})", {"processors[0].id: missing"});
  expect_error(R"({"model": "cluster", "processors": [{"id": "a", "t": 1.0}, {"id": "a", "t": 2.0}]})",
               {"processors[1].id: duplicate id \"a\""});
  expect_error(graph(R"({"speed": 1.0})", ""), {"nodes[0].id: missing"});
  expect_error(graph(R"({"id": "A"}, {"id": "A"})", ""), {"nodes[1].id: duplicate id \"A\""});
  expect_error(graph(R"({"id": ""})", ""), {"nodes[0].id: must not be empty"});
  expect_error(graph(R"({"id": [1]})", ""), {"nodes[0].id: must be a string"});
}

TEST(PlatformJsonErrors, NonPositiveAndNonFiniteNumbers) {
  expect_error(R"({"model": "cluster", "processors": [{"id": "a", "t": -1.0}]})",
               {"processors[0].t: must be a positive finite number"});
  expect_error(R"({"model": "cluster", "processors": [{"id": "a", "t": 0}]})", {"processors[0].t: must be a positive"});
  expect_error(R"({"model": "cluster", "processors": [{"id": "a", "t": "fast"}]})",
               {"processors[0].t: must be a number"});
  // JSON has no NaN or infinity literal: an overflowing number is how a file says "infinite".
  expect_error(R"({"model": "cluster", "processors": [{"id": "a", "t": 1e999}]})", {"1e999"});
  expect_error(graph(R"({"id": "A", "speed": -2.0}, {"id": "B"})", ""), {"nodes[0].speed: must be a positive"});
  expect_error(graph(R"({"id": "A", "speed": 1e999}, {"id": "B"})", ""), {"1e999"});
  expect_error(graph(R"({"id": "A", "send_overhead": -1}, {"id": "B"})", ""),
               {"nodes[0].send_overhead: must be a non-negative"});
  // A cost of 0 is a wire (imported networks join links by wires); a negative one is bad.
  expect_error(graph(kTwoNodes, R"({"from": "A", "to": "B", "cost": -1})"), {"edges[0].cost: must be a non-negative"});
  expect_error(graph(kTwoNodes, R"({"from": "A", "to": "B", "latency": -1, "bandwidth": 1})"),
               {"edges[0].latency: must be a non-negative"});
  expect_error(graph(kTwoNodes, R"({"from": "A", "to": "B", "latency": 1, "bandwidth": 0})"),
               {"edges[0].bandwidth: must be a positive"});
  expect_error(graph(kTwoNodes, R"({"from": "A", "to": "B", "latency": 1, "bandwidth": 1e999})"), {"1e999"});
}

TEST(PlatformJsonErrors, KindsPortsAndRoutes) {
  expect_error(graph(R"({"id": "A", "kind": "switch"}, {"id": "B"})", ""), {"nodes[0].kind: must be", "\"switch\""});
  expect_error(graph(R"({"id": "A", "kind": "link", "router": false}, {"id": "B"})", ""),
               {"nodes[0].router: a link is always a router"});
  expect_error(graph(R"({"id": "A", "ports": "many"}, {"id": "B"})", ""), {"nodes[0].ports: must be"});
  const std::string nodes = R"({"id": "A"}, {"id": "R", "router": true}, {"id": "B"})";
  const std::string edges = R"({"from": "A", "to": "R", "cost": 1}, {"from": "R", "to": "B", "cost": 1})";
  auto with_routes = [&](const std::string& routes) {
    return R"({"model": "graph", "nodes": [)" + nodes + R"(], "edges": [)" + edges + R"(], "routes": )" + routes + "}";
  };
  expect_error(with_routes("{}"), {"routes: must be an array"});
  expect_error(with_routes(R"([{"from": "A", "to": "B"}])"), {"routes[0].path: missing"});
  expect_error(with_routes(R"([{"from": "A", "to": "B", "path": ["A", "B"]}])"),
               {"routes[0].path[1]: no edge from \"A\" to \"B\""});
  expect_error(with_routes(R"([{"from": "A", "to": "B", "path": ["A", "R"]}])"),
               {"routes[0].path: must start at \"from\" and end at \"to\""});
  expect_error(with_routes(R"([{"from": "A", "to": "Z", "path": ["A", "R"]}])"), {"routes[0].to: unknown node \"Z\""});
  expect_error(with_routes(R"([{"from": "A", "to": "A", "path": ["A", "A"]}])"), {"routes[0].to: a route joins two"});
  expect_error(with_routes(R"([{"from": "A", "to": "B", "path": ["A", "R", "B"]},
                               {"from": "A", "to": "B", "path": ["A", "R", "B"]}])"),
               {"routes[1]: a route from \"A\" to \"B\" is already given"});
  expect_error(with_routes(R"([{"from": "A", "to": "B", "path": ["A", "R", "B"], "via": 1}])"),
               {"routes[0].via: unknown field"});
}

// A route crosses each node (and so each edge) once: issue 24's
// [A,B,A,B,A,B,C] was read, then failed the planner's own verification.
TEST(PlatformJsonErrors, RoutesCrossingANodeTwiceAreRefused) {
  const std::string nodes = R"({"id": "A"}, {"id": "B"}, {"id": "C"})";
  const std::string edges = R"({"from": "A", "to": "B", "cost": 1}, {"from": "B", "to": "A", "cost": 1},
                               {"from": "B", "to": "C", "cost": 1}, {"from": "C", "to": "B", "cost": 1})";
  auto with_routes = [&](const std::string& routes) {
    return R"({"model": "graph", "nodes": [)" + nodes + R"(], "edges": [)" + edges + R"(], "routes": )" + routes + "}";
  };
  expect_error(with_routes(R"([{"from": "A", "to": "C", "path": ["A", "B", "A", "B", "A", "B", "C"]}])"),
               {"routes[0].path[2]: the route crosses \"A\" twice (also path[0])"});
  expect_error(with_routes(R"([{"from": "A", "to": "C", "path": ["A", "B", "C", "B", "C"]}])"),
               {"routes[0].path[3]: the route crosses \"B\" twice (also path[1])"});
  EXPECT_NO_THROW(parse_platform_json(with_routes(R"([{"from": "A", "to": "C", "path": ["A", "B", "C"]}])"), "ok.json"));
}

// Costs whose sums a planner forms would overflow a double: refused at
// input, naming the value (issue 24: 1e308 + 1e308 was "cannot be reached").
TEST(PlatformJsonErrors, CostsBeyondTheDoubleRangeAreRefused) {
  const std::string nodes = R"({"id": "A"}, {"id": "B"}, {"id": "C"})";
  expect_error(graph(nodes, R"({"from": "A", "to": "B", "cost": 1e308}, {"from": "B", "to": "C", "cost": 1e308})"),
               {"edges[0].cost: 1e+308 is too large for 3 nodes", "largest double"});
  expect_error(graph(nodes, R"({"from": "A", "to": "B", "cost": 1}, {"from": "B", "to": "C", "latency": 1e307,
                                "bandwidth": 1})"),
               {"edges[1].latency: 1e+307 is too large"});
  // Subnormal costs lose precision, as on clusters.
  expect_error(graph(nodes, R"({"from": "A", "to": "B", "cost": 1e-310})"), {"edges[0].cost: 1e-310 is too small"});
  EXPECT_NO_THROW(parse_platform_json(graph(nodes, R"({"from": "A", "to": "B", "cost": 0})"), "wire.json"));
}

// A message size that makes a latency/bandwidth edge overflow (or is not a
// number) is an InputError naming the parameter and the edge.
TEST(PlatformJsonErrors, MessageSizesOutOfRangeNameTheParameter) {
  const LoadedPlatform loaded = parse_platform_json(
      graph(R"({"id": "A"}, {"id": "B"})", R"({"from": "A", "to": "B", "latency": 0, "bandwidth": 1e-300})"), "p.json");
  const Platform& platform = loaded.graph();
  for (double size : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), -1.0, 0.0}) {
    try {
      platform.edge_costs(size);
      ADD_FAILURE() << "no error for message size " << size;
    } catch (const InputError& error) {
      EXPECT_EQ(error.parameter(), "message_size") << error.what();
    }
  }
  try {
    platform.edge_costs(1e10);
    ADD_FAILURE() << "no error for 1e10 bytes over 1e-300 B/s";
  } catch (const InputError& error) {
    EXPECT_EQ(error.parameter(), "message_size");
    EXPECT_NE(std::string(error.what()).find("from \"A\" to \"B\""), std::string::npos) << error.what();
  }
  EXPECT_NO_THROW(platform.edge_costs(1.0));
}

TEST(PlatformJsonErrors, EdgesNamingUnknownNodes) {
  expect_error(graph(kTwoNodes, R"({"from": "A", "to": "Z", "cost": 1})"), {"edges[0].to: unknown node \"Z\""});
  expect_error(graph(kTwoNodes, R"({"from": "A", "to": "B", "cost": 1}, {"from": "Q", "to": "B", "cost": 1})"),
               {"edges[1].from: unknown node \"Q\""});
  expect_error(graph(kTwoNodes, R"({"to": "B", "cost": 1})"), {"edges[0].from: missing"});
  expect_error(graph(kTwoNodes, R"({"from": "A", "to": "A", "cost": 1})"), {"edges[0]", "itself"});
}

TEST(PlatformJsonErrors, EmptyPlatforms) {
  expect_error(R"({"model": "cluster", "processors": []})", {"processors", "no processors"});
  expect_error(R"({"model": "graph", "nodes": []})", {"nodes", "no nodes"});
  expect_error(R"({"model": "graph"})", {"nodes: missing"});
  expect_error(R"({"model": "cluster"})", {"processors: missing"});
  expect_error(R"({"model": "graph", "nodes": {}})", {"nodes: must be an array"});
}

TEST(PlatformJsonErrors, CostAndLatencyBothGiven) {
  expect_error(graph(kTwoNodes, R"({"from": "A", "to": "B", "cost": 1, "latency": 0.5, "bandwidth": 2})"),
               {"edges[0]", "either \"cost\" or \"latency\"/\"bandwidth\""});
  expect_error(graph(kTwoNodes, R"({"from": "A", "to": "B", "latency": 0.5})"), {"edges[0]", "needs \"cost\""});
}

TEST(PlatformJsonErrors, GoodFilesStillRead) {
  LoadedPlatform cluster = parse_platform_json(R"({"model": "cluster", "processors": [{"id": "a", "t": 1.5}]})", "ok.json");
  ASSERT_TRUE(cluster.is_cluster());
  EXPECT_DOUBLE_EQ(cluster.cluster().transmission_time(0), 1.5);
  LoadedPlatform platform = parse_platform_json(
      R"({"model": "graph", "symmetric": true, "nodes": [{"id": "A"}, {"id": "B"}],
          "edges": [{"from": "A", "to": "B", "latency": 0.5, "bandwidth": 2}]})",
      "ok.json");
  ASSERT_FALSE(platform.is_cluster());
  EXPECT_EQ(platform.graph().edges().size(), 2u);
}

// "units" declares the unit of the file's times; the output prints it.
TEST(PlatformUnits, DeclaredUnitsAreReadNormalisedAndWrittenBack) {
  auto cluster_with = [](const std::string& units) {
    return parse_platform_json(R"({"model": "cluster", "units": )" + units +
                                   R"(, "processors": [{"id": "a", "t": 1}, {"id": "b", "t": 2}]})",
                               "units.json")
        .cluster();
  };
  EXPECT_EQ(cluster_with(R"({"time": "ms"})").time_unit(), "ms");
  EXPECT_EQ(cluster_with(R"({"time": "microseconds"})").time_unit(), "us");
  EXPECT_EQ(cluster_with(R"({"t": "milliseconds per message"})").time_unit(), "ms");  // the older form
  EXPECT_EQ(cluster_with(R"({"t": "seconds per message"})").time_unit(), "s");
  EXPECT_EQ(cluster_with(R"({"time": "ticks"})").time_unit(), "ticks");                 // any short word
  EXPECT_EQ(parse_platform_json(R"({"model": "cluster", "processors": [{"id": "a", "t": 1}]})", "x.json")
                .cluster()
                .time_unit(),
            "");

  std::ostringstream written;
  write_cluster_json(written, cluster_with(R"({"time": "ms"})"));
  EXPECT_EQ(parse_platform_json(written.str(), "written.json").cluster().time_unit(), "ms") << written.str();
}

TEST(PlatformUnits, BadUnitsNameTheField) {
  const std::string processors = R"("processors": [{"id": "a", "t": 1}])";
  expect_error(R"({"model": "cluster", "units": "ms", )" + processors + "}", {"units: must be an object"});
  expect_error(R"({"model": "cluster", "units": {"time": 3}, )" + processors + "}", {"units.time: must be a string"});
  expect_error(R"({"model": "cluster", "units": {"tmie": "ms"}, )" + processors + "}", {"units.tmie: unknown field"});
  expect_error(R"({"model": "cluster", "units": {"time": ""}, )" + processors + "}", {"units.time", "not a unit"});
  expect_error(R"({"model": "graph", "units": {"time": "ms"}, "nodes": [{"id": "A"}, {"id": "B"}],
                  "edges": [{"from": "A", "to": "B", "latency": 0.001, "bandwidth": 1e6}]})",
               {"units.time", "seconds"});
}

TEST(PlatformUnits, GraphsInSecondsWhenEdgesGiveLatencyAndBandwidth) {
  LoadedPlatform costs = parse_platform_json(
      R"({"model": "graph", "symmetric": true, "units": {"time": "ms"}, "nodes": [{"id": "A"}, {"id": "B"}],
          "edges": [{"from": "A", "to": "B", "cost": 2}]})",
      "g.json");
  EXPECT_EQ(costs.graph().time_unit(), "ms");
  EXPECT_EQ(cluster_from_platform(costs.graph(), std::nullopt, "g.json").time_unit(), "ms");
  LoadedPlatform affine = parse_platform_json(
      R"({"model": "graph", "symmetric": true, "nodes": [{"id": "A"}, {"id": "B"}],
          "edges": [{"from": "A", "to": "B", "latency": 0.001, "bandwidth": 1e6}]})",
      "g.json");
  EXPECT_EQ(affine.graph().time_unit(), "s");
  EXPECT_EQ(cluster_from_platform(affine.graph(), 1000.0, "g.json").time_unit(), "s");
}

TEST(PlatformJsonUnits, QuantitiesWithUnitsAndSites) {
  LoadedPlatform loaded = parse_platform_json(
      R"({"model": "graph", "nodes": [{"id": "A", "site": "left", "speed": "2Gf", "send_overhead": "20us"},
                                       {"id": "B", "site": "right", "speed": 3}],
          "edges": [{"from": "A", "to": "B", "latency": "50us", "bandwidth": "1Gbps"},
                    {"from": "B", "to": "A", "latency": 1e-3, "bandwidth": "125MBps"}]})",
      "units.json");
  const Platform& platform = loaded.graph();
  EXPECT_EQ(platform.node(0).site, "left");
  EXPECT_EQ(platform.node(1).site, "right");
  EXPECT_DOUBLE_EQ(*platform.node(0).speed, 2e9);
  EXPECT_DOUBLE_EQ(*platform.node(1).speed, 3);
  EXPECT_DOUBLE_EQ(*platform.node(0).send_overhead, 20e-6);
  EXPECT_DOUBLE_EQ(*platform.edges()[0].latency, 50e-6);
  EXPECT_DOUBLE_EQ(*platform.edges()[0].bandwidth, 1.25e8);
  EXPECT_DOUBLE_EQ(*platform.edges()[1].bandwidth, 1.25e8);
  // Written back with the site (numbers in base units).
  std::ostringstream written;
  write_platform_json(written, platform);
  const Platform again = parse_platform_json(written.str(), "again.json").graph();
  EXPECT_EQ(again.node(0).site, "left");
  EXPECT_DOUBLE_EQ(*again.edges()[0].latency, 50e-6);
}

TEST(PlatformJsonErrors, BadUnitsAndSites) {
  expect_error(graph(kTwoNodes, R"({"from": "A", "to": "B", "latency": "5 parsecs", "bandwidth": 1})"),
               {"edges[0].latency"});
  expect_error(graph(kTwoNodes, R"({"from": "A", "to": "B", "latency": 0, "bandwidth": "fast"})"),
               {"edges[0].bandwidth"});
  expect_error(graph(kTwoNodes, R"({"from": "A", "to": "B", "latency": 0, "bandwidth": true})"),
               {"edges[0].bandwidth", "a number or a string with its unit"});
  expect_error(graph(R"({"id": "A", "speed": "1GHz"}, {"id": "B"})", R"({"from": "A", "to": "B", "cost": 1})"),
               {"nodes[0].speed"});
  expect_error(graph(R"({"id": "A", "site": ""}, {"id": "B"})", R"({"from": "A", "to": "B", "cost": 1})"),
               {"nodes[0].site", "non-empty string"});
  expect_error(graph(R"({"id": "A", "site": 2}, {"id": "B"})", R"({"from": "A", "to": "B", "cost": 1})"),
               {"nodes[0].site"});
}

}  // namespace
}  // namespace hetcoll
