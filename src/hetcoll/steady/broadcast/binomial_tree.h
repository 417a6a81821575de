// Binomial tree with shortest-path routing (Beaumont, Marchal, Robert 2004,
// sec. 3.1.4, Alg. 4): MPI's broadcast tree, blind to the topology, for
// comparison.
//
// The participants are numbered 0..p-1 with the source as 0 and the others
// in platform order. With m = floor(log2 p), stage s = 0..m-1 sends from
// X 2^(m-s) to X 2^(m-s) + 2^(m-s-1) for X = 0..2^s - 1 (a binomial tree on
// the first 2^m), then each u >= 2^m receives from u - 2^m. (The OCR'd
// Alg. 4 writes SHORTEST-PATH(u, u - 2^m); the text, "each of the remaining
// nodes x receives the message from one of the previous nodes (x - 2^m)",
// fixes the direction used here.) A transfer between two nodes that are not
// adjacent follows the cheapest path by slice time (model/shortest_paths.h;
// routers may relay), and is charged on every edge of it. Guarantee: none.
// Time O(p m log n), space O(n + m).
#pragma once

#include "hetcoll/steady/broadcast/tree_building.h"

namespace hetcoll {

BroadcastTree binomial_tree(const TreeProblem& problem);

}  // namespace hetcoll
