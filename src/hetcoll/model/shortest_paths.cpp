#include "hetcoll/model/shortest_paths.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace hetcoll {

namespace {

ShortestPathTree dijkstra(const Platform& platform, ProcessorIndex root, const std::vector<double>& edge_costs,
                          bool through_routers, ShortestPathTree::Direction direction) {
  const auto n = static_cast<std::size_t>(platform.size());
  const bool forward = direction == ShortestPathTree::Direction::from_root;
  ShortestPathTree tree;
  tree.direction = direction;
  tree.root = root;
  tree.distance.assign(n, std::numeric_limits<double>::infinity());
  tree.tree_edge.assign(n, kNoEdge);
  std::vector<char> settled(n, 0);
  using Entry = std::pair<double, ProcessorIndex>;  // (distance, node): ties settle the lower index first
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  tree.distance[static_cast<std::size_t>(root)] = 0;
  queue.emplace(0.0, root);
  while (!queue.empty()) {
    auto [distance, v] = queue.top();
    queue.pop();
    auto vi = static_cast<std::size_t>(v);
    if (settled[vi]) continue;
    settled[vi] = 1;
    // A router can end a path but not relay one when through_routers is off.
    if (!through_routers && v != root && platform.node(v).router) continue;
    const auto& incident = forward ? platform.out_edges(v) : platform.in_edges(v);
    for (std::size_t e : incident) {
      double cost = edge_costs[e];
      if (!(cost < std::numeric_limits<double>::infinity())) continue;
      const auto& edge = platform.edges()[e];
      ProcessorIndex w = forward ? edge.to : edge.from;
      auto wi = static_cast<std::size_t>(w);
      if (settled[wi]) continue;
      double candidate = distance + cost;
      if (candidate < tree.distance[wi]) {
        tree.distance[wi] = candidate;
        tree.tree_edge[wi] = e;
        queue.emplace(candidate, w);
      }
    }
  }
  return tree;
}

}  // namespace

std::vector<std::size_t> ShortestPathTree::path(const Platform& platform, ProcessorIndex v) const {
  std::vector<std::size_t> edges;
  if (!reaches(v)) return edges;
  const bool forward = direction == Direction::from_root;
  while (v != root) {
    std::size_t e = tree_edge[static_cast<std::size_t>(v)];
    edges.push_back(e);
    v = forward ? platform.edges()[e].from : platform.edges()[e].to;
  }
  if (forward) std::reverse(edges.begin(), edges.end());
  return edges;
}

ShortestPathTree shortest_paths_from(const Platform& platform, ProcessorIndex root,
                                     const std::vector<double>& edge_costs, bool through_routers) {
  return dijkstra(platform, root, edge_costs, through_routers, ShortestPathTree::Direction::from_root);
}

ShortestPathTree shortest_paths_to(const Platform& platform, ProcessorIndex root,
                                   const std::vector<double>& edge_costs, bool through_routers) {
  return dijkstra(platform, root, edge_costs, through_routers, ShortestPathTree::Direction::to_root);
}

std::optional<std::size_t> cheapest_direct_edge(const Platform& platform, ProcessorIndex from, ProcessorIndex to,
                                                const std::vector<double>& edge_costs) {
  std::optional<std::size_t> best;
  for (std::size_t e : platform.out_edges(from)) {
    if (platform.edges()[e].to != to) continue;
    if (!(edge_costs[e] < std::numeric_limits<double>::infinity())) continue;
    if (!best || edge_costs[e] < edge_costs[*best]) best = e;
  }
  return best;
}

// Platform's routing (platform.h) is defined here, beside the shortest
// paths it falls back on, so that platform.h need not know them.

std::optional<Route> Platform::route(ProcessorIndex from, ProcessorIndex to,
                                     const std::vector<double>& edge_costs) const {
  if (from == to) return Route{};
  if (auto declared = declared_route(from, to)) return declared;
  if (auto direct = cheapest_direct_edge(*this, from, to, edge_costs)) return Route{*direct};
  ShortestPathTree tree = shortest_paths_from(*this, from, edge_costs);
  if (!tree.reaches(to)) return std::nullopt;
  return tree.path(*this, to);
}

std::vector<std::optional<Route>> Platform::routes_from(ProcessorIndex from,
                                                        const std::vector<double>& edge_costs) const {
  std::vector<ProcessorIndex> everyone(nodes_.size());
  for (ProcessorIndex v = 0; v < size(); ++v) everyone[static_cast<size_t>(v)] = v;
  return routes_from(from, edge_costs, everyone);
}

std::vector<std::optional<Route>> Platform::routes_from(ProcessorIndex from, const std::vector<double>& edge_costs,
                                                        const std::vector<ProcessorIndex>& targets) const {
  std::vector<std::optional<Route>> routes(targets.size());
  std::optional<ShortestPathTree> tree;  // computed when a pair needs it
  for (size_t k = 0; k < targets.size(); ++k) {
    ProcessorIndex to = targets[k];
    if (to == from) {
      routes[k] = Route{};
    } else if (auto declared = declared_route(from, to)) {
      routes[k] = std::move(declared);
    } else if (auto direct = cheapest_direct_edge(*this, from, to, edge_costs)) {
      routes[k] = Route{*direct};
    } else {
      if (!tree) tree = shortest_paths_from(*this, from, edge_costs);
      if (tree->reaches(to)) routes[k] = tree->path(*this, to);
    }
  }
  return routes;
}

}  // namespace hetcoll
