// Optimal reduce by branch-and-bound — Liu, Kuo, Wang, "An approximation
// algorithm and dynamic programming for reduction in heterogeneous
// environments", 2009, sec. 6.2 (Table 1), made exact and much faster by
// working on the MCP view of sec. 5.3.1. (For
// mostly distinct times plan_reduce_optimal uses bottom_up_search.h instead.)
//
// Problem: the reduce of mcp_tree.h — find a binary tree on the senders
// (classes of equal times) with the least heaviest root-to-leaf path. Every
// such tree is an EP schedule read backwards in time (its node order is the
// EP sequence reversed), so this is the seed's search over EP sequences,
// built from the last sender to the first:
//  * slots in reversed time, each taking a sender class or closed for good;
//    a slot opened by a class-c sender takes only classes at least as slow
//    (Corollary 1 = Observation 1); identical slots take non-decreasing
//    options, so no two branches build the same tree;
//  * SNF (improved by pairwise interchanges for mostly distinct times) is
//    the first incumbent, and the visiting order SNF's tree's;
//  * a counting bound per class threshold, memoisation of exhausted states,
//    and bisection passes between the proven bound and the incumbent.
//    optimal_search.cpp: each rule, the bound and the passes in detail.
// Node/time limits and the progress callback (core/limits.h) stop the
// search: the plan is then the best found (at worst SNF) with its status,
// guarantee <= 2 x optimal (Thm 2), the proven bound L of the failed passes
// (the global bound of the search so far; the given bound at worst)
// and optimal = false unless that bound meets the makespan.
// Counting: one node per slot decision examined (a search-tree node), as
// the seed counts sequence prefixes examined.
// Guarantee: exact when the search finishes. Complexity: exponential in
// the worst case; O(k x open slots) per node, no allocation per node once
// the per-depth buffers have grown. Memory: O(n^2) for the per-depth states
// plus the memo (at most 512 MiB; past it states are no longer recorded).
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/makespan/sender_speed/reduce/mcp_tree.h"
#include "hetcoll/makespan/sender_speed/reduce/tree_search_common.h"

namespace hetcoll {

class ReduceTreeSearch {
 public:
  // class_times strictly ascending, counts >= 0.
  ReduceTreeSearch(std::vector<double> class_times, std::vector<int> counts);

  // Chainable settings (defaults: no incumbent, no limits, memo on).
  ReduceTreeSearch& incumbent(double makespan) { incumbent_ = makespan; return *this; }
  // A proven lower bound on the shortest tree (the first bisection target).
  ReduceTreeSearch& lower_bound(double bound) { lower_bound_ = bound; return *this; }
  ReduceTreeSearch& limits(SearchLimits limits) { limits_ = std::move(limits); return *this; }
  ReduceTreeSearch& memoise(bool on) { memoise_ = on; return *this; }
  ReduceTreeSearch& tolerance(double value) { tolerance_ = value; return *this; }

  ReduceTreeSearchResult run();

 private:
  std::vector<double> times_;
  std::vector<int> counts_;
  double incumbent_ = std::numeric_limits<double>::infinity();
  double lower_bound_ = 0;
  SearchLimits limits_;
  bool memoise_ = true;
  double tolerance_ = -1;  // < 0: the rule of core/ids.h on the class times
};

// `--algo optimal` for reduce: SNF incumbent (improved by pairwise
// interchanges when times are mostly distinct), then the search above, or,
// with mostly distinct times (classes >= 2/3 of the senders, at most 256),
// the bottom-up search of bottom_up_search.h (it proves all-distinct
// instances this one does not).
MakespanPlan plan_reduce_optimal(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits = {});

}  // namespace hetcoll
