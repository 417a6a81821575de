#include "hetcoll/makespan/sender_speed/reduce/generic_search.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/sender_speed/reduce/ep.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"

namespace hetcoll {

namespace {

struct EpState {
  int free_processors;
  double now;
  double makespan;
  std::vector<double> active;  // completion times of the sends in progress
};

class GenericSearcher {
 public:
  GenericSearcher(const std::vector<double>& times, const std::vector<int>& counts, double tolerance,
                  const SearchLimits& limits)
      : times_(times), remaining_(counts), tolerance_(tolerance), budget_(limits) {
    for (int c : counts) left_ += c;
  }

  GenericReduceSearchResult run() {
    EpState state{left_ + 1, 0.0, 0.0, {}};
    dfs(state);
    GenericReduceSearchResult result;
    result.best = left_ == 0 ? 0.0 : best_;
    result.class_sequence = best_sequence_;
    result.status = budget_.status();
    result.nodes = budget_.nodes();
    return result;
  }

 private:
  bool limits_hit() {
    if (!budget_.admit(best_)) aborted_ = true;
    return aborted_;
  }

  void dfs(EpState& state) {
    if (limits_hit()) return;
    if (!time_less(state.makespan, best_, tolerance_)) return;
    if (left_ == 0) {
      best_ = state.makespan;
      best_sequence_ = sequence_;
      return;
    }
    // EP (Fig. 2): wait for completions until two processors are free; sends
    // ending together (within the tolerance) complete as one group.
    while (state.free_processors < 2) {
      const double earliest = *std::min_element(state.active.begin(), state.active.end());
      double group_end = earliest;
      for (auto it = state.active.begin(); it != state.active.end();) {
        if (*it <= earliest + tolerance_) {
          group_end = std::max(group_end, *it);
          ++state.free_processors;
          it = state.active.erase(it);
        } else {
          ++it;
        }
      }
      state.now = group_end;
    }
    for (size_t c = 0; c < times_.size(); ++c) {
      if (remaining_[c] == 0) continue;
      EpState child = state;
      const double end = state.now + times_[c];
      child.free_processors -= 2;
      child.active.push_back(end);
      child.makespan = std::max(state.makespan, end);
      --remaining_[c];
      --left_;
      sequence_.push_back(static_cast<int>(c));
      dfs(child);
      sequence_.pop_back();
      ++left_;
      ++remaining_[c];
      if (aborted_) return;
    }
  }

  std::vector<double> times_;
  std::vector<int> remaining_;
  int left_ = 0;
  double tolerance_;
  SearchBudget budget_;
  double best_ = std::numeric_limits<double>::infinity();
  std::vector<int> sequence_, best_sequence_;
  bool aborted_ = false;
};

}  // namespace

GenericReduceSearchResult generic_reduce_search(const std::vector<double>& class_times, const std::vector<int>& counts,
                                                double tolerance, const SearchLimits& limits) {
  GenericSearcher searcher(class_times, counts, tolerance, limits);
  return searcher.run();
}

MakespanPlan plan_reduce_generic_bnb(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits) {
  SenderClasses classes = sender_classes(cluster, root);
  GenericReduceSearchResult result = generic_reduce_search(classes.times, classes.counts(), cluster.tolerance(), limits);
  std::vector<ProcessorIndex> order = snf_order(cluster, root);
  const bool complete = static_cast<int>(result.class_sequence.size()) == classes.sender_count();
  if (complete) {
    std::vector<ProcessorIndex> found;
    std::vector<size_t> next(classes.members.size(), 0);
    for (int c : result.class_sequence) found.push_back(classes.members[static_cast<size_t>(c)][next[static_cast<size_t>(c)]++]);
    if (time_leq(ep_makespan(cluster, found), ep_makespan(cluster, order), cluster.tolerance())) order = std::move(found);
  }
  MakespanPlan plan = reduce_plan_from_order(cluster, root, order, "generic-bnb");
  plan.stats.nodes = result.nodes;
  plan.status = result.status;
  plan.guarantee = Guarantee::at_most(2.0);  // never worse than SNF (Thm 2)
  const double proven = result.finished()
                            ? std::max(result.best - classes.rounding_slack(), reduce_lower_bound(cluster, root))
                            : reduce_lower_bound(cluster, root);
  settle_claims(plan, proven, cluster.tolerance(),
                result.finished()
                    ? fmt::format("generic branch-and-bound over EP class sequences finished ({} nodes)", result.nodes)
                    : kBoundMetProof);
  if (!result.finished()) {
    plan.notes.push_back(fmt::format("search stopped ({}) after {} nodes; best plan so far (at least as good as SNF)",
                                     to_string(result.status), result.nodes));
  } else {
    settle_merged_classes(plan, "search");
  }
  return plan;
}

}  // namespace hetcoll
