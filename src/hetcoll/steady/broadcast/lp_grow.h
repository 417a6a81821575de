// Growing a spanning tree over the communication graph, LP-Grow-Tree
// (Beaumont, Marchal, Robert 2004, sec. 4.2.2, Alg. 7).
//
// Prim-like from the source, always adding the edge (u, v), u in the tree
// and v not, that carries the MOST slices per time unit, n_{u,v}, in an
// optimal solution of the SSB linear program (eq. 2). Ties: the smaller
// slice time c(u, v), then the lower edge index. Guarantee: none (heuristic;
// 73-82% of the optimum on Tiers platforms in the paper). Time O(n m) after
// the LP.
#pragma once

#include "hetcoll/steady/broadcast/tree_building.h"

namespace hetcoll {

// Needs problem.lp_edge_rates (InputError otherwise).
BroadcastTree lp_grow_tree(const TreeProblem& problem);

}  // namespace hetcoll
