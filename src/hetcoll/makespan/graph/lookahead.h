// ECEF with look-ahead on a platform graph (Bhat, Raghavendra, Prasanna
// 2003): like ECEF, but a transfer's key adds how soon its receiver could
// itself serve someone: key(u -> v) = completion(u -> v) + L(v), with
// L(v) = the cheapest route from v to a member that must still receive
// (0 when v would be the last). A receiver that is a good relay (a site
// gateway with a cheap LAN, a fast node) is informed early.
//
// Problem: broadcast / multicast (and, through graph_planner.h, reduce and
// all-reduce) on a platform graph, model/graph_network.h.
// Guarantee: none (heuristic).
// Complexity: O(n² log n) time (each member's routes sorted once, L(v)
// advanced past informed members, amortised O(n) per member), O(n²) space;
// on a cluster behind one switch with equal route times, L(v) is counted
// and the loop needs O(n log n) key evaluations (greedy_broadcast.h), O(n²)
// space for the times only. Refuses more than kMaxFlatMembers participants.
// Ties: as ECEF (greedy_broadcast.h).
#pragma once

#include "hetcoll/makespan/graph/graph_planner.h"

namespace hetcoll {

EngineResult broadcast_lookahead(const GraphNetwork& network, const BroadcastTask& task);

// The same rule on a prepared state (the hierarchical planner's levels share
// one timeline): places transfers until every member that must receive has.
struct FlatBroadcast;
void run_lookahead(const GraphNetwork& network, FlatBroadcast& state);

}  // namespace hetcoll
