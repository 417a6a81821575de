// Growing a minimum weighted out-degree tree (Beaumont, Marchal, Robert
// 2004, sec. 3.1.3, Alg. 3), one-port.
//
// Prim-like: from the source, repeatedly add the edge (u, v), u in the tree
// and v not, whose addition leaves u with the smallest weighted out-degree,
// key(u, v) = c(u, v) + sum of c(u, w) over u's tree children w. (The OCR'd
// update line reads "cost(u, w) <- cost(u, w) + cost(u, v)"; with the text's
// definition, "the sum of the weights of the current tree edges outgoing
// from P_u", the added amount is the new edge's weight c(u, v), which is
// what is done here.) Ties: the lower edge index. Guarantee: none
// (heuristic; 71-75% of the optimum on Tiers platforms in the paper).
// Time O(n m), space O(n + m).
#pragma once

#include "hetcoll/steady/broadcast/tree_building.h"

namespace hetcoll {

BroadcastTree grow_tree(const TreeProblem& problem);

}  // namespace hetcoll
