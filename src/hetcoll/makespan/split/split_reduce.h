// Split reduce: a reduce that cuts the vector into pieces, reduces each
// piece at its own aggregator and forwards the reduced pieces to the root
// (a heterogeneous reduce-scatter + gather; the homogeneous scheme is
// Rabenseifner's, "Optimization of collective reduction operations", 2004:
// reduce-scatter by recursive halving, then a gather to the root).
//
// Problem: reduce `count` elements of every processor into the root with a
// commutative, associative operation. Every reduce in which each element is
// combined along a tree makes every non-root processor send exactly one
// copy of each of its elements (raw or combined), so on a cluster whose slow
// processors have slow links those links are the floor; whole-vector plans
// (every other reduce of hetcoll) also queue the whole vector at every
// relay. Splitting lets the pieces travel side by side.
//
// The plan: pieces P_0 .. P_{k-1} (consecutive element ranges, in that
// order), P_j reduced at aggregator a_j: every non-root processor other than
// a_j sends its P_j to a_j ("contribution"); a_j combines them with its own
// P_j and, unless it is the root, sends the result to the root
// ("forward"), as soon as the last contribution has arrived. The root
// combines the forwarded pieces (and the contributions to its own pieces)
// into its own vector. Aggregators: every processor but the root, fastest
// first (ties by index), then the root, at most `max_pieces` of them
// (the fastest); a processor sends its contributions in the pieces' order
// rotated to start after its own piece (processors without a piece: rotated
// by their index), so that at any moment the processors send to different
// aggregators and the aggregators' down links share the load; each
// contribution is posted when the previous one would have left its up link
// alone ("paced": post_k = post_{k-1} + (bytes_{k-1} + envelope) /
// up_bandwidth), so that the latencies overlap and the link carries one
// message at a time, the way the eager model (model/eager_model.h) paces
// a broadcast.
//
// Model ("NIC fluid model"): processor u has an up link (latency L_u,
// bandwidth U_u) that its sends share and a down link (bandwidth D_u, no
// latency) that its receives share; a message u -> v of S bytes (plus
// `envelope_bytes`) first waits L_u, then flows at a rate set by weighted
// max-min fairness over the links it crosses (u's up link, v's down link),
// the weight of a flow being 1 / L_u and its rate at most min(U_u, D_v) —
// what SimGrid's CM02 network model computes on the platforms of
// scripts/nic-platform (no cross traffic, no TCP window bound).
// simulate_split_reduce replays a plan in it exactly (event by event,
// progressive filling at every start, latency end and completion), which
// is the plan's prediction. Combining is free.
//
// Sizing: for k = 1, 2, 4, ... and k = min(n, count, max_pieces), the
// equal split over the first k aggregators is simulated and the best k kept
// (k = 1: one piece at the root, the flat tree, everyone's whole vector
// paced to the root); then coordinate descent on the pieces' element
// counts: move `step` elements from one piece to another when the
// simulated makespan drops, for every ordered pair; halve `step` when no
// move helps, from count / (4k) down to one element, or until the work
// budget is spent. Guarantee: none (a heuristic): a local optimum of the
// simulated makespan for this aggregator order and rotation at best,
// never predicted slower than the flat tree (tested). Lower bound
// (split_reduce_lower_bound, valid in this model for every reduce in which
// each element is combined along a tree): max over non-root u of L_u +
// (count * element_bytes + envelope_bytes) / U_u — u must send a copy of
// each of its elements over its own up link, whose flows start L_u after
// their post and carry at most U_u together (tested on random networks).
//
// Complexity: one simulation handles M = (n-1) k messages in O(M) events,
// each a progressive filling over the active flows and the 2n links:
// O(M · (M + n) · n) time in the worst case, O(M + n) space; the sizing
// stops once the sum over its simulations of (k n)^2 reaches max_work.
//
// Known limits: commutative operations only (pieces are combined in arrival
// order); every piece of every processor goes through one aggregator (no
// tree inside a piece); the down link bandwidth is the platform's, the
// model knows no shared backbone.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "hetcoll/model/nic_network.h"
#include "hetcoll/plan/split_plans.h"

namespace hetcoll {

// SplitReducePiece, SplitReducePlan: plan/split_plans.h.

struct SplitReduceOptions {
  std::size_t max_pieces = 64;  // aggregators (pieces) at most
  // The sizing's budget: the sum over its simulations of (pieces x
  // processors)^2, about their cost. The default allows about 4000
  // simulations on 8 processors, 20 with 16 pieces on 64.
  std::size_t max_work = 20'000'000;
};

// The best split reduce of `count` elements of `element_bytes` bytes into
// `root` found as above; predicted_seconds from simulate_split_reduce.
// InputError (naming the parameter) for a root out of range, count == 0,
// element_bytes <= 0 or a network with non-positive bandwidths.
SplitReducePlan plan_split_reduce(const NicNetwork& network, ProcessorIndex root, std::size_t count,
                                  double element_bytes, const SplitReduceOptions& options = {});

// Replays `plan` in the NIC fluid model; fills piece_ready, piece_at_root
// and predicted_seconds (the last reduced piece at the root; 0 with one
// processor).
void simulate_split_reduce(const NicNetwork& network, SplitReducePlan& plan);

// The plan with the given piece sizes (element counts, zeros dropped),
// aggregators in that order, rotation and pacing as above; simulated.
SplitReducePlan make_split_reduce(const NicNetwork& network, ProcessorIndex root, double element_bytes,
                                  const std::vector<std::size_t>& counts,
                                  const std::vector<ProcessorIndex>& aggregators);

// max over non-root u of L_u + (count * element_bytes + envelope) / U_u.
double split_reduce_lower_bound(const NicNetwork& network, ProcessorIndex root, std::size_t count,
                                double element_bytes);

}  // namespace hetcoll
