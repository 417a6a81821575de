// Exact reduce for two classes of senders by dynamic programming — Liu,
// Kuo, Wang, "An approximation algorithm and dynamic programming for
// reduction in heterogeneous environments", 2009, secs. 5.3.2-5.3.4: eqs. (2)-(4), Lemma 4, Lemma 5, Theorem 5, Figs. 12-16,
// and the reference counts of Tables 2-4.
//
// Notation: T(f, s) = the optimal reduce time with f fast senders (time
// t_f) and s slow senders (time t_s > t_f) *plus* a destination that never
// sends, whose own time is therefore irrelevant: T(f, s) is the minimum
// critical path (MCP) of a binary tree with f + s nodes (mcp_tree.h). A
// cluster of n processors whose root is fast has f = (#fast) - 1; whose root
// is slow, s = (#slow) - 1. (Fig. 8: 8 fast, 4 slow, root slow: T(8, 3).)
//   (2) T(f, s) = t_f + min_{f_l + f_r = f - 1, s_l + s_r = s} max(T(f_l, s_l), T(f_r, s_r)),  f > 0
//   (3) T(0, s) = ceil(log2(s + 1)) t_s
// We also use the closed form T(f, 0) = ceil(log2(f + 1)) t_f (one class),
// which is why row s = 0 of Tables 2-4 holds no references.
// Lemma 4: T(f, s + 1) >= T(f, s). Lemma 5: T(f + 1, s) >= T(f, s) when
// f >= s - 1 (proof: a fast node then has at most one child and can be
// spliced out, Observation 2).
//
// Three DPs of the paper, which must give identical tables:
//  * naive: every buddy pair of (2);
//  * lemma4: for each f_l <= f_r, a binary search along s for the crossover
//    of T(f_l, .) (non-decreasing) and T(f_r, s - .) (non-increasing), eq. (4);
//  * lemma5: Lemma 4 plus the three cases of Figs. 13-15 on the diagonal
//    point of each column, which prune dominated regions (dp_two_class.cpp:
//    the cases, their proofs and the reading taken of the lost figures).
// References: one per buddy pair (two table entries) whose values are
// compared, plus one per single entry compared with the best value. The
// paper counts "pairs of table entries" (its Tables 2-4).
//
// A fourth method, ours (not in the seed): T by *capacity*. For a deadline
// D, S(f; D) = the most slow senders that fit with exactly f fast ones
// (-1 if even s = 0 does not fit), a max-plus self-convolution over f
// evaluated on the lattice points a t_f + b t_s where critical paths end
// (dp_two_class.cpp); T(f, s) = the least lattice D with S(f; D) >= s.
// Cost O(#lattice points x f_max^2 / 4), independent of s_max. estimate()
// predicts the lattice size, work and memory; the planner refuses (status
// refused, SNF's plan) what exceeds the time limit or kDpMaxBytes.
//
// Complexity: naive O(f^2 s^2); lemma4/lemma5 O(f^2 s log s) (Thm 5).
// Guarantee: exact (any ratio t_s / t_f; SNF is already optimal for >= 2).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/makespan/sender_speed/reduce/mcp_tree.h"

namespace hetcoll {

enum class TwoClassDp { naive, lemma4, lemma5 };
std::string_view to_string(TwoClassDp variant);

// T(f, s) for 0 <= f <= max_f, 0 <= s <= max_s, with per-cell reference counts.
struct TwoClassTable {
  double t_fast = 1, t_slow = 2;
  int max_f = 0, max_s = 0;
  std::vector<double> values;                 // index f * (max_s + 1) + s
  std::vector<std::uint64_t> cell_references;  // the same indexing
  std::uint64_t total_references = 0;

  double at(int f, int s) const { return values[static_cast<size_t>(f) * static_cast<size_t>(max_s + 1) + static_cast<size_t>(s)]; }
  std::uint64_t references_at(int f, int s) const {
    return cell_references[static_cast<size_t>(f) * static_cast<size_t>(max_s + 1) + static_cast<size_t>(s)];
  }
};

// The paper's three DPs. Requires 0 < t_fast <= t_slow.
TwoClassTable two_class_table(double t_fast, double t_slow, int max_f, int max_s, TwoClassDp variant);

// What a DP will cost, predicted before it runs (O(log n) for the two-class
// DP, O(k) for the k-class one).
struct DpWorkEstimate {
  double table_entries = 0;  // lattice deadlines (two-class) or count vectors (k-class)
  double operations = 0;     // pair / split evaluations, and the set-up
  double bytes = 0;
  double seconds = 0;        // operations x a calibrated cost
  std::string describe() const;
};

// Memory a DP may use, whatever the time limit.
inline constexpr double kDpMaxBytes = 2e9;
// Predictions above this are refused when no time limit is given.
inline constexpr double kDpDefaultRefusalSeconds = 3600;

// T(f, s) by capacity (ours); value() is O(log #lattice points).
class TwoClassCapacity {
 public:
  static DpWorkEstimate estimate(double t_fast, double t_slow, int max_f, int max_s);
  // Builds the table; with a budget, stops when it stops (stopped() is then
  // true and the object must not be queried).
  TwoClassCapacity(double t_fast, double t_slow, int max_f, int max_s, SearchBudget* budget = nullptr);
  bool stopped() const { return stopped_; }
  double value(int f, int s) const;
  std::uint64_t references() const { return references_; }
  int max_f() const { return max_f_; }
  int max_s() const { return max_s_; }
  // The whole table (cell_references left zero; total_references = references()).
  TwoClassTable table() const;

 private:
  double t_fast_, t_slow_;
  int max_f_, max_s_;
  std::vector<double> deadlines_;                // ascending lattice points
  std::vector<std::vector<std::int32_t>> rows_;  // rows_[d][f] = S(f; deadlines_[d]), capped at max_s + 1
  std::uint64_t references_ = 0;
  bool stopped_ = false;
};

// An optimal MCP tree for (f, s) (class 0 = fast, 1 = slow) given any exact
// T lookup; splits found by the eq. (4) binary search.
template <class Lookup>
McpTree two_class_mcp_tree(const Lookup& value, int f, int s);

// `--algo dp` for clusters whose senders form at most two classes (the
// root anywhere); InputError otherwise. Refused or stopped by `limits`
// (core/limits.h; no node limit): SNF's plan with the status.
MakespanPlan plan_reduce_dp_two_class(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits = {});

// The plan a DP returns when refused or stopped: SNF's (<= 2 x optimal,
// Liu, Kuo, Wang 2009 Thm 2), named "dp", with the status and a note.
MakespanPlan dp_fallback_plan(const Cluster& cluster, ProcessorIndex root, SearchStatus status, std::string note);

// The refusal decision shared by the DPs: a note when `work` exceeds the
// time limit (kDpDefaultRefusalSeconds without one) or kDpMaxBytes.
std::optional<std::string> dp_refusal(const DpWorkEstimate& work, const SearchLimits& limits);

// --- implementation of the template ---

namespace detail {
// min over s_l in [lo, hi] of max(T(a, s_l), T(b, s - s_l)): (value, argmin).
template <class Lookup>
std::pair<double, int> crossover_search(const Lookup& value, int a, int b, int s, int lo, int hi,
                                        std::uint64_t* references) {
  // Smallest x in [lo, hi] with T(a, x) >= T(b, s - x) (hi + 1 if none).
  int left = lo, right = hi + 1;
  while (left < right) {
    int mid = left + (right - left) / 2;
    if (references) ++*references;
    if (value(a, mid) >= value(b, s - mid)) right = mid; else left = mid + 1;
  }
  double best = std::numeric_limits<double>::infinity();
  int arg = lo;
  if (left <= hi) {
    if (references) ++*references;
    best = value(a, left);  // = max at x = left
    arg = left;
  }
  if (left - 1 >= lo) {
    if (references) ++*references;
    double v = value(b, s - (left - 1));  // = max at x = left - 1
    if (v < best) { best = v; arg = left - 1; }
  }
  return {best, arg};
}
}  // namespace detail

template <class Lookup>
McpTree two_class_mcp_tree(const Lookup& value, int f, int s) {
  McpTree tree;
  // build(f, s) returns the root index of an optimal subtree (-1 if empty).
  auto build = [&](auto&& self, int fast, int slow) -> int {
    if (fast == 0 && slow == 0) return -1;
    if (fast == 0) {
      // A complete binary tree of the slow senders: depth ceil(log2(s + 1)).
      int root = tree.add(1);
      int rest = slow - 1;
      int left_count = rest / 2 + rest % 2;
      int l = self(self, 0, left_count);
      int r = self(self, 0, rest - left_count);
      tree.nodes[static_cast<size_t>(root)].left = l;
      tree.nodes[static_cast<size_t>(root)].right = r;
      return root;
    }
    double best = std::numeric_limits<double>::infinity();
    int best_a = 0, best_x = 0;
    for (int a = 0; a <= (fast - 1) / 2; ++a) {
      auto [v, x] = detail::crossover_search(value, a, fast - 1 - a, slow, 0, slow, nullptr);
      if (v < best) { best = v; best_a = a; best_x = x; }
    }
    int root = tree.add(0);
    int l = self(self, best_a, best_x);
    int r = self(self, fast - 1 - best_a, slow - best_x);
    tree.nodes[static_cast<size_t>(root)].left = l;
    tree.nodes[static_cast<size_t>(root)].right = r;
    return root;
  };
  tree.root = build(build, f, s);
  return tree;
}

}  // namespace hetcoll
