// Multi-port growing tree (Beaumont, Marchal, Robert 2004, sec. 3.2, Alg. 5).
//
// Alg. 3 with the multi-port period of the sending node as the key: adding
// (u, v) gives u the period max((|children(u)| + 1) x send_u, c(u, v),
// max c(u, w) over its children w). (The OCR'd update uses |children[u]|
// after the child was added, i.e. the period the next edge would give; the
// key here is the period u would have with (u, v) added, the same rule
// applied before the choice.) Ties: the lower edge index. Guarantee: none
// (heuristic). Time O(n m), space O(n + m).
#pragma once

#include "hetcoll/steady/broadcast/tree_building.h"

namespace hetcoll {

BroadcastTree multiport_grow_tree(const TreeProblem& problem);

}  // namespace hetcoll
