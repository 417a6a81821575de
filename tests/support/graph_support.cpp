#include "support/graph_support.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <string>

namespace hetcoll::testing {

Platform random_graph(std::mt19937_64& rng, const RandomGraphOptions& options) {
  const int n = options.hosts + options.routers;
  std::vector<PlatformNode> nodes;
  std::uniform_int_distribution<int> speed(1, 4);
  for (int v = 0; v < n; ++v) {
    PlatformNode node;
    node.router = v >= options.hosts;
    node.id = node.router ? std::string("r").append(std::to_string(v - options.hosts)) : std::string("h").append(std::to_string(v));
    if (options.speeds && !node.router) node.speed = speed(rng) * 2.0;
    // Routers are one-port (a shared link) or unlimited (a crossbar); now
    // and then a host can send many messages at once.
    if (node.router ? rng() % 2 == 0 : rng() % 10 == 0) node.ports = PortModel::unlimited;
    nodes.push_back(node);
  }
  std::uniform_int_distribution<int> halves(2, 8);  // costs 1 .. 4 in halves
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  auto site = [&](int v) { return options.two_sites && v < options.hosts ? (v < options.hosts / 2 ? 0 : 1) : -1; };
  std::vector<PlatformEdge> edges;
  auto add = [&](int from, int to) {
    for (const auto& e : edges) {
      if (e.from == from && e.to == to) return;
    }
    PlatformEdge edge;
    edge.from = from;
    edge.to = to;
    double cost = halves(rng) / 2.0;
    if (options.two_sites && site(from) >= 0 && site(to) >= 0 && site(from) != site(to)) cost *= 10;
    edge.cost = cost;
    edges.push_back(edge);
  };
  std::vector<int> cycle(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) cycle[static_cast<std::size_t>(v)] = v;
  std::shuffle(cycle.begin(), cycle.end(), rng);
  for (int i = 0; i < n && n > 1; ++i) add(cycle[static_cast<std::size_t>(i)], cycle[static_cast<std::size_t>((i + 1) % n)]);
  for (int u = 0; u < n; ++u) {
    for (int v = u + 1; v < n; ++v) {
      if (coin(rng) >= options.extra_edge_probability) continue;
      if (coin(rng) < options.one_way_probability) {
        coin(rng) < 0.5 ? add(u, v) : add(v, u);
      } else {
        add(u, v);
        add(v, u);
      }
    }
  }
  return Platform(std::move(nodes), std::move(edges), "random graph");
}

namespace {

// Written from the model's statement (model/graph_network.h), not from its
// code: routes from Platform::route, times from Platform::route_time, and
// the ports held worked out here from the nodes' port models.
struct Exhaustive {
  std::vector<ProcessorIndex> members;
  std::vector<char> must;
  std::vector<std::vector<double>> duration;               // [u][v]; infinity without a route
  std::vector<std::vector<std::vector<std::size_t>>> ports;  // [u][v]: port ids held
  std::vector<double> informed, port_free;
  double best = std::numeric_limits<double>::infinity();

  void search(double makespan) {
    if (makespan >= best) return;
    bool done = true;
    for (std::size_t v = 0; v < members.size(); ++v) done = done && (!must[v] || informed[v] < kNoRoute);
    if (done) {
      best = makespan;
      return;
    }
    for (std::size_t u = 0; u < members.size(); ++u) {
      if (!(informed[u] < kNoRoute)) continue;
      for (std::size_t v = 0; v < members.size(); ++v) {
        if (informed[v] < kNoRoute || !(duration[u][v] < kNoRoute)) continue;
        double start = informed[u];
        for (auto p : ports[u][v]) start = std::max(start, port_free[p]);
        const double end = start + duration[u][v];
        std::vector<double> saved;
        for (auto p : ports[u][v]) saved.push_back(port_free[p]);
        for (auto p : ports[u][v]) port_free[p] = end;
        informed[v] = end;
        search(std::max(makespan, end));
        informed[v] = kNoRoute;
        for (std::size_t i = 0; i < saved.size(); ++i) port_free[ports[u][v][i]] = saved[i];
      }
    }
  }
};

double exhaustive(const GraphNetwork& network, ProcessorIndex source, const std::vector<ProcessorIndex>& targets,
                  bool reversed) {
  const Platform& platform = network.platform();
  const bool one_port_per_node = network.one_port_rule() == OnePortRule::unidirectional;
  Exhaustive search;
  search.members = platform.participants();
  const std::size_t k = search.members.size();
  for (auto v : search.members) {
    const bool wanted = targets.empty() || std::find(targets.begin(), targets.end(), v) != targets.end();
    search.must.push_back(v != source && wanted);
  }
  const auto costs = platform.edge_costs(network.message_size());
  auto port = [&](ProcessorIndex v, bool receive) {
    return 2 * static_cast<std::size_t>(v) + (receive && !one_port_per_node ? 1 : 0);
  };
  auto limited = [&](ProcessorIndex v) { return platform.node(v).ports == PortModel::one_port; };
  search.duration.assign(k, std::vector<double>(k, kNoRoute));
  search.ports.assign(k, std::vector<std::vector<std::size_t>>(k));
  for (std::size_t u = 0; u < k; ++u) {
    for (std::size_t v = 0; v < k; ++v) {
      if (u == v) continue;
      // Reversed: u -> v stands for the platform's transfer v -> u.
      const ProcessorIndex sender = search.members[reversed ? v : u], receiver = search.members[reversed ? u : v];
      auto route = platform.route(sender, receiver, costs);
      if (!route) continue;
      search.duration[u][v] = platform.route_time(*route, network.message_size());
      auto& held = search.ports[u][v];
      if (limited(sender)) held.push_back(port(sender, false));
      if (limited(receiver)) held.push_back(port(receiver, true));
      for (std::size_t step = 0; step + 1 < route->size(); ++step) {
        const ProcessorIndex inner = platform.edges()[(*route)[step]].to;
        if (!limited(inner)) continue;
        held.push_back(port(inner, true));
        if (!one_port_per_node) held.push_back(port(inner, false));
      }
    }
  }
  search.informed.assign(k, kNoRoute);
  search.port_free.assign(2 * static_cast<std::size_t>(platform.size()), 0);
  for (std::size_t i = 0; i < k; ++i) {
    if (search.members[i] == source) search.informed[i] = 0;
  }
  search.search(0);
  return search.best;
}

}  // namespace

double brute_force_broadcast(const GraphNetwork& network, ProcessorIndex source,
                             const std::vector<ProcessorIndex>& targets) {
  return exhaustive(network, source, targets, false);
}

double brute_force_reduce(const GraphNetwork& network, ProcessorIndex root) {
  return exhaustive(network, root, {}, true);
}

}  // namespace hetcoll::testing
