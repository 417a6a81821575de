// Split reduce: a reduce that cuts the vector into pieces, reduces each
// piece at its own aggregator and forwards the reduced pieces to the root
// (a heterogeneous reduce-scatter + gather; the homogeneous scheme is
// Rabenseifner's, "Optimization of collective reduction operations", 2004:
// reduce-scatter by recursive halving, then a gather to the root).
//
// Problem: reduce `count` elements of every processor into the root with a
// commutative, associative operation.
//
// The plan: the vector cut into pieces, each reduced at its own aggregator
// (the fastest processors, then the root) and forwarded to the root; every
// contribution paced on its sender's up link (split_reduce.cpp: the order).
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
// Sizing: the number of pieces (1, 2, 4, ...) and then the pieces' element
// counts, by simulating the plan (coordinate descent; split_reduce.cpp)
// until no move helps or the work budget is spent.
// Guarantee: none (a heuristic): a local optimum of the simulated makespan
// for this aggregator order and rotation at best, never predicted slower
// than the flat tree (tested). Lower bound (split_reduce_lower_bound, valid
// in this model for every reduce that combines each element along a tree):
// max over non-root u of L_u + (count * element_bytes + envelope_bytes) / U_u.
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
