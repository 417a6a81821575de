#include "hetcoll/makespan/reduce/generic_search.h"
#include "hetcoll/makespan/search_budget.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/reduce/ep.h"
#include "hetcoll/makespan/reduce/snf.h"

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
                  std::uint64_t node_limit, double time_limit, const ProgressCallback& progress)
      : times_(times), remaining_(counts), tolerance_(tolerance), budget_(node_limit, time_limit, progress) {
    for (int c : counts) left_ += c;
  }

  GenericReduceSearchResult run() {
    EpState state{left_ + 1, 0.0, 0.0, {}};
    dfs(state);
    GenericReduceSearchResult result;
    result.best = left_ == 0 ? 0.0 : best_;
    result.class_sequence = best_sequence_;
    result.finished = !aborted_;
    result.nodes = nodes_;
    return result;
  }

 private:
  bool limits_hit() {
    if (budget_.exhausted(nodes_, best_)) aborted_ = true;
    return aborted_;
  }

  void dfs(EpState& state) {
    ++nodes_;
    if (limits_hit()) return;
    if (state.makespan >= best_ - tolerance_) return;
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
  std::uint64_t nodes_ = 0;
  bool aborted_ = false;
};

}  // namespace

GenericReduceSearchResult generic_reduce_search(const std::vector<double>& class_times, const std::vector<int>& counts,
                                                double tolerance, std::uint64_t node_limit, double time_limit_seconds,
                                                const ProgressCallback& progress) {
  GenericSearcher searcher(class_times, counts, tolerance, node_limit, time_limit_seconds, progress);
  return searcher.run();
}

MakespanPlan plan_reduce_generic_bnb(const Cluster& cluster, ProcessorIndex root, const MakespanRequest& request) {
  SenderClasses classes = sender_classes(cluster, root);
  GenericReduceSearchResult result = generic_reduce_search(classes.times, classes.counts(), cluster.tolerance(),
                                                           request.node_limit, request.time_limit_seconds,
                                                           request.progress);
  std::vector<ProcessorIndex> order;
  const bool complete = static_cast<int>(result.class_sequence.size()) == classes.sender_count();
  if (complete) {
    std::vector<size_t> next(classes.members.size(), 0);
    for (int c : result.class_sequence) order.push_back(classes.members[static_cast<size_t>(c)][next[static_cast<size_t>(c)]++]);
  } else {
    order = snf_order(cluster, root);
  }
  MakespanPlan plan = reduce_plan_from_order(cluster, root, order, "generic-bnb");
  plan.stats.nodes = result.nodes;
  if (result.finished) {
    plan.lower_bound = plan.makespan;
    plan.guarantee = Guarantee::exact();
    plan.optimal = true;
    plan.optimality_proof = fmt::format("generic branch-and-bound over EP class sequences finished ({} nodes)", result.nodes);
  } else {
    plan.limit_reached = true;
    plan.lower_bound = std::min(plan.makespan, reduce_lower_bound(cluster, root));
    plan.guarantee = complete ? Guarantee::none() : Guarantee::at_most(2.0);
    plan.notes.push_back(fmt::format("search stopped after {} nodes; best plan so far", result.nodes));
  }
  return plan;
}

}  // namespace hetcoll
