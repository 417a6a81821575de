#include "hetcoll/makespan/reduce/optimal_search.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/reduce/ep.h"
#include "hetcoll/makespan/reduce/snf.h"

namespace hetcoll {

namespace {

// Open slots that are interchangeable: same reversed time, same parent class.
struct SlotGroup {
  double time;
  int min_class;             // the parent's class: only classes >= it may go here
  std::vector<int> parents;  // parent node of each slot (-1: the destination)
};

struct PathEntry {
  int class_index;
  int parent;
};

constexpr std::uint64_t kMaxMemoEntries = 4'000'000;
constexpr int kFreshGroup = -1;
// Bisection passes while the gap exceeds this fraction of the incumbent.
constexpr double kPlainGap = 0.01;

class Searcher {
 public:
  Searcher(const std::vector<double>& times, const std::vector<int>& counts, double incumbent,
           double lower_bound, const SearchLimits& limits, bool memoise, double tolerance)
      : times_(times), remaining_(counts), best_(incumbent), budget_(limits),
        memoise_(memoise), tolerance_(tolerance), k_(static_cast<int>(times.size())) {
    quantum_ = tolerance_ > 0 ? tolerance_ : 1e-12;
    lower_bound_ = lower_bound;
  }

  ReduceTreeSearchResult run() {
    ReduceTreeSearchResult result;
    int total = 0;
    for (int c : remaining_) total += c;
    remaining_total_ = total;
    if (total == 0) {
      result.best = 0;
      best_ = 0;
      result.lower_bound = 0;
      return result;
    }
    run_passes();
    result.best = best_;
    result.lower_bound = lower_bound_;
    result.improved = !best_path_.empty();
    result.status = budget_.status();
    result.nodes = budget_.nodes();
    result.memo_hits = memo_hits_;
    if (result.improved) {
      McpTree& tree = result.tree;
      for (const auto& entry : best_path_) tree.add(entry.class_index);
      for (size_t v = 0; v < best_path_.size(); ++v) {
        const int parent = best_path_[v].parent;
        if (parent < 0) {
          tree.root = static_cast<int>(v);
        } else {
          auto& node = tree.nodes[static_cast<size_t>(parent)];
          (node.left < 0 ? node.left : node.right) = static_cast<int>(v);
        }
      }
    }
    return result;
  }

 private:
  // Passes (see the header): bisection targets while the gap is wide, then
  // one plain branch-and-bound pass against the incumbent.
  void run_passes() {
    for (;;) {
      if (lower_bound_ >= best_ - tolerance_) {  // the incumbent is optimal
        lower_bound_ = std::max(lower_bound_, best_);
        return;
      }
      const bool bisect = std::isfinite(best_) && best_ - lower_bound_ > kPlainGap * best_;
      const double target = bisect ? lower_bound_ + (best_ - lower_bound_) / 2 : best_ - tolerance_;
      bar_ = std::min(target, best_ - tolerance_);
      stop_at_first_ = bisect;
      found_ = false;
      std::vector<SlotGroup> slots{{0.0, 0, {-1}}};
      dfs(slots, kFreshGroup, 0.0);
      if (unwinding_) {  // a bisection pass found a tree shorter than its target
        aborted_ = unwinding_ = false;
        continue;
      }
      if (aborted_) return;
      if (!bisect) {  // exhausted below the incumbent
        lower_bound_ = std::max(lower_bound_, best_);
        return;
      }
      if (!found_) lower_bound_ = std::max(lower_bound_, target);  // no tree shorter than the target
    }
  }

  bool limits_hit() {
    if (!budget_.admit(best_)) aborted_ = true;
    return aborted_;
  }

  // The smallest class >= c with senders left (k_ if none).
  int next_class(int c) const {
    while (c < k_ && remaining_[static_cast<size_t>(c)] == 0) ++c;
    return c;
  }

  // Capacity bound (see the header): false when the remaining senders
  // cannot all end by D = best - tolerance.
  bool may_fit(const std::vector<SlotGroup>& slots, int first_floor) const {
    const double deadline = bar_;
    std::int64_t needed = 0;  // senders of class >= i, i descending
    for (int i = k_ - 1; i >= 0; --i) {
      const int here = remaining_[static_cast<size_t>(i)];
      if (here == 0) continue;
      needed += here;
      std::int64_t capacity = 0;
      for (size_t g = 0; g < slots.size() && capacity < needed; ++g) {
        int min_class = slots[g].min_class;
        if (g == 0 && first_floor != kFreshGroup) min_class = std::max(min_class, first_floor);
        const int internal = next_class(min_class);
        if (internal >= k_) continue;
        const int leaf = next_class(std::max(i, min_class));
        if (leaf >= k_) continue;
        const double room = deadline - times_[static_cast<size_t>(leaf)] - slots[g].time;
        if (room < -tolerance_) continue;
        const double levels = std::floor(room / times_[static_cast<size_t>(internal)] + 1e-9);
        const std::int64_t per_slot = levels >= 40 ? (std::int64_t{1} << 41) : (std::int64_t{1} << (static_cast<int>(levels) + 1)) - 1;
        capacity += per_slot * static_cast<std::int64_t>(slots[g].parents.size());
      }
      if (capacity < needed) return false;
    }
    return true;
  }

  std::string memo_key(const std::vector<SlotGroup>& slots) const {
    std::string key;
    key.reserve(static_cast<size_t>(k_) * 4 + slots.size() * 16);
    for (int c : remaining_) key.append(reinterpret_cast<const char*>(&c), sizeof c);
    for (const auto& group : slots) {
      const auto quantised = static_cast<std::int64_t>(std::llround(group.time / quantum_));
      const auto multiplicity = static_cast<std::int32_t>(group.parents.size());
      key.append(reinterpret_cast<const char*>(&quantised), sizeof quantised);
      key.append(reinterpret_cast<const char*>(&group.min_class), sizeof group.min_class);
      key.append(reinterpret_cast<const char*>(&multiplicity), sizeof multiplicity);
    }
    return key;
  }

  static void insert_slots(std::vector<SlotGroup>& slots, double time, int min_class, int parent, double tolerance) {
    auto it = std::lower_bound(slots.begin(), slots.end(), time - tolerance, [](const SlotGroup& g, double t) { return g.time < t; });
    for (; it != slots.end() && it->time <= time + tolerance; ++it) {
      if (it->min_class == min_class) {
        it->parents.push_back(parent);
        it->parents.push_back(parent);
        return;
      }
      if (it->min_class > min_class) break;
    }
    slots.insert(it, SlotGroup{time, min_class, {parent, parent}});
  }

  // `floor`: the least option the next slot of the first group may take
  // (kFreshGroup at a group boundary).
  void dfs(std::vector<SlotGroup>& slots, int floor, double makespan) {
    if (limits_hit()) return;
    if (remaining_total_ == 0) {
      if (makespan < bar_) {
        best_ = makespan;
        best_path_ = path_;
        bar_ = std::min(bar_, best_ - tolerance_);
        found_ = true;
        if (stop_at_first_) aborted_ = unwinding_ = true;
      }
      return;
    }
    if (slots.empty()) return;
    if (!may_fit(slots, floor)) return;
    std::string key;
    if (memoise_ && floor == kFreshGroup) {
      key = memo_key(slots);
      // A state that failed for a bar fails for every lower one.
      if (auto it = failed_.find(key); it != failed_.end() && it->second >= bar_) {
        ++memo_hits_;
        return;
      }
    }
    const SlotGroup& first = slots.front();
    const double slot_time = first.time;
    const int lowest = std::max(first.min_class, floor == kFreshGroup ? 0 : floor);
    for (int c = lowest; c < k_; ++c) {
      if (remaining_[static_cast<size_t>(c)] == 0) continue;
      const double end = slot_time + times_[static_cast<size_t>(c)];
      if (end >= bar_) break;  // classes are ascending: no later one fits either
      std::vector<SlotGroup> child = slots;
      const int parent = child.front().parents.back();
      child.front().parents.pop_back();
      int child_floor = c;
      if (child.front().parents.empty()) {
        child.erase(child.begin());
        child_floor = kFreshGroup;
      }
      const int node = static_cast<int>(path_.size());
      path_.push_back({c, parent});
      insert_slots(child, end, c, node, tolerance_);
      --remaining_[static_cast<size_t>(c)];
      --remaining_total_;
      dfs(child, child_floor, std::max(makespan, end));
      ++remaining_[static_cast<size_t>(c)];
      ++remaining_total_;
      path_.pop_back();
      if (aborted_) return;
    }
    // Close this slot and, by the non-decreasing rule, the rest of its group.
    {
      std::vector<SlotGroup> child(slots.begin() + 1, slots.end());
      dfs(child, kFreshGroup, makespan);
    }
    if (memoise_ && floor == kFreshGroup && !aborted_ && failed_.size() < kMaxMemoEntries) {
      auto [it, inserted] = failed_.try_emplace(std::move(key), bar_);
      if (!inserted) it->second = std::max(it->second, bar_);
    }
  }

  std::vector<double> times_;
  std::vector<int> remaining_;
  int remaining_total_ = 0;
  double best_;
  SearchBudget budget_;
  bool memoise_;
  double tolerance_;
  double quantum_ = 1e-12;
  int k_;
  std::uint64_t memo_hits_ = 0;
  bool aborted_ = false;
  std::vector<PathEntry> path_, best_path_;
  std::unordered_map<std::string, double> failed_;  // exhausted state -> the bar it failed for
  double lower_bound_;      // proven: no tree is shorter
  double bar_ = 0;          // the pass looks for trees shorter than this
  bool stop_at_first_ = false;
  bool found_ = false;
  bool unwinding_ = false;  // a bisection pass found its tree (not a limit)
};

}  // namespace

ReduceTreeSearch::ReduceTreeSearch(std::vector<double> class_times, std::vector<int> counts)
    : times_(std::move(class_times)), counts_(std::move(counts)) {
  if (times_.size() != counts_.size()) throw InputError("reduce search: one count per class");
  for (size_t i = 0; i < times_.size(); ++i) {
    if (!(times_[i] > 0) || (i > 0 && !(times_[i] > times_[i - 1]))) {
      throw InputError("reduce search: class times must be positive and strictly ascending");
    }
    if (counts_[i] < 0) throw InputError("reduce search: negative count");
  }
}

ReduceTreeSearchResult ReduceTreeSearch::run() {
  const double tolerance = tolerance_ >= 0 ? tolerance_ : (times_.empty() ? 0.0 : time_tolerance(times_.front(), times_.back()));
  Searcher searcher(times_, counts_, incumbent_, lower_bound_, limits_, memoise_, tolerance);
  return searcher.run();
}

MakespanPlan plan_reduce_optimal(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits) {
  SenderClasses classes = sender_classes(cluster, root);
  const auto snf = snf_order(cluster, root);
  const double snf_makespan = snf.empty() ? 0.0 : ep_makespan(cluster, snf);
  // The closed-form bound holds for the class times too (each class takes
  // its slowest member's time, so no tree gets shorter).
  const double closed_form = reduce_lower_bound(cluster, root);
  ReduceTreeSearch search(classes.times, classes.counts());
  search.incumbent(snf_makespan).lower_bound(closed_form).limits(limits).tolerance(cluster.tolerance());
  ReduceTreeSearchResult result = search.run();

  std::vector<ProcessorIndex> order = snf;
  if (result.improved) {
    order = ep_order_from_mcp_tree(result.tree, classes);
  }
  MakespanPlan plan = reduce_plan_from_order(cluster, root, order, "optimal");
  if (result.improved && plan.makespan > result.best + cluster.tolerance()) {
    throw std::logic_error(fmt::format("reduce search: EP of the best tree takes {} > its length {}", plan.makespan,
                                       result.best));
  }
  plan.stats.nodes = result.nodes;
  plan.status = result.status;
  plan.guarantee = Guarantee::at_most(2.0);  // never worse than SNF (Thm 2)
  // The search's bound holds over class times (each class's slowest member,
  // sender_classes()), so the true optimum is at least that minus the
  // rounding slack. A finished search proves its best length; a stopped one
  // the bound of its failed passes.
  const double proven = std::max(result.lower_bound - classes.rounding_slack(), closed_form);
  settle_claims(plan, proven, cluster.tolerance(),
                result.finished() ? fmt::format("branch-and-bound over heap-ordered MCP trees finished ({} nodes{})",
                                                result.nodes, result.improved ? "" : "; SNF is optimal")
                                  : kBoundMetProof);
  if (!result.finished()) {
    plan.notes.push_back(fmt::format("search stopped ({}) after {} nodes; best plan so far (at least as good as SNF); "
                                     "proven lower bound {:.6g} (closed form {:.6g})",
                                     to_string(result.status), result.nodes, proven, closed_form));
  } else {
    settle_merged_classes(plan, "search");
  }
  return plan;
}

}  // namespace hetcoll
