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

}  // namespace hetcoll
