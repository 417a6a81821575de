// Exact multicast for small groups — Khuller, Kim, Woeginger 2003 sec. 4 (the k fastest
// helpers), Liu 2002 eq. 1 and Thm 4.1 (an optimal schedule is a receive
// order, each receiver served by the holder that can finish first).
// Contract in multicast.h.
//
// Search: depth-first over the class (distinct time) of the next receiver;
// processors of equal time are interchangeable, so the tree has at most
// multinomial(r; r_1..r_c) leaves instead of r!. Ties between holders that
// finish at the same moment do not matter (the other one sends next, at the
// same moment, before any new holder could). Bound: the remaining receivers
// all made as fast as the fastest remaining one, served greedily — the exact
// optimum of that relaxation, since identical receivers leave no choice of
// order — never exceeds any completion of the current prefix. One incumbent
// is shared by every k, so only strictly better schedules are searched.
// Time O(multinomial x r log r) in the worst case, space O(r).
// Limit: kExactMulticastMaxReceivers receivers (targets + helpers) per k;
// --time-limit and the node limit stop it with the best plan so far.
//
// plan_multicast_exact runs, for every k, the optimal broadcast search of
// broadcast/optimal_search.h (its subset API: stronger dominance rules and
// memoisation); exact_subset_broadcast is kept as a simple, independent
// search that the tests cross-check against brute force.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <queue>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/core/wording.h"
#include "hetcoll/makespan/broadcast/fnf.h"
#include "hetcoll/makespan/broadcast/optimal_search.h"
#include "hetcoll/makespan/multicast/multicast.h"
#include "hetcoll/makespan/multicast/multicast_internal.h"

namespace hetcoll {

namespace {

struct Holder {
  double next_finish;  // when its next send would end
  double send_time;
};

class OrderSearch {
 public:
  OrderSearch(const Cluster& cluster, ProcessorIndex source, const std::vector<ProcessorIndex>& receivers,
              double incumbent, const ExactSearchLimits& limits)
      : cluster_(cluster), source_(source), limits_(limits), best_(incumbent) {
    tolerance_ = cluster.tolerance();
    std::vector<ProcessorIndex> sorted = receivers;
    std::stable_sort(sorted.begin(), sorted.end(), [&](ProcessorIndex a, ProcessorIndex b) {
      double ta = cluster.transmission_time(a), tb = cluster.transmission_time(b);
      return ta != tb ? ta < tb : a < b;
    });
    for (ProcessorIndex p : sorted) {
      double t = cluster.transmission_time(p);
      if (class_time_.empty() || t > class_time_.back() + tolerance_) {
        class_time_.push_back(t);
        class_members_.push_back({});
      }
      class_members_.back().push_back(p);
    }
    remaining_.resize(class_time_.size());
    for (size_t c = 0; c < class_time_.size(); ++c) remaining_[c] = static_cast<int>(class_members_[c].size());
    total_ = static_cast<int>(sorted.size());
    started_ = std::chrono::steady_clock::now();
  }

  SubsetSearchResult run() {
    holders_.push_back({cluster_.transmission_time(source_), cluster_.transmission_time(source_)});
    search(0.0);
    SubsetSearchResult result;
    result.complete = !stopped_;
    result.nodes = nodes_;
    if (!best_order_.empty() || total_ == 0) {
      result.transfers = replay();
      result.makespan = last_completion(result.transfers);
    }
    return result;
  }

 private:
  bool should_stop() {
    if (stopped_) return true;
    if (nodes_ >= limits_.node_limit) stopped_ = true;
    if ((nodes_ & 0x3ff) == 0) {
      double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
      if (elapsed > limits_.time_limit_seconds) stopped_ = true;
      if (limits_.progress && (nodes_ & 0xffff) == 0) {
        SearchStats stats;
        stats.nodes = nodes_;
        stats.seconds = elapsed;
        if (!limits_.progress(stats, best_)) stopped_ = true;
      }
    }
    return stopped_;
  }

  // Every remaining receiver as fast as the fastest remaining one.
  double relaxed_completion(int left, double makespan) {
    double fastest_left = 0;
    for (size_t c = 0; c < remaining_.size(); ++c) {
      if (remaining_[c] > 0) {
        fastest_left = class_time_[c];
        break;
      }
    }
    std::priority_queue<std::pair<double, double>, std::vector<std::pair<double, double>>, std::greater<>> heap;
    for (const auto& holder : holders_) heap.push({holder.next_finish, holder.send_time});
    double last = makespan;
    for (int i = 0; i < left; ++i) {
      auto [finish, send_time] = heap.top();
      heap.pop();
      last = std::max(last, finish);
      if (last >= best_ - tolerance_) return last;
      heap.push({finish + send_time, send_time});
      heap.push({finish + fastest_left, fastest_left});
    }
    return last;
  }

  void search(double makespan) {
    ++nodes_;
    const int left = total_ - static_cast<int>(order_.size());
    if (left == 0) {
      if (makespan < best_ - tolerance_) {
        best_ = makespan;
        best_order_ = order_;
      }
      return;
    }
    if (should_stop()) return;
    if (relaxed_completion(left, makespan) >= best_ - tolerance_) return;
    size_t sender = 0;
    for (size_t h = 1; h < holders_.size(); ++h) {
      if (holders_[h].next_finish < holders_[sender].next_finish) sender = h;
    }
    const double finish = holders_[sender].next_finish;
    const double next_makespan = std::max(makespan, finish);
    for (size_t c = 0; c < class_time_.size(); ++c) {
      if (remaining_[c] == 0) continue;
      --remaining_[c];
      holders_[sender].next_finish += holders_[sender].send_time;
      holders_.push_back({finish + class_time_[c], class_time_[c]});
      order_.push_back(static_cast<int>(c));
      search(next_makespan);
      order_.pop_back();
      holders_.pop_back();
      holders_[sender].next_finish = finish;
      ++remaining_[c];
      if (stopped_) return;
    }
  }

  // The best order with real processors, each served by the holder that
  // finishes first (ties: faster holder, then lower index).
  std::vector<Transfer> replay() const {
    struct Real {
      double next_finish;
      ProcessorIndex processor;
    };
    std::vector<Real> holders{{cluster_.transmission_time(source_), source_}};
    std::vector<int> used;
    used.resize(class_time_.size());
    std::vector<Transfer> transfers;
    for (int c : best_order_) {
      size_t sender = 0;
      for (size_t h = 1; h < holders.size(); ++h) {
        if (holders[h].next_finish < holders[sender].next_finish) sender = h;
      }
      const ProcessorIndex receiver = class_members_[static_cast<size_t>(c)][static_cast<size_t>(used[static_cast<size_t>(c)]++)];
      const double send_time = cluster_.transmission_time(holders[sender].processor);
      const double finish = holders[sender].next_finish;
      transfers.push_back({holders[sender].processor, receiver, finish - send_time, finish, Payload::broadcast_value});
      holders[sender].next_finish += send_time;
      holders.push_back({finish + cluster_.transmission_time(receiver), receiver});
    }
    return transfers;
  }

  const Cluster& cluster_;
  ProcessorIndex source_;
  const ExactSearchLimits& limits_;
  double tolerance_ = 0;
  std::vector<double> class_time_;
  std::vector<std::vector<ProcessorIndex>> class_members_;
  std::vector<int> remaining_;
  int total_ = 0;
  std::vector<Holder> holders_;
  std::vector<int> order_, best_order_;
  double best_;
  std::uint64_t nodes_ = 0;
  bool stopped_ = false;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace

SubsetSearchResult exact_subset_broadcast(const Cluster& cluster, ProcessorIndex source,
                                          const std::vector<ProcessorIndex>& receivers, double incumbent,
                                          const ExactSearchLimits& limits) {
  return OrderSearch(cluster, source, receivers, incumbent, limits).run();
}

MakespanPlan plan_multicast_exact(const Cluster& cluster, ProcessorIndex source,
                                  const std::vector<ProcessorIndex>& targets, const ExactSearchLimits& limits,
                                  std::optional<int> max_helpers) {
  const auto started = std::chrono::steady_clock::now();
  MulticastGroup group = make_multicast_group(cluster, source, targets);
  int k_max = group.max_useful_helpers;
  if (max_helpers) k_max = std::clamp(*max_helpers, 0, k_max);
  const int largest = static_cast<int>(group.targets.size()) + k_max;
  if (largest > kExactMulticastMaxReceivers) {
    throw InputError("algorithm", fmt::format(
        "optimal: the exact multicast searches at most {} receivers per helper count; this group needs {} "
        "({} targets + up to {} helpers); use algorithm \"fnf\" or \"ptas\"",
        kExactMulticastMaxReceivers, largest, group.targets.size(), k_max));
  }
  // Incumbent: the FNF multicast over the same helper counts.
  MakespanPlan incumbent = plan_multicast_fnf(cluster, source, targets, k_max);
  std::vector<Transfer> best = incumbent.transfers;
  double best_makespan = incumbent.makespan;
  int best_k = -1;
  bool complete = true;
  std::uint64_t nodes = 0;
  for (int k = 0; k <= k_max && complete; ++k) {
    SearchLimits run;
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    run.time_limit_seconds = limits.time_limit_seconds - elapsed;
    run.node_limit = limits.node_limit > nodes ? limits.node_limit - nodes : 0;
    run.progress = limits.progress;
    BroadcastSearchResult found =
        optimal_broadcast(cluster, source, group.receivers_with_helpers(k), run, best_makespan);
    nodes += found.stats.nodes;
    complete = found.complete;
    if (!found.transfers.empty()) {
      auto pruned = prune_idle_helpers(cluster, source, found.transfers, group.targets);
      double makespan = last_completion(pruned);
      if (makespan < best_makespan - cluster.tolerance()) {
        best_makespan = makespan;
        best = std::move(pruned);
        best_k = k;
      }
    }
  }
  MakespanPlan plan = multicast_detail::finish_plan(cluster, group, best, "optimal", k_max);
  plan.stats.nodes = nodes;
  plan.notes.push_back(best_k < 0 ? std::string("the FNF multicast was already optimal")
                                  : fmt::format("optimum found with {} offered as helpers",
                                                multicast_detail::fastest_non_members(best_k)));
  const bool every_k = k_max == group.max_useful_helpers;
  if (complete && every_k) {
    plan.optimal = true;
    plan.guarantee = Guarantee::exact();
    plan.optimality_proof = fmt::format(
        "optimal broadcast search (optimal_search.h, Liu 2002 sec. 5) for every k <= {} fastest helpers (Khuller, Kim, Woeginger 2003 sec. 4)",
        k_max);
    plan.lower_bound = plan.makespan;
  } else if (complete) {
    plan.guarantee = Guarantee::none();
    plan.guarantee.text = fmt::format("optimal among plans with at most {}", count_of(k_max, "helper"));
  } else {
    plan.limit_reached = true;
    plan.guarantee = incumbent.guarantee;
    plan.notes.push_back("the search stopped at a limit: the best plan found is returned, not proven optimal");
  }
  return plan;
}

}  // namespace hetcoll
