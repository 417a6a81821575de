// Refined platform pruning (Beaumont, Marchal, Robert 2004, sec. 3.1.2,
// Alg. 2) and its multi-port adaptation (sec. 5.2.2, "Multiport-Prune-Degree").
//
// Keeps the surviving edges' load of each node: one-port, OutDegree(u) =
// the sum of c(u, v) over u's surviving out-edges; multi-port, u's period
// max(d_out(u) x send_u, max c(u, v)) over them. Repeatedly takes the nodes
// by non-increasing load and, for the first node that has one, deletes its
// heaviest out-edge (largest c) whose deletion keeps every participant
// reachable, then re-sorts (Alg. 2's "goto 4"). Stops when no edge can go.
// Ties: equal loads to the lower node index, equal edges to the lower edge
// index. Guarantee: none (heuristic; 73-82% of the multi-tree optimum on
// Tiers platforms in the paper). Time O(m^2 (n + m)) worst case, O(n + m)
// space.
#pragma once

#include "hetcoll/steady/broadcast/tree_building.h"

namespace hetcoll {

// The load follows problem.costs.model.
BroadcastTree refined_prune_tree(const TreeProblem& problem);

}  // namespace hetcoll
