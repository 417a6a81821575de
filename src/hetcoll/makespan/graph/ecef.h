// Earliest completing edge first (ECEF) on a platform graph (Bhat,
// Raghavendra, Prasanna 2003): among the transfers from a member that holds
// the message to one that must still receive it, place the one that would
// complete first, given when its sender, receiver and the one-port nodes on
// its route are free.
//
// Problem: broadcast / multicast (and, through graph_planner.h, reduce and
// all-reduce) on a platform graph, model/graph_network.h.
// Guarantee: none (heuristic); on a cluster seen as a graph it is FNF's
// rule (the earliest-finishing sender serves a receiver).
// Complexity: O(n² log n) time plus lazy re-evaluations, O(n²) space for n
// participants; O(n log n) key evaluations on a cluster behind one switch
// with equal route times (greedy_broadcast.h). Refuses more than
// kMaxFlatMembers participants.
// Ties: equal completion times go to the lower sender, then receiver, node
// index (greedy_broadcast.h).
#pragma once

#include "hetcoll/makespan/graph/graph_planner.h"

namespace hetcoll {

EngineResult broadcast_ecef(const GraphNetwork& network, const BroadcastTask& task);

}  // namespace hetcoll
