// EagerMatrix (model/eager_model.h) against the per-route costs it stands
// for: every entry must equal eager_cost of the platform's own route for
// that pair (Platform::route, one search per pair), bit for bit, and the
// smallest occupancy and delay must be the minima over those pairs. On
// random graphs (the matrix searches routes) and on SimGrid <cluster>s, one
// or several, whole or in part, in any member order (the matrix builds
// pairs that meet at a cluster's switch from the two route halves).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "hetcoll/model/eager_model.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"

namespace hetcoll {
namespace {

// The reference: one route per pair, timed by eager_cost.
void expect_per_route_costs(const GraphNetwork& network, const std::vector<ProcessorIndex>& members) {
  const EagerMatrix matrix(network, members);
  ASSERT_EQ(matrix.size(), members.size());
  double smallest_occupancy = kNoRoute, smallest_delay = kNoRoute;
  std::size_t connected = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    for (std::size_t j = 0; j < members.size(); ++j) {
      const EagerCost& cost = matrix.cost(i, j);
      const auto route = network.route(members[i], members[j]);
      if (i == j || !route || route->empty()) {
        EXPECT_FALSE(cost.connected()) << i << " -> " << j;
        continue;
      }
      const EagerCost expected = eager_cost(network, *route);
      ASSERT_EQ(cost.occupancy, expected.occupancy) << members[i] << " -> " << members[j];
      ASSERT_EQ(cost.delay, expected.delay) << members[i] << " -> " << members[j];
      smallest_occupancy = std::min(smallest_occupancy, expected.occupancy);
      smallest_delay = std::min(smallest_delay, expected.delay);
      ++connected;
    }
  }
  EXPECT_EQ(matrix.smallest_occupancy(), smallest_occupancy);
  EXPECT_EQ(matrix.smallest_delay(), smallest_delay);
  if (members.size() >= 2) { EXPECT_GT(connected, 0u); }
}

std::vector<ProcessorIndex> shuffled_part(std::vector<ProcessorIndex> all, std::mt19937_64& rng, bool whole) {
  std::shuffle(all.begin(), all.end(), rng);
  if (!whole && all.size() > 2) all.resize(2 + rng() % (all.size() - 1));
  return all;
}

// Random graphs of hosts and routers: a random cycle plus extra edges, with
// latency and bandwidth or (some) a fixed cost, sometimes one-way only.
Platform random_platform(std::mt19937_64& rng, int hosts, int routers) {
  std::vector<PlatformNode> nodes;
  for (int h = 0; h < hosts; ++h) nodes.push_back(PlatformNode::host(std::string("h").append(std::to_string(h))));
  for (int r = 0; r < routers; ++r) nodes.push_back(PlatformNode::forwarder(std::string("r").append(std::to_string(r))));
  const int n = hosts + routers;
  const double latencies[] = {0, 1e-6, 5e-6, 2e-5, 5e-5, 1e-4};
  const double bandwidths[] = {1e6, 1.25e7, 1e8, 1.25e8, 1e9};
  auto random_edge = [&](int from, int to) {
    PlatformEdge edge;
    edge.from = from;
    edge.to = to;
    if (rng() % 5 == 0) {
      edge.cost = 1e-5 * static_cast<double>(1 + rng() % 8);
    } else {
      edge.latency = latencies[rng() % 6];
      edge.bandwidth = bandwidths[rng() % 5];
    }
    return edge;
  };
  std::vector<int> cycle(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) cycle[static_cast<std::size_t>(i)] = i;
  std::shuffle(cycle.begin(), cycle.end(), rng);
  std::vector<PlatformEdge> edges;
  // Half the graphs are strongly connected (a cycle); the others may leave
  // pairs without a route.
  const bool cyclic = rng() % 2 == 0;
  for (int i = 0; i + (cyclic ? 0 : 1) < n; ++i) {
    edges.push_back(random_edge(cycle[static_cast<std::size_t>(i)], cycle[static_cast<std::size_t>((i + 1) % n)]));
  }
  const int extra = n + static_cast<int>(rng() % static_cast<unsigned>(2 * n));
  for (int e = 0; e < extra; ++e) {
    const int a = static_cast<int>(rng() % static_cast<unsigned>(n));
    const int b = static_cast<int>(rng() % static_cast<unsigned>(n));
    if (a != b) edges.push_back(random_edge(a, b));
  }
  return Platform(std::move(nodes), std::move(edges), "random");
}

TEST(EagerMatrix, RandomGraphsGiveThePerRouteCosts) {
  std::mt19937_64 rng(2026'11'27);
  for (int instance = 0; instance < 60; ++instance) {
    SCOPED_TRACE(instance);
    const int hosts = 2 + static_cast<int>(rng() % 14), routers = static_cast<int>(rng() % 6);
    const Platform platform = random_platform(rng, hosts, routers);
    const GraphNetwork network(platform, static_cast<double>(1 + rng() % 4096));
    expect_per_route_costs(network, shuffled_part(platform.participants(), rng, instance % 2 == 0));
  }
}

std::string zone(const std::string& body) {
  return "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"world\" routing=\"Full\">\n" + body +
         "</zone>\n</platform>\n";
}

std::string cluster(const std::string& id, int hosts, const std::string& extra) {
  return "<cluster id=\"" + id + "\" prefix=\"" + id + "-\" radical=\"0-" + std::to_string(hosts - 1) +
         "\" suffix=\"\" speed=\"1Gf\" " + extra + "/>\n";
}

TEST(EagerMatrix, SimgridClustersGiveThePerRouteCosts) {
  // One <cluster> in its variants: a crossbar, a backbone, SHARED links
  // (one link both ways), FATPIPE, a limiter link, a loopback.
  const std::vector<std::string> variants = {
      "bw=\"125MBps\" lat=\"50us\"",
      "bw=\"125MBps\" lat=\"50us\" bb_bw=\"2.25GBps\" bb_lat=\"500us\"",
      "bw=\"125MBps\" lat=\"50us\" bb_bw=\"2.25GBps\" bb_lat=\"0us\"",
      "bw=\"125MBps\" lat=\"50us\" sharing_policy=\"SHARED\"",
      "bw=\"1Gbps\" lat=\"3us\" bb_bw=\"1GBps\" sharing_policy=\"FATPIPE\" bb_sharing_policy=\"FATPIPE\"",
      "bw=\"125MBps\" lat=\"50us\" bb_bw=\"2.25GBps\" bb_lat=\"500us\" limiter_link=\"100MBps\"",
      "bw=\"125MBps\" lat=\"50us\" loopback_bw=\"1GBps\" loopback_lat=\"1us\"",
  };
  std::mt19937_64 rng(4096);
  for (const auto& extra : variants) {
    SCOPED_TRACE(extra);
    const Platform platform = parse_simgrid_xml(zone(cluster("c", 24, extra)), "cluster.xml");
    for (double size : {1.0, 256.0, 1e6}) {
      const GraphNetwork network(platform, size);
      expect_per_route_costs(network, platform.participants());
      expect_per_route_costs(network, shuffled_part(platform.participants(), rng, false));
    }
  }
}

TEST(EagerMatrix, SeveralClustersGiveThePerRouteCosts) {
  // Two <cluster>s joined by a WAN link: pairs inside a cluster meet at its
  // switch, pairs across clusters take the declared zone routes.
  const std::string xml =
      zone(cluster("a", 9, "bw=\"125MBps\" lat=\"50us\" router_id=\"ra\"") +
           cluster("b", 7, "bw=\"1GBps\" lat=\"5us\" bb_bw=\"10GBps\" bb_lat=\"1us\" router_id=\"rb\"") +
           "<link id=\"wan\" bandwidth=\"10MBps\" latency=\"10ms\"/>\n"
           "<zoneRoute src=\"a\" dst=\"b\" gw_src=\"ra\" gw_dst=\"rb\"><link_ctn id=\"wan\"/></zoneRoute>\n");
  const Platform platform = parse_simgrid_xml(xml, "two-clusters.xml");
  std::mt19937_64 rng(9);
  for (double size : {4.0, 65536.0}) {
    const GraphNetwork network(platform, size);
    expect_per_route_costs(network, platform.participants());
    for (int round = 0; round < 5; ++round) {
      expect_per_route_costs(network, shuffled_part(platform.participants(), rng, round % 2 == 0));
    }
  }
}

}  // namespace
}  // namespace hetcoll
