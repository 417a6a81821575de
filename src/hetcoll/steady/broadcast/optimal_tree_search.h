// The optimal single pipelined broadcast tree (STP) by branch and bound, for
// small platforms (ours; Beaumont, Marchal, Robert 2004 note the problem is
// NP-hard and measure heuristics only against the multi-tree bound).
//
// Searches arborescences of platform edges only. This loses nothing: a
// routed tree edge u -> w through v can be replaced by v -> w (v already
// holds the slice), which removes a second reception at v and a second
// sending of u without adding any load (one-port and multi-port alike).
// Nodes are assigned parents one at a time, most constrained first (fewest
// in-edges, then largest cheapest in-edge); a parent u is tried in order of
// the period it would give; a partial assignment is cut when a node's period
// already reaches the incumbent's (periods only grow as children are added)
// or when a parent choice closes a cycle. Routers may stay out of the tree.
// The incumbent starts from `initial` (e.g. the local-improvement tree).
// Guarantee: exact when `finished`; otherwise the best tree found when a
// limit (SearchLimits, core/limits.h: node limit, exact; time limit;
// progress callback) stopped the search, with `status` saying which.
// Default limit: 20,000,000 nodes. Time exponential (about prod of in-degrees in the
// worst case); practical up to about 12-16 nodes of degree 3-4.
#pragma once

#include <cstdint>

#include "hetcoll/core/limits.h"

#include "hetcoll/steady/broadcast/tree_building.h"

namespace hetcoll {

struct OptimalTreeResult {
  BroadcastTree tree;
  double period = 0;
  bool finished = false;       // true: `tree` is optimal (status == finished)
  SearchStatus status = SearchStatus::finished;
  std::uint64_t nodes = 0;     // search nodes visited (at most the node limit)
};

inline constexpr std::uint64_t kDefaultTreeSearchNodeLimit = 20'000'000;

inline SearchLimits default_tree_search_limits() {
  SearchLimits limits;
  limits.node_limit = kDefaultTreeSearchNodeLimit;
  return limits;
}

OptimalTreeResult optimal_tree_search(const TreeProblem& problem, const BroadcastTree& initial,
                                      const SearchLimits& limits = default_tree_search_limits());

}  // namespace hetcoll
