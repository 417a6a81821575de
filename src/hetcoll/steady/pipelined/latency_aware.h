// Latency-aware choice between one pipelined tree and the multi-tree
// schedule for a whole message (ours; Beaumont, Marchal, Robert 2004 sec.
// 2.1 give the affine costs and the single-tree start-up + steady-state
// estimate, and only the steady state of the multi-tree optimum).
//
// Problem: broadcast M bytes from the source on a platform whose edges give
// latency and bandwidth (a slice of L bytes takes latency + L / bandwidth),
// bidirectional one-port. Choose the slice size, and one tree or several
// trees, to minimise the predicted makespan of the whole message.
//
// Single tree: the best single-tree heuristic ("improve") with the slice size
// chosen by best_slice_size: (k - 1) x period + first slice (slice_makespan.h).
//
// Multi-tree, rounded: the optimal packing's trees T_1..T_t with weights
// w_i (multi_tree.h) realise the LP optimum only with a period whose length
// is an integer of hundreds of digits. A schedule a runtime can run deals
// the slices out in rounds of R slices: tree i takes r_i of each round
// (largest-remainder apportionment of R w_i / sum w; r_i = 0 drops a light
// tree), and the round is one-port scheduled by a weighted bipartite edge
// colouring, so it lasts
//     P_R = max over nodes u of max(sum_i r_i out_i(u), sum_i r_i in_i(u)),
// out_i(u) / in_i(u) the slice times of T_i's edges leaving / entering u.
// Store and forward by rounds: in round j the source sends batch j and every
// node forwards what it received in round j - 1, so with B = ceil(k / R)
// batches and D_R the depth (edges) of the deepest tree used, the last slice
// arrives at the end of round B + D_R - 1:
//     makespan(k, R) = (ceil(k / R) + D_R - 1) x P_R(L = M / k).
// Rounds that use one tree only (small R, a dominant tree) are a single
// pipelined tree: the single-tree estimate (k - 1) P_R / R + first slice
// applies to them. Forcing two trees or more would drag in trees of a
// fraction of a percent of the weight, which need hundreds of slices per
// round to get one; so the packing's heaviest tree alone is a candidate too
// (with tiny, latency-bound slices it often starts up faster than the
// improve tree, whose choice ignores latency).
// Throughput R / P_R tends to the LP optimum as R grows (rounding costs at
// most about t / R of it), while the start-up (D_R - 1) P_R grows with R:
// small messages want few slices per round over few trees, large ones
// many. We minimise over R = 1..min(k, max_slices_per_round) and over k
// (best_slice_count), with the trees packed at the single tree's slice size,
// then packed again at the slice size chosen and minimised once more.
// This is a prediction of a schedule the simulator can run (periodic, split
// transfers inside a round allowed), not a lower bound for the platform.
// Time: two SSB LPs and packings, plus O(scan x R_max x t x n).
// Only latency/bandwidth platforms (fixed costs have no bytes to slice).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hetcoll/steady/broadcast/multi_tree.h"
#include "hetcoll/steady/pipelined/pipelined_tree_plan.h"
#include "hetcoll/steady/broadcast/ssb_lp.h"

namespace hetcoll {

struct RoundedMultiTree {
  int slices_per_round = 0;            // R
  std::vector<std::int64_t> tree_slices;  // r_i per tree of the packing
  double round_length = 0;             // P_R, time units
  int depth = 0;                       // D_R, edges of the deepest tree used
  int trees_used = 0;                  // trees with r_i > 0
  double throughput() const { return round_length > 0 ? slices_per_round / round_length : 0; }
};

// The rounded schedule of R slices per round at the given slice times.
RoundedMultiTree round_multi_tree(const Platform& platform, const MultiTreePacking& packing,
                                  const std::vector<double>& slice_times, int slices_per_round);

struct MultiTreeMakespan {
  double slice_size = 0;     // bytes
  std::int64_t slices = 0;   // k
  RoundedMultiTree rounds;
  double makespan = 0;       // (ceil(k / R) + D_R - 1) P_R
};

struct LatencyAwareOptions {
  int max_slices_per_round = 256;
  std::optional<double> slice_size;  // fixed instead of chosen
};

struct LatencyAwareChoice {
  double message_size = 0;
  PipelinedTreePlan single_tree;  // with makespan (and its slice size)
  double packing_slice_size = 0;  // bytes: the slice size of the LP and the packing
  SsbSolution optimum;            // at packing_slice_size
  MultiTreePacking packing;
  MultiTreeMakespan multi_tree;
  bool multi_tree_chosen = false;  // multi_tree.makespan < single_tree's
  double chosen_makespan() const {
    return multi_tree_chosen ? multi_tree.makespan : single_tree.makespan->makespan;
  }
  // Trees the chosen schedule sends slices down (1: a single tree, which may
  // be the packing's heaviest tree run alone when that starts up faster).
  int chosen_trees() const { return multi_tree_chosen ? multi_tree.rounds.trees_used : 1; }
  // "one tree (improve)", "one tree (the packing's heaviest)", "4 trees in rounds of 16 slices".
  std::string chosen_name() const;
};

// The best (k, R) for a given packing; the slice count scan of best_slice_count.
MultiTreeMakespan best_multi_tree_makespan(const Platform& platform, const MultiTreePacking& packing,
                                           double message_size, const LatencyAwareOptions& options = {});

// Throws InputError (fixed-cost platform, bad sizes) and NoSolutionError.
LatencyAwareChoice choose_broadcast_schedule(const Platform& platform, ProcessorIndex source, double message_size,
                                             const LatencyAwareOptions& options = {});

}  // namespace hetcoll
