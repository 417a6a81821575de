// Shortest paths on a platform graph, for routing a transfer between two
// nodes that are not adjacent (the graph planners, the steady-state LPs'
// routed trees, the binomial tree of Beaumont, Marchal, Robert 2004 Alg. 4).
//
// Dijkstra with a binary heap: O(m log n) time, O(n) space per tree. Edge
// costs are given per edge (Platform::edge_costs for a message size), must be
// non-negative; an edge of infinite cost is absent.
// Tie rule (deterministic): nodes are settled in (distance, index) order and
// a node keeps the first parent edge that reached it with its final distance,
// so equal-length paths resolve to the same route on every run.
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/platform.h"

namespace hetcoll {

inline constexpr std::size_t kNoEdge = std::numeric_limits<std::size_t>::max();

struct ShortestPathTree {
  enum class Direction { from_root, to_root };
  Direction direction = Direction::from_root;
  ProcessorIndex root = kNoProcessor;
  // from_root: cost of the cheapest path root -> v; to_root: v -> root.
  // +infinity when there is none.
  std::vector<double> distance;
  // The edge (index into Platform::edges()) that joins v to the tree: for
  // from_root the last edge of the path root -> v, for to_root the first
  // edge of the path v -> root. kNoEdge for the root and unreachable nodes.
  std::vector<std::size_t> tree_edge;

  bool reaches(ProcessorIndex v) const {
    return distance[static_cast<std::size_t>(v)] < std::numeric_limits<double>::infinity();
  }
  // The path's edges in travel order (root -> v, or v -> root); empty for the
  // root and for unreachable nodes.
  std::vector<std::size_t> path(const Platform& platform, ProcessorIndex v) const;
};

// Cheapest paths from `root` to every node. `through_routers` = false forbids
// paths that pass through a router (a router may still be an end point).
ShortestPathTree shortest_paths_from(const Platform& platform, ProcessorIndex root,
                                     const std::vector<double>& edge_costs, bool through_routers = true);

// Cheapest paths from every node to `root` (on the reversed graph).
ShortestPathTree shortest_paths_to(const Platform& platform, ProcessorIndex root,
                                   const std::vector<double>& edge_costs, bool through_routers = true);

// Platform::route's rule for adjacent nodes: the cheapest direct edge
// from -> to under `edge_costs` (infinite: absent), the first listed among
// equals; nullopt when there is none.
std::optional<std::size_t> cheapest_direct_edge(const Platform& platform, ProcessorIndex from, ProcessorIndex to,
                                                const std::vector<double>& edge_costs);

}  // namespace hetcoll
