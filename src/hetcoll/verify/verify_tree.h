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

#include "hetcoll/plan/broadcast_tree.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {

// `claimed_period` <= 0 skips the claim check. measured_makespan holds the
// recomputed period.
VerifyReport verify_broadcast_tree(const Platform& platform, const BroadcastTree& tree, const TreeCosts& costs,
                                   double claimed_period);

}  // namespace hetcoll

// Multi-tree and single-tree periodic schedules (steady/broadcast/
// multi_tree.h) are checked by verify_periodic_plan (verify_periodic.h), the
// verifier every periodic plan goes through; it uses verify_broadcast_tree
// for each tree.
