// Clusters behind one switch (SimGrid <cluster>s): the route matrix keeps
// their routes as halves through the hub (RouteMatrix::through_hub) and the
// greedy loop finds its minimum without the candidate queue
// (GreedyRule::uniform_keys). Both must give exactly what the general code
// gives: the routes, times and ports of Platform::route, and the plans the
// queue builds on the same cluster written as a plain complete graph.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hetcoll/registry/graph_registry.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"
#include "hetcoll/sim/makespan_simulation.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {
namespace {

// A <cluster> of `hosts` hosts ("n-0" ...); `extra` adds attributes
// (a backbone, a sharing policy).
Platform cluster(int hosts, const std::string& extra = "") {
  const std::string xml = "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"world\" routing=\"Full\">\n"
                          "<cluster id=\"c\" prefix=\"n-\" radical=\"0-" +
                          std::to_string(hosts - 1) +
                          "\" suffix=\"\" speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\" " + extra +
                          "/>\n</zone>\n</platform>\n";
  return parse_simgrid_xml(xml, "cluster.xml");
}

// The same hosts as a complete graph of direct edges costing `cost` (no
// declared routes: the general route matrix and the candidate queue).
Platform complete_graph(int hosts, double cost, std::optional<double> speed) {
  std::vector<PlatformNode> nodes;
  std::vector<PlatformEdge> edges;
  for (int v = 0; v < hosts; ++v) nodes.push_back(PlatformNode::host("n-" + std::to_string(v), speed));
  for (int a = 0; a < hosts; ++a) {
    for (int b = 0; b < hosts; ++b) {
      if (a != b) edges.push_back(PlatformEdge::with_cost(a, b, cost));
    }
  }
  return Platform(std::move(nodes), std::move(edges), "complete");
}

std::vector<ProcessorIndex> every_third_host(const Platform& platform) {
  std::vector<ProcessorIndex> members;
  const auto hosts = platform.participants();
  for (std::size_t i = 0; i < hosts.size(); i += 3) members.push_back(hosts[i]);
  return members;
}

template <class T>
std::vector<T> joined(const RouteMatrix::Parts<T>& parts) {
  std::vector<T> all(parts.first.begin(), parts.first.end());
  all.insert(all.end(), parts.second.begin(), parts.second.end());
  return all;
}

TEST(HubRoutes, TheMatrixThroughTheHubIsThePlatformsRoutes) {
  for (const std::string extra : {"", "bb_bw=\"2.25GBps\" bb_lat=\"500us\"", "sharing_policy=\"SHARED\""}) {
    SCOPED_TRACE(extra);
    const Platform platform = cluster(20, extra);
    for (auto rule : {OnePortRule::bidirectional, OnePortRule::unidirectional}) {
      GraphNetwork network(platform, 1e6, rule);
      const auto members = every_third_host(platform);
      for (bool reversed : {false, true}) {
        RouteMatrix table(network, members, reversed);
        ASSERT_TRUE(table.through_hub());
        EXPECT_TRUE(table.uniform_cost());
        for (std::size_t i = 0; i < table.size(); ++i) {
          for (std::size_t j = 0; j < table.size(); ++j) {
            if (i == j) continue;
            // Entry i -> j is the platform transfer i -> j (reversed: j -> i).
            const ProcessorIndex sender = table.member(reversed ? j : i), receiver = table.member(reversed ? i : j);
            const auto route = network.route(sender, receiver);
            ASSERT_TRUE(route);
            EXPECT_EQ(table.cost(i, j), network.route_time(*route));
            const auto edges = table.edges(i, j);
            EXPECT_EQ(Route(edges.begin(), edges.end()), *route);
            EXPECT_EQ(joined(table.route_parts(i, j)), *route);
            std::vector<PortId> held;
            network.held_ports(sender, receiver, *route, held);
            const auto ports = table.ports(i, j);
            EXPECT_EQ(std::vector<PortId>(ports.begin(), ports.end()), held);
            auto parts = joined(table.port_parts(i, j));
            std::sort(parts.begin(), parts.end());
            std::sort(held.begin(), held.end());
            EXPECT_EQ(parts, held);
          }
        }
      }
    }
  }
}

TEST(HubRoutes, AMatrixAcrossGroupsIsTheGeneralOne) {
  // Hosts of two clusters meet at no common hub: routes are looked up pair
  // by pair as before.
  const std::string xml =
      "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"world\" routing=\"Full\">\n"
      "<cluster id=\"a\" prefix=\"a-\" radical=\"0-3\" suffix=\"\" speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\" "
      "router_id=\"ra\"/>\n"
      "<cluster id=\"b\" prefix=\"b-\" radical=\"0-3\" suffix=\"\" speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\" "
      "router_id=\"rb\"/>\n"
      "<link id=\"wan\" bandwidth=\"10MBps\" latency=\"10ms\"/>\n"
      "<zoneRoute src=\"a\" dst=\"b\" gw_src=\"ra\" gw_dst=\"rb\"><link_ctn id=\"wan\"/></zoneRoute>\n"
      "</zone>\n</platform>\n";
  const Platform platform = parse_simgrid_xml(xml, "two.xml");
  GraphNetwork network(platform, 1e6);
  RouteMatrix across(network, platform.participants());
  EXPECT_FALSE(across.through_hub());
  EXPECT_FALSE(across.uniform_cost());
  RouteMatrix inside(network, {0, 1, 2, 3});
  EXPECT_TRUE(inside.through_hub());
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 4; ++j) {
      EXPECT_EQ(across.cost(i, j), inside.cost(i, j));
      if (i != j) {
        EXPECT_EQ(joined(across.route_parts(i, j)), joined(inside.route_parts(i, j)));
      }
    }
  }
}

MakespanRequest request_for(Operation operation) {
  MakespanRequest request;
  request.operation = operation;
  request.root = 0;
  return request;
}

// The cluster's plans (hub matrix, queue-free loop) are the complete graph's
// (general matrix, candidate queue) transfer for transfer: the cluster's
// private links are held exactly when their hosts' ports are.
TEST(HubRoutes, TheQueueFreeLoopPlansWhatTheQueuePlans) {
  for (int hosts : {2, 5, 37, 64}) {
    const Platform on_cluster = cluster(hosts);
    GraphNetwork cluster_network(on_cluster, 1e6);
    const double cost = RouteMatrix(cluster_network, {0, 1}).cost(0, 1);
    {
      // The cluster takes the fast path (ECEF and look-ahead keys are uniform).
      const RouteMatrix whole(cluster_network, on_cluster.participants());
      ASSERT_TRUE(whole.through_hub());
      ASSERT_TRUE(whole.uniform_cost());
    }
    const Platform on_graph = complete_graph(hosts, cost, 1e9);
    GraphNetwork graph_network(on_graph, 1e6);
    for (const char* algorithm : {"lookahead", "ecef", "hierarchical", "auto"}) {
      for (auto operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
        SCOPED_TRACE(std::to_string(hosts) + " hosts, " + algorithm + ", " + to_string(operation));
        const MakespanPlan fast = plan_graph_makespan(cluster_network, request_for(operation), algorithm);
        const MakespanPlan queued = plan_graph_makespan(graph_network, request_for(operation), algorithm);
        EXPECT_TRUE(verify(cluster_network, fast).valid) << verify(cluster_network, fast).summary();
        EXPECT_TRUE(verify(graph_network, queued).valid);
        EXPECT_NEAR(simulate(cluster_network, fast).makespan, fast.makespan, 1e-12);
        EXPECT_EQ(fast.makespan, queued.makespan);
        ASSERT_EQ(fast.transfers.size(), queued.transfers.size());
        for (std::size_t t = 0; t < fast.transfers.size(); ++t) {
          EXPECT_EQ(fast.transfers[t].from, queued.transfers[t].from) << t;
          EXPECT_EQ(fast.transfers[t].to, queued.transfers[t].to) << t;
          EXPECT_EQ(fast.transfers[t].start, queued.transfers[t].start) << t;
          EXPECT_EQ(fast.transfers[t].end, queued.transfers[t].end) << t;
        }
      }
    }
  }
}

// With equal costs ECEF and look-ahead double the informed set every round:
// ceil(log2 n) rounds, the one-port optimum. The look-ahead queue used to
// miss it: the last waiting member's look-ahead falls to 0, and candidates
// queued with the old, larger key were placed first (4 members: 3 rounds).
TEST(HubRoutes, EqualCostsBroadcastInLogRounds) {
  for (int hosts : {2, 3, 4, 8, 16, 33, 100}) {
    const double rounds = std::ceil(std::log2(static_cast<double>(hosts)));
    for (bool through_hub : {false, true}) {
      const Platform platform = through_hub ? cluster(hosts) : complete_graph(hosts, 1.0, std::nullopt);
      GraphNetwork network(platform, 1e6);
      const double cost = RouteMatrix(network, {0, 1}).cost(0, 1);
      for (const char* algorithm : {"lookahead", "ecef", "hierarchical"}) {
        SCOPED_TRACE(std::to_string(hosts) + " hosts, " + algorithm + (through_hub ? ", cluster" : ", graph"));
        const MakespanPlan plan = plan_graph_makespan(network, request_for(Operation::broadcast), algorithm);
        EXPECT_NEAR(plan.makespan, rounds * cost, 1e-9 * rounds * cost);
        EXPECT_TRUE(verify(network, plan).valid);
      }
    }
  }
}

}  // namespace
}  // namespace hetcoll
