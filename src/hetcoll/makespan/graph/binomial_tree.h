// The binomial tree of MPI libraries (MPICH's and SimGrid SMPI's
// bcast-binomial-tree), placed on a platform graph: the shape MPI builds,
// timed by the graph model so that it is a plan like the others.
//
// Problem: broadcast / multicast (and, through graph_planner.h, reduce and
// all-reduce: the reversed broadcast, which receives the children in
// increasing distance as MPI's binomial reduce does) on a platform graph,
// model/graph_network.h.
// Shape: the members that take part (the source and those that must
// receive), in node-index order, rotated so that the source has relative
// rank 0; relative rank r receives from r - lowbit(r) and sends to r + m for
// m = lowbit(r)/2, ..., 2, 1 (the source: from the largest power of two
// below the member count down), largest subtree first. The transfers are
// placed round by round (largest m first), each as early as the model allows.
// Guarantee: none (heuristic); it ignores every cost. With k members it takes
// ceil(log2 k) rounds, each of one send per informed member.
// Complexity: O(k log k) placements plus the route table, O(k²) space for k
// members; refuses more than kMaxFlatMembers members.
// Reference: Thakur, Rabenseifner, Gropp, "Optimization of collective
// communication operations in MPICH", 2005 (sec. 4.1, binomial broadcast).
#pragma once

#include "hetcoll/makespan/graph/graph_planner.h"

namespace hetcoll {

EngineResult broadcast_binomial(const GraphNetwork& network, const BroadcastTask& task);

}  // namespace hetcoll
