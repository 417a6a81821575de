// Simple platform pruning (Beaumont, Marchal, Robert 2004, sec. 3.1.1, Alg. 1).
//
// Problem: a spanning tree from the source with a good pipelined throughput
// (one-port). Method: visit the platform edges once by non-increasing slice
// time c(e) and delete each one whose deletion keeps every participant
// reachable from the source. One pass suffices: an edge that could not be
// deleted stays needed when more edges go. Guarantee: none (heuristic; the
// paper measures 30-46% of the multi-tree optimum on Tiers platforms).
// Time O(m (n + m)), space O(n + m). Ties: the lower edge index goes first.
#pragma once

#include "hetcoll/steady/broadcast/tree_building.h"

namespace hetcoll {

BroadcastTree simple_prune_tree(const TreeProblem& problem);

// Shared by the pruning heuristics: one pass over `order`, deleting every
// edge whose deletion keeps the participants reachable.
BroadcastTree prune_in_order(const TreeProblem& problem, const std::vector<std::size_t>& order);

}  // namespace hetcoll
