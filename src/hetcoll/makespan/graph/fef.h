// Fastest edge first (FEF) on a platform graph (Bhat, Raghavendra, Prasanna
// 2003): among the transfers from a member that holds the message to one
// that must still receive it, take the cheapest route (smallest cost, not
// earliest completion) and place it as early as the model allows.
//
// Problem: broadcast / multicast (and, through graph_planner.h, reduce and
// all-reduce) on a platform graph, model/graph_network.h.
// Guarantee: none (heuristic). It ignores when the sender is free, so a busy
// sender with a cheap edge wins over an idle one with a slightly dearer edge.
// Complexity: O(n² log n) time, O(n²) space (route table) for n participants;
// refuses more than kMaxFlatMembers participants.
// Ties: equal costs go to the lower sender, then receiver, node index
// (greedy_broadcast.h).
#pragma once

#include "hetcoll/makespan/graph/graph_planner.h"

namespace hetcoll {

EngineResult broadcast_fef(const GraphNetwork& network, const BroadcastTask& task);

}  // namespace hetcoll
