#include "hetcoll/makespan/sender_speed/broadcast/generic_search.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/sender_speed/broadcast/broadcast_search_common.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/claims.h"

namespace hetcoll {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kGenericSearchInfinity = std::numeric_limits<double>::infinity();

class GenericSearch {
 public:
  GenericSearch(const ClassProblem& problem, const SearchLimits& limits, double incumbent)
      : problem_(problem), best_(incumbent), budget_(limits) {
    remaining_ = problem.counts;
    total_ = problem.receiver_count();
    next_.reserve(static_cast<size_t>(total_) + 1);
    period_.reserve(static_cast<size_t>(total_) + 1);
    next_.push_back(problem.source_time);
    period_.push_back(problem.source_time);
  }

  void run() {
    if (total_ > 0) visit();
    finished_ = !aborted_;
  }

  bool finished() const { return finished_; }
  double best() const { return best_; }  // in class times (the smallest member of each class)
  bool found() const { return found_; }
  std::uint64_t nodes() const { return budget_.nodes(); }
  SearchStatus status() const { return budget_.status(); }
  const std::vector<int>& best_sequence() const { return best_sequence_; }

 private:
  // One node = the current prefix `sequence_`.
  void visit() {
    if (!budget_.admit(best_)) {
      aborted_ = true;
      return;
    }
    if (static_cast<int>(sequence_.size()) == total_) {
      best_ = makespan_;
      best_sequence_ = sequence_;
      found_ = true;
      return;
    }
    // The holder whose next send ends first serves the next receiver.
    size_t sender = 0;
    for (size_t i = 1; i < next_.size(); ++i) {
      if (next_[i] < next_[sender]) sender = i;
    }
    const double ready = next_[sender];
    if (!time_less(ready, best_, problem_.tolerance)) return;  // the incumbent bound
    const double saved_makespan = makespan_;
    for (int c = 0; c < problem_.classes(); ++c) {
      if (remaining_[static_cast<size_t>(c)] == 0) continue;
      --remaining_[static_cast<size_t>(c)];
      next_[sender] += period_[sender];
      next_.push_back(ready + problem_.class_time[static_cast<size_t>(c)]);
      period_.push_back(problem_.class_time[static_cast<size_t>(c)]);
      sequence_.push_back(c);
      makespan_ = ready;
      visit();
      makespan_ = saved_makespan;
      sequence_.pop_back();
      period_.pop_back();
      next_.pop_back();
      next_[sender] -= period_[sender];
      ++remaining_[static_cast<size_t>(c)];
      if (aborted_) return;
      if (!time_less(ready, best_, problem_.tolerance)) return;
    }
  }

  const ClassProblem& problem_;
  double best_;
  SearchBudget budget_;
  std::vector<int> remaining_;
  int total_ = 0;
  std::vector<double> next_;    // per holder: when its next send ends
  std::vector<double> period_;  // per holder: its transmission time
  std::vector<int> sequence_;
  std::vector<int> best_sequence_;
  double makespan_ = 0;
  bool aborted_ = false;
  bool finished_ = false;
  bool found_ = false;
};

}  // namespace

BroadcastSearchResult generic_bnb_broadcast(const Cluster& cluster, ProcessorIndex source,
                                            const std::vector<ProcessorIndex>& receivers, const SearchLimits& limits,
                                            double incumbent) {
  const auto started = Clock::now();
  ClassProblem problem = make_class_problem(cluster, source, receivers);
  BroadcastSearchResult result;
  if (receivers.empty()) {
    result.makespan = 0;
    return result;
  }
  GenericSearch search(problem, limits, incumbent);
  search.run();
  if (search.found()) {
    result.transfers = no_delay_transfers(cluster, source, sequence_of_classes(problem, search.best_sequence()));
    result.makespan = last_completion(result.transfers);
  } else {
    result.makespan = incumbent;
  }
  result.status = search.status();
  // The doubling bound of bounds.h on {source} ∪ receivers; a finished
  // search proves its makespan optimal (no cap: verify/ must see a wrong bound).
  const double fastest = std::min(problem.source_time, problem.class_time.front());
  const double doubling = problem.source_time + fastest * (ceil_log2(problem.receiver_count() + 1) - 1);
  result.lower_bound = result.complete() ? std::max(doubling, search.best()) : doubling;
  result.stats.nodes = search.nodes();
  result.stats.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

MakespanPlan plan_broadcast_generic_bnb(const Cluster& cluster, ProcessorIndex source, const SearchLimits& limits) {
  std::vector<ProcessorIndex> receivers;
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != source) receivers.push_back(p);
  }
  BroadcastSearchResult result = generic_bnb_broadcast(cluster, source, receivers, limits);
  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.algorithm = "generic-bnb";
  plan.root = source;
  plan.stats = result.stats;
  plan.status = result.status;
  plan.transfers = std::move(result.transfers);
  if (plan.transfers.empty() && !receivers.empty()) {
    // Stopped before the first leaf: fall back to FNF so the plan is complete.
    plan.transfers = fnf_transfers(cluster, source, receivers);
  }
  plan.makespan = last_completion(plan.transfers);
  // The first leaf is the FNF sequence (classes fastest first), and FNF
  // is the fallback, so the plan is never worse than FNF.
  const bool source_is_fastest = time_leq(cluster.transmission_time(source), cluster.fastest_time(), cluster.tolerance());
  plan.guarantee = Guarantee::at_most(source_is_fastest ? 1.5 : 2.0);
  settle_claims(plan, std::max(result.lower_bound, broadcast_lower_bound(cluster, source)), cluster.tolerance(),
                result.complete() ? fmt::format("generic branch-and-bound over eq. 1 class sequences finished ({} nodes)",
                                                result.stats.nodes)
                                  : kBoundMetProof);
  if (!result.complete()) {
    plan.notes.push_back(fmt::format("search stopped ({}) after {} nodes: best schedule so far",
                                     to_string(result.status), result.stats.nodes));
  }
  return plan;
}

}  // namespace hetcoll
