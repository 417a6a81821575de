// write_simgrid_xml: what it writes reads back through the SimGrid importer
// with the same latency and bandwidth for every ordered pair.
#include <gtest/gtest.h>

#include <sstream>

#include "hetcoll/core/error.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"
#include "hetcoll/model/simgrid/simgrid_xml_writer.h"

namespace hetcoll {
namespace {

TEST(SimgridXmlWriter, RoundTripKeepsEveryPairsLatencyAndBandwidth) {
  std::vector<PlatformNode> nodes(3);
  nodes[0].id = "alpha";
  nodes[1].id = "beta";
  nodes[2].id = "gamma-1";
  nodes[2].speed = 2.5e9;
  std::vector<PlatformEdge> edges;
  double latency = 1.25e-5;
  for (ProcessorIndex u = 0; u < 3; ++u) {
    for (ProcessorIndex v = 0; v < 3; ++v) {
      if (u == v) continue;
      PlatformEdge edge;
      edge.from = u;
      edge.to = v;
      edge.latency = latency * (1 + u + 3 * v) / 7;
      edge.bandwidth = 1.0e8 / (1 + u) + 12345.678 * v;
      edges.push_back(edge);
    }
  }
  Platform platform(nodes, edges, "written");
  std::ostringstream xml;
  write_simgrid_xml(xml, platform, "a comment -- with dashes", "written");
  auto back = parse_simgrid_xml(xml.str(), "written.xml");
  std::vector<ProcessorIndex> hosts;
  for (ProcessorIndex v = 0; v < back.size(); ++v) {
    if (back.node(v).kind == NodeKind::host) hosts.push_back(v);
  }
  ASSERT_EQ(hosts.size(), 3u);
  for (const auto& edge : edges) {
    auto from = back.find(platform.id(edge.from));
    auto to = back.find(platform.id(edge.to));
    ASSERT_TRUE(from && to);
    auto route = back.route(*from, *to, back.edge_costs(1.0));
    ASSERT_TRUE(route.has_value());
    // A message of S bytes takes latency + S / bandwidth, as written.
    for (double size : {0.0, 1e6}) {
      EXPECT_NEAR(back.route_time(*route, size), *edge.latency + size / *edge.bandwidth, 1e-12 * (1 + size))
          << platform.id(edge.from) << " -> " << platform.id(edge.to);
    }
  }
  EXPECT_NE(xml.str().find("speed=\"2500000000f\""), std::string::npos);
}

TEST(SimgridXmlWriter, RefusesNetworkElements) {
  PlatformNode host, router;
  host.id = std::string("host");
  router.id = std::string("router");
  router.kind = NodeKind::router;
  router.router = true;
  std::vector<PlatformNode> nodes{host, router};
  Platform platform(nodes, {}, "p");
  std::ostringstream xml;
  EXPECT_THROW(write_simgrid_xml(xml, platform, "", "p"), InputError);
}

}  // namespace
}  // namespace hetcoll
