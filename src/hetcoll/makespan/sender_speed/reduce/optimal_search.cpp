// The search in detail (optimal_search.h states the contract):
//
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

#include "hetcoll/makespan/sender_speed/reduce/optimal_search.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/sender_speed/broadcast/sequence_local_search.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/sender_speed/reduce/bottom_up_search.h"
#include "hetcoll/makespan/sender_speed/reduce/ep.h"
#include "hetcoll/makespan/sender_speed/reduce/leaf_average_bound.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/makespan/search_memo_internal.h"

namespace hetcoll {

namespace {

// One open slot (a place for a sender). Slots sit in one flat array sorted
// by time; a run of consecutive slots with the same time and parent class
// is a group of interchangeable slots (a slot joining a group within the
// tolerance takes the group's time, so equality identifies the run).
// Flat plain values: a child state is one copy into a per-depth buffer,
// with no allocation once the buffers have grown.
struct ReduceSlot {
  double time;
  int min_class;  // the parent's class: only classes >= it may go here
  int parent;     // parent node (-1: the destination)
};

struct PathEntry {
  int class_index;
  int parent;
};

// The memo keeps exhausted states within this many bytes (keys of a few
// words each: some millions of states).
constexpr std::size_t kMemoBytes = std::size_t{512} << 20;
constexpr int kFreshGroup = -1;
// Bisection passes while the gap exceeds this fraction of the incumbent.
constexpr double kPlainGap = 0.01;
// Bisection targets lie this fraction of the way from the proven bound to
// the incumbent: low targets fail (raising the bound) in far fewer nodes
// than the midpoint.
constexpr double kReduceBisectionStep = 0.15;
// The local-search incumbent (plan_reduce_optimal): at most this many
// senders and evaluations, not under a time limit shorter than this.
constexpr std::size_t kLocalSearchMaxSenders = 64;
constexpr std::size_t kLocalSearchEvaluations = 4000;
constexpr double kReduceLocalSearchMinSeconds = 0.1;
// Mostly distinct times (classes at least two thirds of the senders) and
// at most this many senders: plan_reduce_optimal searches bottom up
// (bottom_up_search.h), which proves all-distinct instances this search
// does not. With about two senders per class this search's class symmetry
// wins as often as not; with fewer the bottom-up one is not worse.
constexpr std::size_t kBottomUpMaxSenders = 256;

class ReduceSearcher {
 public:
  ReduceSearcher(const std::vector<double>& times, const std::vector<int>& counts, double incumbent,
           double lower_bound, const SearchLimits& limits, bool memoise, double tolerance)
      : times_(times), remaining_(counts), best_(incumbent), budget_(limits),
        memoise_(memoise), tolerance_(tolerance), k_(static_cast<int>(times.size())),
        memo_(memoise ? kMemoBytes : 0) {
    quantum_ = tolerance_ > 0 ? tolerance_ : 1e-12;
    lower_bound_ = lower_bound;
    int largest = 0;
    for (int c : counts) largest = std::max(largest, c);
    count_bits_ = std::max(1, static_cast<int>(std::bit_width(static_cast<unsigned>(largest))));
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
    // Each level places a sender or closes a group: at most
    // senders + (1 + 2 senders) groups deep.
    const size_t depth = 3 * static_cast<size_t>(total) + 4;
    levels_.resize(depth);
    keys_.resize(depth);
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
      if (lower_bound_ >= best_ - tie_tolerance(best_, best_, tolerance_)) {  // the incumbent is optimal
        lower_bound_ = std::max(lower_bound_, best_);
        return;
      }
      const bool bisect = std::isfinite(best_) && best_ - lower_bound_ > kPlainGap * best_;
      const double target = bisect ? lower_bound_ + (best_ - lower_bound_) * kReduceBisectionStep : best_ - tie_tolerance(best_, best_, tolerance_);
      bar_ = std::min(target, best_ - tie_tolerance(best_, best_, tolerance_));
      stop_at_first_ = bisect;
      found_ = false;
      levels_[0].assign(1, ReduceSlot{0.0, 0, -1});
      dfs(0, kFreshGroup, 0.0);
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

  // The end of the group (run of interchangeable slots) starting at `begin`.
  static size_t group_end(const std::vector<ReduceSlot>& slots, size_t begin) {
    size_t end = begin + 1;
    while (end < slots.size() && slots[end].time == slots[begin].time &&
           slots[end].min_class == slots[begin].min_class) {
      ++end;
    }
    return end;
  }

  // Capacity bound (see the header): false when the remaining senders
  // cannot all end by D = best - tolerance. O(k + k x slots).
  bool may_fit(const std::vector<ReduceSlot>& slots, int first_floor) {
    // next_open_[c]: the smallest class >= c with senders left (k_ if none).
    next_open_.resize(static_cast<size_t>(k_) + 1);
    next_open_[static_cast<size_t>(k_)] = k_;
    for (int c = k_ - 1; c >= 0; --c) {
      next_open_[static_cast<size_t>(c)] = remaining_[static_cast<size_t>(c)] > 0 ? c : next_open_[static_cast<size_t>(c) + 1];
    }
    const double deadline = bar_;
    const size_t first_end = group_end(slots, 0);  // the floor binds the whole first group
    std::int64_t needed = 0;  // senders of class >= i, i descending
    for (int i = k_ - 1; i >= 0; --i) {
      const int here = remaining_[static_cast<size_t>(i)];
      if (here == 0) continue;
      needed += here;
      std::int64_t capacity = 0;
      for (size_t g = 0; g < slots.size() && capacity < needed; ++g) {
        int min_class = slots[g].min_class;
        if (g < first_end && first_floor != kFreshGroup) min_class = std::max(min_class, first_floor);
        const int internal = next_open_[static_cast<size_t>(min_class)];
        if (internal >= k_) continue;
        const int leaf = next_open_[static_cast<size_t>(std::max(i, min_class))];
        if (leaf >= k_) continue;
        const double room = deadline - times_[static_cast<size_t>(leaf)] - slots[g].time;
        if (time_less(deadline, times_[static_cast<size_t>(leaf)] + slots[g].time, tolerance_)) continue;
        const double levels = std::floor(room / times_[static_cast<size_t>(internal)] + 1e-9);
        capacity += levels >= 40 ? (std::int64_t{1} << 41) : (std::int64_t{1} << (static_cast<int>(levels) + 1)) - 1;
      }
      if (capacity < needed) return false;
    }
    return true;
  }

  // The state: remaining class counts (packed, count_bits_ each) and the
  // groups (quantised time; parent class and multiplicity in one word).
  void memo_key(const std::vector<ReduceSlot>& slots, std::vector<std::int64_t>& key) const {
    key.clear();
    std::uint64_t word = 0;
    int used = 0;
    for (int c : remaining_) {
      if (used + count_bits_ > 64) {
        key.push_back(static_cast<std::int64_t>(word));
        word = 0;
        used = 0;
      }
      word |= static_cast<std::uint64_t>(c) << used;
      used += count_bits_;
    }
    key.push_back(static_cast<std::int64_t>(word));
    for (size_t g = 0; g < slots.size();) {
      const size_t end = group_end(slots, g);
      key.push_back(std::llround(slots[g].time / quantum_));
      key.push_back((static_cast<std::int64_t>(slots[g].min_class) << 32) | static_cast<std::int64_t>(end - g));
      g = end;
    }
  }

  // Adds two slots at `time` opened by `parent` (class min_class): into the
  // group of the same parent class within the tolerance (taking its time),
  // else a new group before the slower parent classes at that time.
  void insert_slots(std::vector<ReduceSlot>& slots, double time, int min_class, int parent) const {
    auto it = std::lower_bound(slots.begin(), slots.end(), time - tie_tolerance(time, time, tolerance_),
                               [](const ReduceSlot& s, double t) { return s.time < t; });
    double at = time;
    while (it != slots.end() && time_leq(it->time, time, tolerance_)) {
      if (it->min_class == min_class) {
        at = it->time;
        const auto end = slots.begin() + static_cast<std::ptrdiff_t>(group_end(slots, static_cast<size_t>(it - slots.begin())));
        it = end;
        break;
      }
      if (it->min_class > min_class) break;
      it = slots.begin() + static_cast<std::ptrdiff_t>(group_end(slots, static_cast<size_t>(it - slots.begin())));
    }
    const ReduceSlot slot{at, min_class, parent};
    slots.insert(it, 2, slot);
  }

  // Explores the state levels_[depth]. `floor`: the least option the next
  // slot of the first group may take (kFreshGroup at a group boundary).
  void dfs(size_t depth, int floor, double makespan) {
    if (limits_hit()) return;
    if (remaining_total_ == 0) {
      if (makespan < bar_) {
        best_ = makespan;
        best_path_ = path_;
        bar_ = std::min(bar_, best_ - tie_tolerance(best_, best_, tolerance_));
        found_ = true;
        if (stop_at_first_) aborted_ = unwinding_ = true;
      }
      return;
    }
    const std::vector<ReduceSlot>& slots = levels_[depth];
    if (slots.empty()) return;
    if (!may_fit(slots, floor)) return;
    std::vector<std::int64_t>& key = keys_[depth];
    std::uint64_t hash = 0;
    const bool memo_here = memoise_ && floor == kFreshGroup;
    if (memo_here) {
      memo_key(slots, key);
      hash = hash_key(key);
      // A state that failed for a bar fails for every lower one.
      if (const double* failed_for = memo_.find(key, hash); failed_for && *failed_for >= bar_) {
        ++memo_hits_;
        return;
      }
    }
    const size_t first_end = group_end(slots, 0);
    const double slot_time = slots.front().time;
    const int lowest = std::max(slots.front().min_class, floor == kFreshGroup ? 0 : floor);
    std::vector<ReduceSlot>& child = levels_[depth + 1];
    for (int c = lowest; c < k_; ++c) {
      if (remaining_[static_cast<size_t>(c)] == 0) continue;
      const double end = slot_time + times_[static_cast<size_t>(c)];
      if (end >= bar_) break;  // classes are ascending: no later one fits either
      // The group's last slot takes the sender.
      child.assign(slots.begin(), slots.end());
      const int parent = child[first_end - 1].parent;
      child.erase(child.begin() + static_cast<std::ptrdiff_t>(first_end - 1));
      const int child_floor = first_end == 1 ? kFreshGroup : c;
      const int node = static_cast<int>(path_.size());
      path_.push_back({c, parent});
      insert_slots(child, end, c, node);
      --remaining_[static_cast<size_t>(c)];
      --remaining_total_;
      dfs(depth + 1, child_floor, std::max(makespan, end));
      ++remaining_[static_cast<size_t>(c)];
      ++remaining_total_;
      path_.pop_back();
      if (aborted_) return;
    }
    // Close this slot and, by the non-decreasing rule, the rest of its group.
    child.assign(slots.begin() + static_cast<std::ptrdiff_t>(first_end), slots.end());
    dfs(depth + 1, kFreshGroup, makespan);
    if (memo_here && !aborted_) memo_.store(key, hash, bar_);
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
  MemoTable memo_;  // exhausted state -> the largest bar it failed for
  int count_bits_ = 1;  // bits per class count in a memo key
  std::vector<int> next_open_;  // may_fit's table of the classes with senders left
  std::vector<std::vector<ReduceSlot>> levels_;            // per depth: the state's slots
  std::vector<std::vector<std::int64_t>> keys_;      // per depth: the state's memo key
  double lower_bound_;      // proven: no tree is shorter
  double bar_ = 0;          // the pass looks for trees shorter than this
  bool stop_at_first_ = false;
  bool found_ = false;
  bool unwinding_ = false;  // a bisection pass found its tree (not a limit)
};

}  // namespace

ReduceTreeSearch::ReduceTreeSearch(std::vector<double> class_times, std::vector<int> counts)
    : times_(std::move(class_times)), counts_(std::move(counts)) {
  check_reduce_search_classes(times_, counts_);
}

ReduceTreeSearchResult ReduceTreeSearch::run() {
  const double tolerance = reduce_search_tolerance(times_, tolerance_);
  ReduceSearcher searcher(times_, counts_, incumbent_, lower_bound_, limits_, memoise_, tolerance);
  return searcher.run();
}

MakespanPlan plan_reduce_optimal(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits) {
  SenderClasses classes = sender_classes(cluster, root);
  const auto snf = snf_order(cluster, root);
  const double snf_makespan = snf.empty() ? 0.0 : ep_makespan(cluster, snf);
  // The closed-form and leaf-average bounds, on the senders' own times,
  // hold for the class times too (each class takes its slowest member's
  // time, so no tree gets shorter).
  const double closed_form = std::max(reduce_lower_bound(cluster, root), reduce_leaf_average_bound(cluster, root));
  // Mostly distinct times: improve SNF's order by pairwise interchanges
  // (broadcast/sequence_local_search.h) for a better first incumbent.
  // Bounded work, deterministic; skipped under a short time limit.
  std::vector<ProcessorIndex> start = snf;
  double start_makespan = snf_makespan;
  if (snf.size() >= 4 && snf.size() <= kLocalSearchMaxSenders && 2 * classes.times.size() >= snf.size() &&
      (!limits.has_time_limit() || limits.time_limit_seconds >= kReduceLocalSearchMinSeconds)) {
    start_makespan = improve_order_by_swaps(
        start, [&](const std::vector<ProcessorIndex>& order) { return ep_makespan(cluster, order); },
        [&](ProcessorIndex a, ProcessorIndex b) { return cluster.transmission_time(a) == cluster.transmission_time(b); },
        cluster.tolerance(), kLocalSearchEvaluations);
  }
  const size_t senders = static_cast<size_t>(classes.sender_count());
  const bool bottom_up = senders <= kBottomUpMaxSenders && 3 * classes.times.size() >= 2 * senders;
  ReduceTreeSearchResult result =
      bottom_up ? ReduceBottomUpSearch(classes.times, classes.counts())
                      .incumbent(start_makespan)
                      .lower_bound(closed_form)
                      .limits(limits)
                      .tolerance(cluster.tolerance())
                      .run()
                : ReduceTreeSearch(classes.times, classes.counts())
                      .incumbent(start_makespan)
                      .lower_bound(closed_form)
                      .limits(limits)
                      .tolerance(cluster.tolerance())
                      .run();

  std::vector<ProcessorIndex> order = start;
  if (result.improved) {
    order = ep_order_from_mcp_tree(result.tree, classes);
  }
  MakespanPlan plan = reduce_plan_from_order(cluster, root, order, "optimal");
  if (result.improved && !time_leq(plan.makespan, result.best, cluster.tolerance())) {
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
  const char* incumbent_name = start == snf ? "SNF" : "SNF after pairwise interchanges";
  std::string proof = kBoundMetProof;
  if (result.finished() && result.nodes == 0 && !result.improved) {
    proof = fmt::format("the leaf-average and closed-form lower bounds meet the makespan of {} (no search needed)",
                        incumbent_name);
  } else if (result.finished()) {
    proof = fmt::format("{}branch-and-bound over heap-ordered MCP trees finished ({} nodes{})", bottom_up ? "bottom-up " : "",
                        result.nodes, result.improved ? "" : fmt::format("; {} is optimal", incumbent_name));
  }
  settle_claims(plan, proven, cluster.tolerance(), proof);
  if (!result.finished()) {
    plan.notes.push_back(fmt::format("search stopped ({}) after {} nodes; best plan so far (at least as good as SNF); "
                                     "proven lower bound {:.6g} (leaf-average and closed-form bounds {:.6g})",
                                     to_string(result.status), result.nodes, proven, closed_form));
  } else {
    settle_merged_classes(plan, "search");
  }
  return plan;
}

}  // namespace hetcoll
