// Independent checking of periodic (steady-state) plans against the platform
// graph, in exact arithmetic. Looks only at the plan and the platform — never
// at the planner or its linear program — and checks:
//  * well-formedness: known nodes; sources, targets and participants are
//    hosts that take part; every transfer follows an edge of the platform and
//    carries a message type the operation has; counts and lengths positive;
//    whole counts when `split_messages` is false;
//  * one-port, slot by slot: each node sends on at most one port-using edge
//    and receives on at most one (edges of cost 0, and edges between nodes
//    with unlimited ports, use no port); each edge's transfers fit in the
//    slot (messages x c(e) summed <= length); the slot lengths sum to the
//    period;
//  * the flows: the slots' totals per (edge, type) equal `flows`;
//  * conservation over a period per message (scatter/gossip pairs, reduce
//    partial results), tasks on participants within the period;
//  * the trees: positive weights summing to the throughput, paths
//    (scatter/gossip) or reduction trees (reduce) that sum exactly to
//    `flows` and `computations`; verify_periodic_trees.cpp lists each rule;
//  * the claims: throughput = operations_per_period / period <=
//    throughput_bound, with equality unless a period limit applied;
//  * the certificate: re-derives every dual constraint of the named
//    formulation from the platform (docs/FORMATS.md lists the rows) and
//    checks dual feasibility and b^T y = bound = throughput_bound exactly —
//    a proof that no schedule beats the bound. Unknown formulations or rows
//    are violations.
// Broadcast plans (pipelined broadcast trees, steady/broadcast/multi_tree.h):
// the trees are arborescences of platform edges from the source reaching
// every participant, weights sum to the throughput, the weighted trees sum
// to the flows, transfers naming their tree carry weight x period of it on
// each of its edges; the "ssb-broadcast" certificate's rows are re-derived
// from the platform (verify/ssb_certificate.h).
// STABLE INTERFACE: verify_periodic_plan(platform, plan[, message_size]) and
// PeriodicVerifyReport are what every periodic plan goes through (the
// scatter/gossip/reduce planners, the broadcast schedules, `hetcoll validate`
// on a file with `period`). New checks may be added; a plan valid today
// stays valid unless it was wrong.
// Complexity: linear in the plan, plus one pass over the dual constraints
// (pairs x edges for per-type scatter/gossip, sources x edges by source,
// types x edges + tasks x participants for reduce).
#pragma once

#include <optional>

#include "hetcoll/model/platform.h"
#include "hetcoll/plan/periodic_plan.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {

struct PeriodicVerifyReport : VerifyReport {
  bool certificate_checked = false;  // a certificate was present and proved its bound
};

// `message_size` overrides the plan's (for latency/bandwidth edges).
PeriodicVerifyReport verify_periodic_plan(const Platform& platform, const PeriodicPlan& plan,
                                          std::optional<double> message_size = std::nullopt);

}  // namespace hetcoll
