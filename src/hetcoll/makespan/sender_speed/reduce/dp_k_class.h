// Exact reduce for senders of k classes by dynamic programming over class
// counts — Liu, Kuo, Wang 2009 sec. 5.3.5, Theorem 6 — and the `--algo dp` dispatcher.
//
// Problem: T(c) = the optimal reduce time (minimum critical path of a binary
// tree, mcp_tree.h) of a multiset of senders with c_i senders of class i
// (t_0 < t_1 < ... < t_{k-1}); the destination never sends. By Observation
// 1 the tree root is a sender of the fastest class j present, so
//   T(c) = t_j + min over a + b = c - e_j of max(T(a), T(b)),
//   T(0, ..., 0, c_{k-1}) = ceil(log2(c_{k-1} + 1)) t_{k-1}.
// Lemma 4 holds for the slowest class (its senders can be leaves), so for
// each split of the other classes the best split of the slowest is the
// crossover of a non-decreasing and a non-increasing function: a binary
// search (eq. (4) in k dimensions). We also skip a split when
// max(T(a with no slowest), T(b with no slowest)) already reaches the best
// value found (Lemma 4 again: adding slowest senders never helps).
// Guarantee: exact. Complexity (Thm 6): O(prod (c_i + 1)) table entries,
// each O(prod_{i<k-1} (c_i + 1) log c_{k-1}): O(n^{2k-1} log n) time,
// O(n^k) space. The planner predicts the work and memory first
// (estimate()) and refuses (status refused, SNF's plan) beyond the time
// limit or kDpMaxBytes; the table stops at the time limit while filling.
#pragma once

#include <cstdint>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/makespan/sender_speed/reduce/dp_two_class.h"
#include "hetcoll/makespan/sender_speed/reduce/mcp_tree.h"

namespace hetcoll {

class KClassDp {
 public:
  // class_times ascending, strictly; counts >= 0, same length >= 1. With a
  // budget, stops when it stops (stopped() is then true and the object must
  // not be queried). Throws InputError when the table cannot be indexed.
  KClassDp(std::vector<double> class_times, std::vector<int> counts, SearchBudget* budget = nullptr);
  bool stopped() const { return stopped_; }

  double value(const std::vector<int>& sub_counts) const;
  double optimum() const { return table_.back(); }
  // An optimal heap-ordered tree for the full counts.
  McpTree tree() const;
  std::uint64_t references() const { return references_; }

  // Split evaluations the DP needs at most (before pruning).
  static double work_estimate(const std::vector<int>& counts);
  // Time and memory, predicted in O(k).
  static DpWorkEstimate estimate(const std::vector<int>& counts);

 private:
  struct Split {
    double value;
    std::int64_t left, right;  // table indices of the two subtrees (-1: none)
  };
  Split best_split(std::int64_t index, const std::vector<int>& digits, std::uint64_t* references) const;
  std::int64_t index_of(const std::vector<int>& digits) const;

  std::vector<double> times_;
  std::vector<int> counts_;
  std::vector<std::int64_t> stride_;
  std::vector<double> table_;
  std::uint64_t references_ = 0;
  bool stopped_ = false;
};

// `--algo dp` for a k-class cluster (any root).
MakespanPlan plan_reduce_dp_k_class(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits = {});

// `--algo dp`: the two-class DP (dp_two_class.h) when the senders have at
// most two classes, the k-class DP otherwise.
MakespanPlan plan_reduce_dp(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits = {});

}  // namespace hetcoll
