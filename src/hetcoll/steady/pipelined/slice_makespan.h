// The makespan of a whole pipelined broadcast and the best slice size, with
// affine link costs (Beaumont, Marchal, Robert 2004, sec. 2.1: a slice of L
// bytes takes latency + L / bandwidth on a link).
//
// A message of M bytes is cut into k = ceil(M / L) slices. Along one tree
// the predicted makespan is (k - 1) x period(L) + first_slice(L): the first
// slice's broadcast time through the tree (each node forwards to its
// children one after the other, deepest subtree first, one-port; or starts
// one send every send_u, multi-port; routed edges store and forward at each
// hop) plus one period per further slice. This is the usual pipelining
// estimate (start-up + steady state), not a bound proven for every
// schedule; the simulator measures the real thing.
// best_slice_count() minimises it over k = 1..min(M, 10^7): a geometric scan
// of 200 counts, then an integer search around the best one. O(200 (n + m)).
// Links without latency: the prediction M p(1) + M (f(1) - p(1)) / k (p, f
// per byte) then falls with every extra slice, so the "best" count is the
// cap and slices of a few bytes would be picked, which no real network
// rewards (every message has a per-message cost the model leaves out).
// When the minimum sits at the cap, the fewest slices whose predicted
// makespan is within 1% of it are chosen instead (`within_one_percent`).
#pragma once

#include <cstdint>
#include <functional>

#include "hetcoll/plan/broadcast_tree.h"
#include "hetcoll/plan/pipelined_tree_plan.h"

namespace hetcoll {

// Time for one slice to reach every node of the tree (routers included).
double first_slice_time(const Platform& platform, const BroadcastTree& tree, const TreeCosts& costs);

// SliceMakespan (the prediction a pipelined plan carries): plan/pipelined_tree_plan.h.

// The count best_slice_count settled on, and whether the 1% rule applied.
struct SliceCountChoice {
  std::int64_t count = 1;
  bool within_one_percent = false;
};

// For a message of `message_size` bytes in slices of `slice_size` bytes.
SliceMakespan tree_makespan(const Platform& platform, const BroadcastTree& tree, BroadcastModel model,
                            double message_size, double slice_size);

// The slice size (M / k for an integer k) that minimises tree_makespan.
SliceMakespan best_slice_size(const Platform& platform, const BroadcastTree& tree, BroadcastModel model,
                              double message_size);

// Minimises `makespan_of_count(k)` over k = 1..max_count (geometric scan,
// then integer refinement around the best); shared with the multi-tree
// schedule's slice choice.
SliceCountChoice best_slice_count(std::int64_t max_count,
                                  const std::function<double(std::int64_t)>& makespan_of_count);

}  // namespace hetcoll
