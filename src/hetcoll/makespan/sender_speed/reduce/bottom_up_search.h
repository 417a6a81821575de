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
//  * Order: some optimal tree is heap-ordered (Observation 1 of Liu, Kuo,
//    Wang 2009; mcp_tree.h): children at least as slow as their parent. A
//    heap-ordered tree can be merged slowest sender first (children before
//    parents), so the senders merge in that fixed order and the search only
//    chooses the two subtrees of each merge.
//  * Pairs: with the values sorted, merging y with its predecessor x (the
//    largest other value <= y) is never worse than with a smaller x': the
//    two results differ only in keeping x' instead of x, and a state whose
//    sorted values are each <= another's ends no later (replay the other's
//    merges on the matching values). Among equal values the last one of the
//    run is taken (its predecessor is an equal value, which removes the most).
//    So a node branches on the distinct values y other than the smallest,
//    smallest first.
//  * Bounds at a state with values v (m + 1 of them) and the m fastest
//    senders left, against the deadline D (below):
//     - leaf average: for the k largest values S, the paths above them form
//       a full binary tree on k leaves after contracting unary nodes, with
//       k - 1 distinct senders left at its branch nodes, so the makespan is
//       at least (sum_S v + G_k) / k, G_k = the least sum over such a tree
//       of t_u x (S-leaves below u), computed as in leaf_average_bound.h
//       for the k - 1 fastest times and k leaves;
//     - Kraft: a value v at depth d of the final tree has d distinct
//       senders left above it, so v + (the d fastest times) must stay below
//       D; with d_v the largest such depth, a binary tree needs
//       sum 2^-d_v >= sum 2^-depth = 1.
//    Both bounds are computed with the tolerance in the search's favour.
//  * One depth-first pass against the incumbent (D = incumbent - tolerance,
//    lowered at every better tree found). No bisection targets, unlike
//    optimal_search.h: on all-distinct times (n = 25 and 40) low targets
//    were neither refuted nor met within 60 s at n = 40, where a plain pass
//    improves the incumbent by 1-4% within 1 s, and at n = 25 the plain
//    pass proved the optimum 1.3-4x sooner in total (docs/RESULTS.md).
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
