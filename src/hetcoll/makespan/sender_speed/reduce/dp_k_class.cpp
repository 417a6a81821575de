#include "hetcoll/makespan/sender_speed/reduce/dp_k_class.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/sender_speed/reduce/dp_two_class.h"

namespace hetcoll {

double KClassDp::work_estimate(const std::vector<int>& counts) {
  if (counts.empty()) return 0;
  double work = (counts.back() + 1.0) / 2.0;
  for (size_t i = 0; i + 1 < counts.size(); ++i) work *= (counts[i] + 1.0) * (counts[i] + 2.0) / 2.0;
  return work;
}

namespace {
// Calibrated with bench_exact: one split
// evaluation (its binary search included).
constexpr double kSecondsPerSplit = 2e-8;
// Table indices are 64-bit and the table one vector.
constexpr double kMaxTableEntries = 2.5e8;
}  // namespace

DpWorkEstimate KClassDp::estimate(const std::vector<int>& counts) {
  DpWorkEstimate work;
  work.table_entries = 1;
  for (int c : counts) work.table_entries *= c + 1.0;
  work.operations = work_estimate(counts);
  work.bytes = work.table_entries * sizeof(double);
  work.seconds = work.operations * kSecondsPerSplit;
  return work;
}

KClassDp::KClassDp(std::vector<double> class_times, std::vector<int> counts, SearchBudget* budget)
    : times_(std::move(class_times)), counts_(std::move(counts)) {
  const size_t k = times_.size();
  if (k == 0 || counts_.size() != k) throw InputError("k-class DP: need one count per class, at least one class");
  for (size_t i = 0; i < k; ++i) {
    if (counts_[i] < 0) throw InputError("k-class DP: negative count");
    if (!(times_[i] > 0) || (i > 0 && !(times_[i] > times_[i - 1]))) {
      throw InputError("k-class DP: class times must be positive and strictly ascending");
    }
  }
  double entries = 1;
  for (int c : counts_) entries *= c + 1.0;
  if (entries > kMaxTableEntries) {
    throw InputError(fmt::format("k-class DP: {} sender classes with counts ({}) give {:.3g} table entries (at most "
                                 "{:.3g})",
                                 k, fmt::join(counts_, ", "), entries, kMaxTableEntries));
  }
  stride_.assign(k, 1);
  for (size_t i = 1; i < k; ++i) stride_[i] = stride_[i - 1] * (counts_[i - 1] + 1);
  table_.assign(static_cast<size_t>(entries), 0.0);
  std::vector<int> digits(k, 0);
  for (std::int64_t index = 0; index < static_cast<std::int64_t>(table_.size()); ++index) {
    if (index > 0) {  // odometer
      for (size_t i = 0; i < k; ++i) {
        if (++digits[i] <= counts_[i]) break;
        digits[i] = 0;
      }
    }
    table_[static_cast<size_t>(index)] = best_split(index, digits, &references_).value;
    if (budget && (index & 255) == 0) {
      budget->table_references = references_;
      if (!budget->check()) {
        stopped_ = true;
        return;
      }
    }
  }
}

std::int64_t KClassDp::index_of(const std::vector<int>& digits) const {
  std::int64_t index = 0;
  for (size_t i = 0; i < digits.size(); ++i) index += digits[i] * stride_[i];
  return index;
}

KClassDp::Split KClassDp::best_split(std::int64_t index, const std::vector<int>& digits,
                                      std::uint64_t* references) const {
  const size_t k = times_.size();
  const size_t slowest = k - 1;
  size_t fastest = 0;
  while (fastest < slowest && digits[fastest] == 0) ++fastest;
  if (fastest == slowest) {  // only the slowest class: a complete tree
    return {ceil_log2(std::int64_t{digits[slowest]} + 1) * times_[slowest], -1, -1};
  }
  // Root: one sender of the fastest class present. Split the rest.
  std::vector<int> rest = digits;
  --rest[fastest];
  const std::int64_t rest_index = index - stride_[fastest];
  const int slow_total = rest[slowest];
  const std::int64_t slow_stride = stride_[slowest];
  const std::int64_t base = rest_index - slow_total * slow_stride;  // the non-slowest part of `rest`
  double best = std::numeric_limits<double>::infinity();
  std::int64_t best_left = -1, best_right = -1;
  std::vector<int> part(slowest, 0);  // the non-slowest part of the left subtree
  std::int64_t part_index = 0;
  while (true) {
    const std::int64_t other_index = base - part_index;
    if (part_index <= other_index) {  // unordered pairs only
      if (references) ++*references;
      const double floor_value = std::max(table_[static_cast<size_t>(part_index)], table_[static_cast<size_t>(other_index)]);
      if (floor_value < best) {
        // Crossover along the slowest coordinate (eq. (4)).
        auto value = [&](int side, int x) {
          return table_[static_cast<size_t>((side == 0 ? part_index : other_index) + x * slow_stride)];
        };
        auto [v, x] = detail::crossover_search(value, 0, 1, slow_total, 0, slow_total, references);
        if (v < best) {
          best = v;
          best_left = part_index + x * slow_stride;
          best_right = other_index + (slow_total - x) * slow_stride;
        }
      }
    }
    // Next sub-vector of rest[0 .. slowest - 1].
    size_t i = 0;
    for (; i < slowest; ++i) {
      if (part[i] < rest[i]) {
        ++part[i];
        part_index += stride_[i];
        break;
      }
      part_index -= part[i] * stride_[i];
      part[i] = 0;
    }
    if (i == slowest) break;
  }
  return {times_[fastest] + best, best_left, best_right};
}

double KClassDp::value(const std::vector<int>& sub_counts) const {
  if (sub_counts.size() != counts_.size()) throw std::invalid_argument("KClassDp::value: wrong dimension");
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (sub_counts[i] < 0 || sub_counts[i] > counts_[i]) throw std::out_of_range("KClassDp::value");
  }
  return table_[static_cast<size_t>(index_of(sub_counts))];
}

McpTree KClassDp::tree() const {
  McpTree tree;
  const size_t k = times_.size();
  auto digits_of = [&](std::int64_t index) {
    std::vector<int> digits(k);
    for (size_t i = 0; i < k; ++i) {
      digits[i] = static_cast<int>(index % (counts_[i] + 1));
      index /= (counts_[i] + 1);
    }
    return digits;
  };
  auto build = [&](auto&& self, std::int64_t index) -> int {
    if (index <= 0) return -1;  // the empty multiset
    auto digits = digits_of(index);
    size_t fastest = 0;
    while (fastest + 1 < k && digits[fastest] == 0) ++fastest;
    if (fastest + 1 == k) {  // only the slowest class: complete tree
      const int count = digits[fastest];
      const int rest = count - 1;
      const int left_count = rest - rest / 2;
      int node = tree.add(static_cast<int>(fastest));
      int l = self(self, left_count * stride_[fastest]);
      int r = self(self, (rest - left_count) * stride_[fastest]);
      tree.nodes[static_cast<size_t>(node)].left = l;
      tree.nodes[static_cast<size_t>(node)].right = r;
      return node;
    }
    Split split = best_split(index, digits, nullptr);
    int node = tree.add(static_cast<int>(fastest));
    int l = self(self, split.left);
    int r = self(self, split.right);
    tree.nodes[static_cast<size_t>(node)].left = l;
    tree.nodes[static_cast<size_t>(node)].right = r;
    return node;
  };
  tree.root = build(build, static_cast<std::int64_t>(table_.size()) - 1);
  return tree;
}

MakespanPlan plan_reduce_dp_k_class(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits) {
  SearchBudget budget(limits);
  SenderClasses classes = sender_classes(cluster, root);
  McpTree tree;
  double optimum = 0;
  std::uint64_t references = 0;
  if (!classes.times.empty()) {
    const DpWorkEstimate work = KClassDp::estimate(classes.counts());
    if (auto refusal = dp_refusal(work, limits)) {
      return dp_fallback_plan(cluster, root, SearchStatus::refused,
                              fmt::format("{} sender classes with counts ({}): {}", classes.times.size(),
                                          fmt::join(classes.counts(), ", "), *refusal));
    }
    KClassDp dp(classes.times, classes.counts(), &budget);
    if (dp.stopped()) {
      return dp_fallback_plan(cluster, root, budget.status(),
                              fmt::format("the k-class DP stopped ({}) after {:.3g} s; the SNF plan is returned",
                                          to_string(budget.status()), budget.elapsed_seconds()));
    }
    tree = dp.tree();
    optimum = dp.optimum();
    references = dp.references();
  }
  MakespanPlan plan = plan_from_optimal_mcp_tree(
      cluster, root, tree, classes, optimum, "k-class DP",
      fmt::format("k-class DP finished (Liu, Kuo, Wang 2009 Thm 6) over {} sender classes", classes.times.size()));
  plan.stats.table_references = references;
  plan.stats.seconds = budget.elapsed_seconds();
  return plan;
}

MakespanPlan plan_reduce_dp(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits) {
  if (sender_classes(cluster, root).times.size() <= 2) return plan_reduce_dp_two_class(cluster, root, limits);
  return plan_reduce_dp_k_class(cluster, root, limits);
}

}  // namespace hetcoll
