#include "support/eager_support.h"

#include <algorithm>
#include <functional>
#include <string>

namespace hetcoll::testing {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// Calls visit(parent) for every parent vector that is a tree rooted at s
// (parent[s] unused) over connected pairs: cost[parent[v]][v] for a
// broadcast (from_parent) or cost[v][parent[v]] for a reduce.
void for_each_tree(const PairMatrix& cost, std::size_t s, bool from_parent,
                   const std::function<void(const std::vector<std::size_t>&)>& visit) {
  const std::size_t k = cost.size();
  std::vector<std::size_t> parent(k, 0);
  std::function<void(std::size_t)> choose = [&](std::size_t v) {
    if (v == k) {
      for (std::size_t u = 0; u < k; ++u) {
        std::size_t at = u;
        for (std::size_t steps = 0; at != s; ++steps) {
          if (steps > k) return;
          at = parent[at];
        }
      }
      visit(parent);
      return;
    }
    if (v == s) {
      choose(v + 1);
      return;
    }
    for (std::size_t p = 0; p < k; ++p) {
      if (p != v && (from_parent ? cost[p][v] : cost[v][p]).connected()) {
        parent[v] = p;
        choose(v + 1);
      }
    }
  };
  choose(0);
}

// Calls visit(children) for every combination of orders of every node's children.
void for_each_order(std::vector<std::vector<std::size_t>> children,
                    const std::function<void(const std::vector<std::vector<std::size_t>>&)>& visit) {
  for (auto& list : children) std::sort(list.begin(), list.end());
  std::function<void(std::size_t)> order = [&](std::size_t u) {
    if (u == children.size()) {
      visit(children);
      return;
    }
    do {
      order(u + 1);
    } while (std::next_permutation(children[u].begin(), children[u].end()));
  };
  order(0);
}

std::vector<std::vector<std::size_t>> children_of(const std::vector<std::size_t>& parent, std::size_t s) {
  std::vector<std::vector<std::size_t>> children(parent.size());
  for (std::size_t v = 0; v < parent.size(); ++v) {
    if (v != s) children[parent[v]].push_back(v);
  }
  return children;
}

}  // namespace

// A pair's eager cost from the platform's route, written without the
// library's eager_cost: latencies add up; fixed costs and size / narrowest
// bandwidth occupy the sender.
Pair independent_cost(const Platform& platform, ProcessorIndex from, ProcessorIndex to, double size) {
  const auto route = platform.route(from, to, platform.edge_costs(size));
  if (!route || route->empty()) return {};
  Pair pair{0, 0};
  double narrowest = kInf;
  for (auto e : *route) {
    const auto& edge = platform.edges()[e];
    if (edge.cost) {
      pair.occupancy += *edge.cost;
    } else {
      pair.delay += *edge.latency;
      narrowest = std::min(narrowest, *edge.bandwidth);
    }
  }
  if (narrowest < kInf) pair.occupancy += size / narrowest;
  return pair;
}

// Random strongly connected platforms: hosts and a few routers on a random
// cycle plus extra edges, most with latency and bandwidth, some with a
// fixed cost.
Platform random_eager_platform(std::mt19937_64& rng, int hosts, int routers, bool fixed_costs_too) {
  std::vector<PlatformNode> nodes;
  for (int h = 0; h < hosts; ++h) nodes.push_back(PlatformNode::host(std::string("h").append(std::to_string(h))));
  for (int r = 0; r < routers; ++r) nodes.push_back(PlatformNode::forwarder(std::string("r").append(std::to_string(r))));
  const int n = hosts + routers;
  std::uniform_real_distribution<double> unit(0, 1);
  const double latencies[] = {0, 1e-6, 5e-6, 2e-5, 5e-5, 1e-4};
  const double bandwidths[] = {1e6, 1.25e7, 1e8, 1.25e8, 1e9};
  auto random_edge = [&](int from, int to) {
    PlatformEdge edge;
    edge.from = from;
    edge.to = to;
    if (fixed_costs_too && unit(rng) < 0.2) {
      edge.cost = 1e-5 * static_cast<double>(1 + rng() % 8);
    } else {
      edge.latency = latencies[rng() % 6];
      edge.bandwidth = bandwidths[rng() % 5];
    }
    return edge;
  };
  std::vector<int> cycle(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) cycle[static_cast<size_t>(i)] = i;
  std::shuffle(cycle.begin(), cycle.end(), rng);
  std::vector<PlatformEdge> edges;
  for (int i = 0; i < n; ++i) edges.push_back(random_edge(cycle[static_cast<size_t>(i)], cycle[static_cast<size_t>((i + 1) % n)]));
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a != b && unit(rng) < 0.4) edges.push_back(random_edge(a, b));
    }
  }
  return Platform(std::move(nodes), std::move(edges), "random eager platform");
}

// Every host to every other: latency L, bandwidth B.
Platform homogeneous_complete(int hosts, double latency, double bandwidth) {
  std::vector<PlatformNode> nodes;
  for (int h = 0; h < hosts; ++h) nodes.push_back(PlatformNode::host(std::string("h").append(std::to_string(h))));
  std::vector<PlatformEdge> edges;
  for (int a = 0; a < hosts; ++a) {
    for (int b = 0; b < hosts; ++b) {
      if (a == b) continue;
      PlatformEdge edge;
      edge.from = a;
      edge.to = b;
      edge.latency = latency;
      edge.bandwidth = bandwidth;
      edges.push_back(edge);
    }
  }
  return Platform(std::move(nodes), std::move(edges), "homogeneous");
}


Platform liu_kuo_wang_sender_speed_graph() {
  std::vector<PlatformNode> nodes;
  std::vector<PlatformEdge> edges;
  for (int h = 0; h < 8; ++h) nodes.push_back(PlatformNode::host(std::string("h").append(std::to_string(h))));
  for (int h = 0; h < 8; ++h) {
    const double f = h < 4 ? 1.0 : 1.6;
    for (int to = 0; to < 8; ++to) {
      if (to == h) continue;
      PlatformEdge edge;
      edge.from = h;
      edge.to = to;
      edge.latency = 5e-5 * f;
      edge.bandwidth = 1.25e7 / f;
      edges.push_back(edge);
    }
  }
  return Platform(std::move(nodes), std::move(edges), "sec6.1");
}

PairMatrix independent_costs(const Platform& platform, double size) {
  const auto members = platform.participants();
  const std::size_t k = members.size();
  PairMatrix cost(k, std::vector<Pair>(k));
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t b = 0; b < k; ++b) {
      if (a != b) cost[a][b] = independent_cost(platform, members[a], members[b], size);
    }
  }
  return cost;
}

PairMatrix transpose(const PairMatrix& cost) {
  PairMatrix result(cost.size(), std::vector<Pair>(cost.size()));
  for (std::size_t a = 0; a < cost.size(); ++a) {
    for (std::size_t b = 0; b < cost.size(); ++b) result[b][a] = cost[a][b];
  }
  return result;
}

double brute_force_eager_broadcast(const PairMatrix& cost, std::size_t s) {
  const std::size_t k = cost.size();
  double best = kInf;
  for_each_tree(cost, s, true, [&](const std::vector<std::size_t>& parent) {
    for_each_order(children_of(parent, s), [&](const std::vector<std::vector<std::size_t>>& children) {
      std::vector<double> arrival(k, kInf);
      arrival[s] = 0;
      for (std::size_t round = 0; round < k; ++round) {
        for (std::size_t w = 0; w < k; ++w) {
          if (arrival[w] == kInf) continue;
          double occupied = 0;
          for (auto c : children[w]) {
            occupied += cost[w][c].occupancy;
            arrival[c] = arrival[w] + cost[w][c].delay + occupied;
          }
        }
      }
      best = std::min(best, *std::max_element(arrival.begin(), arrival.end()));
    });
  });
  return best;
}

double brute_force_eager_reduce(const PairMatrix& cost, std::size_t r) {
  const std::size_t k = cost.size();
  double best = kInf;
  for_each_tree(cost, r, false, [&](const std::vector<std::size_t>& parent) {
    for_each_order(children_of(parent, r), [&](const std::vector<std::vector<std::size_t>>& children) {
      // ready[u]: when u holds every contribution of its subtree; bottom-up
      // by repeated passes (k passes settle a tree of depth < k).
      std::vector<double> ready(k, 0);
      for (std::size_t round = 0; round < k; ++round) {
        for (std::size_t u = 0; u < k; ++u) {
          double last = 0;
          for (auto c : children[u]) {
            const Pair& pair = cost[c][u];
            last = std::max(ready[c] + pair.delay + pair.occupancy, last + pair.occupancy);
          }
          ready[u] = last;
        }
      }
      best = std::min(best, ready[r]);
    });
  });
  return best;
}

}  // namespace hetcoll::testing
