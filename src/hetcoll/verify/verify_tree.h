// Independent checking of pipelined broadcast trees (steady/broadcast/
// broadcast_tree.h) against the platform graph.
//
// verify_broadcast_tree() looks only at the tree, the platform and the slice
// times, never at the heuristic that built it, and checks:
//  * well-formedness: the source is a participant; every tree edge has a
//    non-empty route of platform edges forming a path from its `from` to its
//    `to`; no edge enters the source; no node has two parents;
//  * spanning: following tree edges from the source reaches every
//    participant (routers may be left out) and never revisits a node;
//  * claims: the claimed period equals the period recomputed here from the
//    number of times each platform edge is used (one-port: a node's busiest
//    direction; multi-port: max(sends x send overhead, the busiest link);
//    a node with unlimited ports: its busiest link),
//    to a relative 1e-9.
// Complexity: O(n + m + total route length).
#pragma once

#include "hetcoll/steady/broadcast/broadcast_tree.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {

// `claimed_period` <= 0 skips the claim check. measured_makespan holds the
// recomputed period.
VerifyReport verify_broadcast_tree(const Platform& platform, const BroadcastTree& tree, const TreeCosts& costs,
                                   double claimed_period);

}  // namespace hetcoll

#include "hetcoll/plan/periodic_plan.h"

namespace hetcoll {

// Multi-tree pipelined-broadcast plans (steady/broadcast/multi_tree.h):
// every tree is an arborescence of platform edges from plan.root reaching
// every target (verify_broadcast_tree); the weights are positive and sum to
// plan.throughput exactly; each edge's flow per period is the sum of the
// weights of the trees using it times the period; the slots are matchings
// (each node sends at most once and receives at most once per slot), their
// lengths sum to at most the period, and the time each edge is busy over the
// slots (messages x slice time) equals its flow x slice time: the schedule
// is one-port and carries every tree. `slice_times` per platform edge.
VerifyReport verify_multi_tree_plan(const Platform& platform, const PeriodicPlan& plan,
                                    const std::vector<double>& slice_times);

}  // namespace hetcoll
