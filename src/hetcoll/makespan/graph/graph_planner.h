// From a broadcast engine to the four operations on a platform graph.
//
// Every graph planner (FEF, ECEF, look-ahead, hierarchical, exact search) is
// a *broadcast engine*: given a source, the participants that may take part
// and those that must receive, it returns a broadcast schedule. This driver
// turns an engine into broadcast, multicast, reduce and all-reduce plans,
// the same way for all of them:
//  * broadcast: every participant must receive;
//  * multicast: the targets must receive; the engine may use other
//    participants as helpers (routers always help, inside routes);
//  * reduce: the broadcast of the time-reversed problem from the root
//    (graph_schedule.h), mapped back and re-timed forwards;
//  * all-reduce: a reduce into the root, then a broadcast of the result from
//    it once the root has combined everything. Without a given root, every
//    participant is tried on platforms of at most kAllreduceRootTrials
//    participants and the best kept; above that the first participant is
//    the root.
// It adds the evidence: the lower bound (graph_bounds.h), the guarantee,
// and `optimal: true` only when the engine proved it (a finished exact
// search) or the makespan meets the lower bound.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/makespan/graph/broadcast_task.h"
#include "hetcoll/makespan/request.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

inline constexpr std::size_t kAllreduceRootTrials = 16;

// BroadcastTask, EngineResult, BroadcastEngine: broadcast_task.h.

struct GraphAlgorithmInfo {
  std::string name;  // as given to --algo
  Guarantee guarantee;
};

// Plans request.operation with the engine. Throws InputError for a bad
// request (a router as source, unknown targets) and NoSolutionError when a
// participant cannot be reached.
MakespanPlan plan_on_graph(const GraphNetwork& network, const MakespanRequest& request, const GraphAlgorithmInfo& info,
                           const BroadcastEngine& engine);

// The source / root a request means (its own, or the first participant),
// checked to be a participant.
ProcessorIndex graph_request_root(const GraphNetwork& network, const MakespanRequest& request);

// The participant graph: can `to` be reached from `from` through transfers
// (routes through routers, relayed by participants)? Plain reachability in
// the platform graph, since any node on a path either routes or relays.
// Throws NoSolutionError naming the first node of `nodes` that cannot be
// reached from `source` (towards_source: that cannot reach it).
void require_reachable(const GraphNetwork& network, ProcessorIndex source, const std::vector<ProcessorIndex>& nodes,
                       bool towards_source);

}  // namespace hetcoll
