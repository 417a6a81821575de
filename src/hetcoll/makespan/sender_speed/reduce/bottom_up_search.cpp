// The rules and bounds in detail (bottom_up_search.h states the contract):
//
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

#include "hetcoll/makespan/sender_speed/reduce/bottom_up_search.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "hetcoll/core/error.h"
#include "hetcoll/core/ids.h"
#include "hetcoll/makespan/sender_speed/reduce/leaf_average_bound.h"

namespace hetcoll {

namespace {

struct Subtree {
  double value;  // its height: the root's end in reversed time
  int node;      // its root (-1: an empty leaf)
};

struct Merge {
  int class_index;
  int left, right;
};

class Searcher {
 public:
  Searcher(const std::vector<double>& times, const std::vector<int>& counts, double incumbent, double lower_bound,
           const SearchLimits& limits, double tolerance)
      : best_(incumbent), lower_bound_(lower_bound), budget_(limits), tolerance_(tolerance) {
    for (int c = static_cast<int>(times.size()) - 1; c >= 0; --c) {
      for (int i = 0; i < counts[static_cast<size_t>(c)]; ++i) {
        order_.push_back(c);
        merge_time_.push_back(times[static_cast<size_t>(c)]);
      }
    }
    n_ = static_cast<int>(order_.size());
    // prefix_[d]: the d fastest times; the senders left at depth k are the
    // n_ - k fastest, so every prefix up to n_ - k is theirs.
    prefix_.assign(static_cast<size_t>(n_) + 1, 0.0);
    for (int d = 1; d <= n_; ++d) prefix_[static_cast<size_t>(d)] = prefix_[static_cast<size_t>(d) - 1] + merge_time_[static_cast<size_t>(n_ - d)];
    // G_k for k = 1 .. n_ + 1 leaves with the k - 1 fastest senders.
    least_sum_.assign(static_cast<size_t>(n_) + 2, 0.0);
    for (int k = 2; k <= n_ + 1; ++k) {
      const std::vector<double> h = least_forest_leaf_depths(k, k - 1);
      double sum = 0;
      for (int j = 1; j <= k - 1; ++j) {
        // c_j: the j-th slowest of the k - 1 fastest (descending).
        const double c = merge_time_[static_cast<size_t>(n_ - (k - 1) + (j - 1))];
        const double next = j < k - 1 ? merge_time_[static_cast<size_t>(n_ - (k - 1) + j)] : 0.0;
        sum += (c - next) * h[static_cast<size_t>(j)];
      }
      least_sum_[static_cast<size_t>(k)] = sum;
    }
    levels_.resize(static_cast<size_t>(n_) + 1);
    merges_.resize(static_cast<size_t>(n_));
  }

  ReduceTreeSearchResult run() {
    ReduceTreeSearchResult result;
    if (n_ == 0) {
      result.best = 0;
      result.lower_bound = 0;
      return result;
    }
    run_passes();
    result.best = best_;
    result.lower_bound = lower_bound_;
    result.improved = !best_merges_.empty();
    result.status = budget_.status();
    result.nodes = budget_.nodes();
    if (result.improved) {
      for (const Merge& merge : best_merges_) result.tree.add(merge.class_index, merge.left, merge.right);
      result.tree.root = n_ - 1;
    }
    return result;
  }

 private:
  // One pass against the incumbent, which improves as the search goes (no
  // bisection targets: on all-distinct times a plain pass both improves the
  // incumbent and finishes sooner).
  void run_passes() {
    if (lower_bound_ >= best_ - tie_tolerance(best_, best_, tolerance_)) {  // the incumbent is optimal
      lower_bound_ = std::max(lower_bound_, best_);
      return;
    }
    bar_ = best_ - tie_tolerance(best_, best_, tolerance_);
    levels_[0].assign(static_cast<size_t>(n_) + 1, Subtree{0.0, -1});
    dfs(0);
    if (!aborted_) lower_bound_ = std::max(lower_bound_, best_);  // exhausted below the incumbent
  }

  // False when no completion of the state at depth k can be shorter than bar_.
  bool may_beat(int k) const {
    const std::vector<Subtree>& values = levels_[static_cast<size_t>(k)];
    const int m = n_ - k;
    const double limit = bar_ + tie_tolerance(bar_, bar_, tolerance_);
    // Leaf average over the j largest values.
    double sum = 0;
    for (int j = 1; j <= m + 1; ++j) {
      sum += values[static_cast<size_t>(m + 1 - j)].value;
      if ((sum + least_sum_[static_cast<size_t>(j)]) / j > limit) return false;
    }
    // Kraft: values ascending, so the deepest allowed depth only falls.
    constexpr int kMaxDepth = 62;
    std::uint64_t kraft = 0;  // sum of 2^(kMaxDepth - d_v), d_v <= kMaxDepth counted
    int depth = m;
    for (int i = 0; i <= m; ++i) {
      const double room = limit - values[static_cast<size_t>(i)].value;
      while (depth >= 0 && prefix_[static_cast<size_t>(depth)] > room) --depth;
      if (depth < 0) return false;  // not even a leaf at depth 0 fits
      if (depth <= kMaxDepth) {
        kraft += std::uint64_t{1} << (kMaxDepth - depth);
        if (kraft > (std::uint64_t{1} << kMaxDepth)) return false;
      }
    }
    return true;
  }

  void dfs(int k) {
    if (!budget_.admit(best_)) {
      aborted_ = true;
      return;
    }
    const std::vector<Subtree>& values = levels_[static_cast<size_t>(k)];
    if (k == n_) {
      const double length = values.front().value;
      if (length < bar_) {
        best_ = length;
        best_merges_ = merges_;
        bar_ = best_ - tie_tolerance(best_, best_, tolerance_);
      }
      return;
    }
    if (!may_beat(k)) return;
    const double t = merge_time_[static_cast<size_t>(k)];
    const size_t size = values.size();
    std::vector<Subtree>& child = levels_[static_cast<size_t>(k) + 1];
    for (size_t i = 1; i < size; ++i) {
      if (i + 1 < size && values[i + 1].value == values[i].value) continue;  // the last of equal values
      const double merged = values[i].value + t;
      if (merged >= bar_) break;  // ascending: every later one is longer
      child.clear();
      bool placed = false;
      for (size_t j = 0; j < size; ++j) {
        if (j == i - 1 || j == i) continue;
        if (!placed && values[j].value > merged) {
          child.push_back({merged, k});
          placed = true;
        }
        child.push_back(values[j]);
      }
      if (!placed) child.push_back({merged, k});
      merges_[static_cast<size_t>(k)] = {order_[static_cast<size_t>(k)], values[i - 1].node, values[i].node};
      dfs(k + 1);
      if (aborted_) return;
    }
  }

  std::vector<int> order_;            // merge k's class (slowest first)
  std::vector<double> merge_time_;    // merge k's time (descending)
  std::vector<double> prefix_;        // sums of the fastest times
  std::vector<double> least_sum_;     // G_k of the header
  std::vector<std::vector<Subtree>> levels_;
  std::vector<Merge> merges_, best_merges_;
  int n_ = 0;
  double best_;
  double lower_bound_;
  SearchBudget budget_;
  double tolerance_;
  double bar_ = 0;  // the pass looks for trees shorter than this
  bool aborted_ = false;
};

}  // namespace

ReduceBottomUpSearch::ReduceBottomUpSearch(std::vector<double> class_times, std::vector<int> counts)
    : times_(std::move(class_times)), counts_(std::move(counts)) {
  check_reduce_search_classes(times_, counts_);
}

ReduceTreeSearchResult ReduceBottomUpSearch::run() {
  const double tolerance = reduce_search_tolerance(times_, tolerance_);
  Searcher searcher(times_, counts_, incumbent_, lower_bound_, limits_, tolerance);
  return searcher.run();
}

}  // namespace hetcoll
