// Optimal reduce by branch-and-bound — Liu, Kuo, Wang 2009 sec. 6.2 (Table 1), made
// exact and much faster by working on the MCP view of sec. 5.3.1. (For
// mostly distinct times plan_reduce_optimal uses bottom_up_search.h instead.)
//
// Problem: the reduce of mcp_tree.h — find a binary tree on the senders
// (classes of equal times) with the least heaviest root-to-leaf path. Every
// such tree is an EP schedule read backwards in time (its node order is the
// EP sequence reversed), so this is the seed's search over EP sequences,
// built from the last sender to the first:
//  * slots: reversed time starts at 0 with one open slot (the destination's
//    last receive). Slots are taken in time order; a slot at time r either
//    gets a sender of class c, which ends at r + t_c and opens two slots at
//    r + t_c (its predecessors, Lemma 1), or is closed for good;
//  * Corollary 1 (= Observation 1): a slot opened by a class-c sender only
//    takes classes at least as slow as c — a sender's predecessors are at
//    least as slow. Applied exactly, this also covers the seed's rule for
//    simultaneous senders;
//  * identical processors are interchangeable: we branch on classes, and
//    identical slots (same time, same parent class) take non-decreasing
//    options (classes fastest first, then "close"), so no two branches
//    build the same tree;
//  * SNF is the first incumbent (its EP schedule; with mostly distinct
//    times and <= 64 senders, SNF's order improved by pairwise interchanges,
//    broadcast/sequence_local_search.h, at most 4000 EP evaluations, not
//    under a time limit below 0.1 s), and the visiting order
//    is the one SNF's tree follows: fastest classes nearest the destination
//    (SNF sends the slowest first, so in reversed time they come last);
//  * bound: with D = incumbent - tolerance, for each class threshold i the
//    senders of class >= i must fit in the positions that can still start
//    by D - t_i; a slot at r whose subtree is made of senders no faster
//    than class m has at most 2^(floor((D - t_i - r) / t_m) + 1) - 1 such
//    positions. (The bounds.h reduce bound is the case of one slot at 0,
//    i = the slowest sender and m = the fastest.) Prune when a threshold
//    cannot be met;
//  * memoisation: the future depends only on the remaining class counts
//    and the open slots (time, parent class, multiplicity); a state whose
//    subtree was exhausted is recorded and never searched again (a smaller
//    incumbent only makes it harder).
//  * passes: with a proven lower bound L (plan_reduce_optimal: the larger
//    of the bounds.h reduce bound and the leaf-average bound of
//    leaf_average_bound.h, both on the senders' own times) and
//    the incumbent B, while B - L > 1% of B a bisection pass looks for a
//    tree shorter than T = L + 0.15 (B - L) (the deadline D above is T) and
//    stops at the first: either B drops below T or, the pass failing, no
//    tree is shorter than T, so L rises to T — the gap shrinks by at least
//    15% per pass (a low target fails in far fewer nodes than the midpoint). Then one plain pass against the incumbent finishes. The memo
//    records the target a state failed for; it prunes only lower ones.
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
// the bottom-up search of bottom_up_search.h (n = 25, all-distinct times:
// proven within 2 s where this one proved none in 5 s).
MakespanPlan plan_reduce_optimal(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits = {});

}  // namespace hetcoll
