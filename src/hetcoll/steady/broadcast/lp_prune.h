// Communication-graph pruning, LP-Prune (Beaumont, Marchal, Robert 2004,
// sec. 4.2.1, Alg. 6).
//
// Weights every platform edge by n_{u,v}, the slices per time unit it
// carries in an optimal solution of the SSB linear program (eq. 2), then
// deletes edges carrying the FEWEST slices first, each only when every
// participant stays reachable. (The OCR'd Alg. 6 reads "sorted by
// non-increasing value of n_{u,v}"; the text just above it says "we delete
// the edges which ... have minimum weight, i.e. edges carrying the fewest
// messages", which is the reading taken here.) Ties: larger slice time
// first, then the lower edge index. Guarantee: none (heuristic; 73-82% of
// the optimum on Tiers platforms in the paper). Time O(m (n + m)) after the LP.
#pragma once

#include "hetcoll/steady/broadcast/tree_building.h"

namespace hetcoll {

// Needs problem.lp_edge_rates (InputError otherwise).
BroadcastTree lp_prune_tree(const TreeProblem& problem);

}  // namespace hetcoll
