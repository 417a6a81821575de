// Exact broadcast / multicast (and, through graph_planner.h, reduce and
// all-reduce) on a small platform graph: branch and bound over the order of
// transfers, in the model of model/graph_network.h.
//
// Problem: minimise the makespan of a broadcast from the source to the
// members that must receive, any participant may relay (helpers), on fixed
// the platform's routes, one-port nodes serving one transfer at a time.
// Search space: sequences of transfers u -> v (u informed, v not yet), each
// placed as early as its data and ports allow but never before the
// previous one's start. This loses nothing: list any optimal schedule by
// start time and place its transfers in that order; by induction each starts
// no later than in the optimal schedule (every earlier use of its ports and
// ended no later), so some sequence reaches the optimum. Two
// transfers starting at the same instant, the first lasting a positive time,
// are independent (they share no port, and neither feeds the other), so
// only one of their orders is explored (lower sender, then receiver, first).
// Bounds (both valid for any completion of a partial schedule):
//  * distance: a waiting target v is informed no earlier than
//    min over informed u of (when u can next send + d(u, v)), d = the cheapest
//    chain of routes between members (relays only add);
//  * doubling: with i members informed and r targets waiting, the next
//    ceil(log2((i + r) / i)) rounds of δ (the cheapest route) are needed
//    after the last start (graph_bounds.h); only when every member is
//    one-port.
// Incumbent: the better of ECEF and look-ahead, or a plan the caller gives
// (`--algo auto`: the best of every heuristic), so the search only has to
// beat it and prunes with its makespan from the first node; it returns the
// best plan found when a limit stops it, never worse than the incumbent.
// Guarantee: exact when the search finishes (plan.optimal, with the node
// count); otherwise the best plan found, no better guarantee than the
// incumbent's (none).
// Complexity: exponential; O(k² · route length) per node for k members.
// Refuses more than kMaxExactMembers participants.
// Ties: children are explored by completion time, then sender, then
// receiver; the first optimal sequence found is kept.
#pragma once

#include <cstdint>

#include "hetcoll/makespan/graph/graph_planner.h"
#include "hetcoll/makespan/request.h"

namespace hetcoll {

inline constexpr std::size_t kMaxExactMembers = 16;

EngineResult broadcast_exact(const GraphNetwork& network, const BroadcastTask& task, const SearchLimits& limits);
// The same from a given incumbent: a plan of this task (any engine's).
EngineResult broadcast_exact(const GraphNetwork& network, const BroadcastTask& task, const SearchLimits& limits,
                             EngineResult incumbent);

}  // namespace hetcoll
