// Optimal reduce by branch-and-bound, built bottom up (ours): the companion
// of optimal_search.h for senders with mostly distinct times.
//
// Problem: the reduce of mcp_tree.h — a binary tree on the senders with the
// least heaviest root-to-leaf path, each node weighing its sender's time.
// Complete it with empty children: a full binary tree with the N senders as
// internal nodes and N + 1 leaves. Built bottom up, the tree is N merges:
// start from N + 1 subtrees of value 0 (the leaves); a merge by sender u
// takes two subtrees of values x <= y and makes one of value y + t_u (u's
// end in reversed time: the height of its subtree); the tree's length is
// the last value.
//  * Order: senders merge slowest first (some optimal tree is heap-ordered,
//    Observation 1 of Liu, Kuo, Wang, "An approximation algorithm and
//    dynamic programming for reduction in heterogeneous environments",
//    2009), so a node only chooses the two subtrees of its merge;
//  * Pairs: a value merges with its predecessor (never worse), so a node
//    branches on the distinct values;
//  * Bounds: leaf average (leaf_average_bound.h) and Kraft's inequality on
//    the depths each value can still reach, in the search's favour.
//    bottom_up_search.cpp: each rule and bound with its proof.
//  * One depth-first pass against the incumbent (D = incumbent - tolerance,
//    lowered at every better tree found). No bisection targets, unlike
//    optimal_search.h: on all-distinct times low targets are seldom
//    refuted or met, while a plain pass improves the incumbent early and
//    proves the optimum sooner.
//    A stopped search reports the given lower bound (plan_reduce_optimal:
//    the leaf-average bound). Limits as in core/limits.h; one node per
//    state examined.
// Guarantee: exact when it finishes. Complexity: exponential in the worst
// case; O(m) per node for the bounds and the child state, no allocation
// per node once the per-depth buffers have grown; O(N^3) set-up for the G_k
// table. Memory: O(N^2).
#pragma once

#include <limits>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/makespan/sender_speed/reduce/tree_search_common.h"

namespace hetcoll {

class ReduceBottomUpSearch {
 public:
  // class_times strictly ascending, counts >= 0 (a sender per count).
  ReduceBottomUpSearch(std::vector<double> class_times, std::vector<int> counts);

  ReduceBottomUpSearch& incumbent(double makespan) { incumbent_ = makespan; return *this; }
  ReduceBottomUpSearch& lower_bound(double bound) { lower_bound_ = bound; return *this; }
  ReduceBottomUpSearch& limits(SearchLimits limits) { limits_ = std::move(limits); return *this; }
  ReduceBottomUpSearch& tolerance(double value) { tolerance_ = value; return *this; }

  ReduceTreeSearchResult run();

 private:
  std::vector<double> times_;
  std::vector<int> counts_;
  double incumbent_ = std::numeric_limits<double>::infinity();
  double lower_bound_ = 0;
  SearchLimits limits_;
  double tolerance_ = -1;  // < 0: the rule of core/ids.h on the class times
};

}  // namespace hetcoll
