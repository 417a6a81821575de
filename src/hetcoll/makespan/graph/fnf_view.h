// The sender-speed view as a planner on a platform graph: the baseline the
// graph planners are measured against (what hetcoll did with graphs before
// they were planned on).
//
// The view gives each participant p one transmission time, t(p) = the
// costliest route from p to another participant (for a reduce: into p
// ... from the reversed routes), and plans in the sender-speed model:
// broadcast / multicast by FNF (Liu 2002 sec. 3), reduce by SNF (Liu, Kuo,
// Wang 2009). The resulting tree and message order are then executed on the
// platform (sim/makespan_simulation.h): every message takes its real route
// time, waits for its real ports. The plan's makespan is that
// execution; the view's own prediction is given in a note.
// Guarantee: none on the platform (the view's guarantees hold in the view
// only, hetcoll never prints them for a graph).
// Needs a route between every ordered pair of participants (the view lets
// anyone send to anyone); refuses other platforms with InputError.
// Complexity: O(n²) route costs (route table), O(n log n) for FNF / SNF,
// O(m log m) for the execution; refuses more than kMaxFlatMembers
// participants.
// Ties: FNF's and SNF's (makespan/sender_speed/broadcast/fnf.h, makespan/sender_speed/reduce/snf.h).
#pragma once

#include "hetcoll/makespan/graph/graph_planner.h"
#include "hetcoll/model/cluster.h"

namespace hetcoll {

EngineResult broadcast_fnf_view(const GraphNetwork& network, const BroadcastTask& task);

// The sender-speed view of the participants: a cluster whose processor i is
// participants()[i] with t = its costliest route to another participant.
// Throws InputError when a pair has no route.
Cluster sender_speed_view_of(const GraphNetwork& network);

}  // namespace hetcoll
