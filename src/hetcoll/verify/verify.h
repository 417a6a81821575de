// Independent checking of makespan plans against the sender-speed model.
//
// verify() looks only at the plan and the cluster — never at the planner —
// and checks:
//  * well-formedness: known processors, no self-messages, each message lasts
//    exactly the sender's transmission time t(from), no negative start;
//  * one-port: no processor takes part in two messages at once (sending and
//    receiving count alike in the sender-speed model);
//  * causality: broadcast — a processor forwards only after it has received
//    (the source holds the message from time 0); reduce — a processor sends
//    its combined value once, after every message it combines has arrived;
//  * completeness: broadcast — every processor receives exactly once;
//    multicast — every target receives (helpers may receive and forward);
//    reduce — every processor but the root sends exactly once, the root never
//    sends, and each contribution reaches the root exactly once;
//    all-reduce — a reduce to the root, then a broadcast of the result from
//    the root that starts after the last partial result has arrived; or, when
//    a processor sends more than one partial result or the root sends one
//    (an exchange plan such as recursive doubling), by contributions: every processor starts with
//    its own, a message carries its sender's set at its start, a "partial"
//    is combined (it must share no contribution with the receiver's set: none
//    counted twice), a "value" replaces the receiver's set (it must contain
//    it: none lost), and every processor ends with all n (plans of this shape
//    up to kMaxExchangeAllreduceProcessors, O(m n / 64) time);
//  * claims: every number is finite; the claimed makespan equals the time
//    the operation completes (broadcast: the last receive; multicast: the
//    last *target's* receive — a later helper message is allowed; reduce:
//    the root's last receive; all-reduce: the end of the broadcast phase, or
//    when the last processor holds every contribution);
//    the lower bound does not exceed it; `optimal` implies lower_bound ==
//    makespan; an `exact` guarantee implies `optimal`; a ratio is >= 1.
//    A multicast plan must list its targets.
// Tolerances are local, never the schedule's global scale (so one late
// transfer cannot blind the checks of early ones): comparing times x and y
// that involve messages of transmission time t allows
//   1e-9 x t + (m + 16) x DBL_EPSILON x max(|x|, |y|),
// the tolerance rule of core/ids.h at the scale of those messages plus the
// rounding of sums of up to m times (m = number of transfers). The claims
// use the instance's tolerance (Cluster::tolerance(), the rule planners
// settle their claims with) plus the same rounding term.
//
// Complexity: O(m log m) time, O(n + m) space for m transfers.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "hetcoll/model/cluster.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct VerifyReport {
  bool valid = true;
  std::vector<std::string> violations;  // the first few, in human words
  std::size_t violation_count = 0;      // all of them
  double measured_makespan = 0;         // the last completion time
  // Sender-speed plans: a claimed lower bound above every bound verify/
  // re-derives, on an instance beyond the reach of its exact re-search
  // (sender_speed_bounds_internal.h). Not a violation by itself: the claim is
  // unproven, and whoever accepts the plan must prove it another way
  // (validate re-runs the plan's algorithm on the platform) or refuse it.
  bool lower_bound_unproven = false;
  double proven_lower_bound = 0;        // the best bound verify/ re-derived

  // One line per violation (at most the first 20), for stderr.
  std::string summary() const;

  // Marks the report invalid, counts the violation and keeps its words if
  // fewer than kMaxListedViolations are listed: every verifier reports
  // through this one rule.
  static constexpr std::size_t kMaxListedViolations = 20;
  void add_violation(std::string message);
};

VerifyReport verify(const Cluster& cluster, const MakespanPlan& plan);

// Platform-graph plans (model/graph_network.h), checked against the platform
// alone:
//  * well-formedness: the source/root, targets and every sender and receiver
//    are participants (routers hold nothing: they never send, receive or
//    combine data of their own); no self-messages, no negative start;
//  * routes: a transfer's route is the platform's route between its ends (a
//    transfer without a route takes the platform's); its duration equals the
//    route's time;
//  * ports: no one-port node sends two messages at once or receives two at
//    once, counting the nodes a route crosses (OnePortRule::unidirectional:
//    takes part in two at once);
//  * causality and completeness as above; a reduce node sends after it can
//    have combined every input (one combine = 1 / speed, in arrival order);
//  * claims: the claimed makespan equals the completion (for a reduce, the
//    root's last combine), the lower bound does not exceed it, and a plan
//    that claims to be optimal has a lower bound equal to its makespan.
// Eager plans (plan.model == PlanModel::eager, model/eager_model.h) are
// checked in their own model instead of the one-port rules:
//  * a broadcast or a reduce only; routes as above;
//  * a transfer lasts its route's time (delay + occupancy);
//  * broadcast: it occupies its sender's link for its occupancy only: a
//    sender's transfers, by start time, each start once the previous one
//    has left the link (latencies overlap); no receive or router ports (a
//    node may receive meanwhile);
//  * reduce (makespan/eager/eager_reduce.h): it occupies its receiver's
//    link for its occupancy at its end, [end - occupancy, end]; a
//    receiver's windows never overlap; no send or router ports; combining
//    is free (the reduce's causality: a node sends after its last arrival);
//  * causality, completeness and the claims as above (optimal only when the
//    lower bound meets the makespan).
// Complexity: O(m log m + r) for m transfers, plus one route search per
// distinct sender (it stops once that sender's receivers are reached).
VerifyReport verify(const GraphNetwork& network, const MakespanPlan& plan);

// Split broadcasts (makespan/split/split_broadcast.h), checked against the
// split costs alone (verify_split.cpp):
//  * well-formedness: the plan's members are the costs' members, the source
//    is one of them, at least one chunk; pieces have distinct spreaders and
//    cover the elements [0, elements) once;
//  * every transfer names a piece and a non-empty chunk of it, two distinct
//    members, and is sent by the source or by the piece's spreader (what
//    the MPI runtime executes); it lasts occupancy + delay for the chunk's
//    bytes (+ the envelope), starting at time >= 0;
//  * links: a sender's transfers, by start time, each start once the
//    previous one has left its link (eager model);
//  * causality and completeness: the source holds everything at 0; a
//    sender other than the source holds the chunk (has received it) when
//    it starts; every member but the source receives every non-empty chunk
//    exactly once, the source none;
//  * the claimed makespan equals the last arrival.
// Complexity: O(m log m + k x pieces x chunks) for m transfers.
struct SplitBroadcastPlan;
class SplitCosts;
VerifyReport verify_split_broadcast(const SplitCosts& costs, const SplitBroadcastPlan& plan);

// Split all-reduces (makespan/split/split_allreduce.h), checked against the
// split costs alone: the members are the costs' members, at least one
// chunk, pieces with distinct aggregators covering the elements once;
// every transfer names a piece and a non-empty chunk and lasts occupancy +
// delay for its bytes; a contribution goes from a member to the piece's
// aggregator, and every member but the aggregator contributes each chunk
// exactly once; a result goes from the aggregator, to every other member
// exactly once per chunk, starting no earlier than the chunk's last
// contribution arrived; a sender's link carries one message at a time; the
// claimed makespan is the last result's arrival.
struct SplitAllreducePlan;
VerifyReport verify_split_allreduce(const SplitCosts& costs, const SplitAllreducePlan& plan);

}  // namespace hetcoll
