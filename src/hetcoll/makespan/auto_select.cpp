#include "hetcoll/makespan/auto_select.h"

#include <algorithm>

#include <fmt/format.h>

#include "hetcoll/makespan/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/broadcast/fnf.h"
#include "hetcoll/makespan/broadcast/optimal_search.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/reduce/optimal_search.h"
#include "hetcoll/makespan/reduce/snf.h"

namespace hetcoll {

namespace {

// The search's limits: the user's, with the node limit capped by our budget.
SearchLimits budgeted(const SearchLimits& user) {
  SearchLimits limits = user;
  limits.node_limit = std::min(user.node_limit, kAutoSearchNodeBudget);
  return limits;
}

// Keeps the greedy plan's guarantee; takes the searched plan's schedule when
// it is proven optimal or simply shorter. A stop caused by the user's
// limits (or callback) is reported as such; a stop at our own node budget
// is the normal end of `auto`.
MakespanPlan choose(const Cluster& cluster, MakespanPlan greedy, MakespanPlan searched, const char* search_name,
                    const SearchLimits& user) {
  const std::uint64_t nodes = searched.stats.nodes;
  if (searched.optimal) {
    searched.notes.insert(searched.notes.begin(),
                          fmt::format("auto: {} is not proven optimal here, so the exact {} search ran and "
                                      "finished ({} nodes)",
                                      greedy.algorithm, search_name, nodes));
    return searched;
  }
  const bool own_budget =
      searched.status == SearchStatus::node_limit && user.node_limit > kAutoSearchNodeBudget;
  const SearchStatus status = own_budget ? SearchStatus::finished : searched.status;
  const double lower_bound = std::max(greedy.lower_bound, searched.lower_bound);
  MakespanPlan best = std::move(greedy);
  if (!searched.transfers.empty() && searched.makespan < best.makespan - cluster.tolerance()) {
    best.transfers = std::move(searched.transfers);
    best.makespan = searched.makespan;
    best.algorithm = searched.algorithm;
  }
  best.stats.nodes = nodes;
  best.status = status;
  settle_claims(best, lower_bound, cluster.tolerance(), kBoundMetProof);
  if (own_budget) {
    best.notes.push_back(fmt::format("auto: the exact {} search stopped at its budget of {} nodes; "
                                     "algorithm \"optimal\" (with a time limit) searches further",
                                     search_name, nodes));
  } else {
    best.notes.push_back(fmt::format("auto: the exact {} search stopped ({}) after {} nodes: best plan so far",
                                     search_name, to_string(status), nodes));
  }
  return best;
}

MakespanPlan with_size_note(MakespanPlan greedy) {
  greedy.notes.push_back(fmt::format("auto: more than {} processors, so no exact search was tried; "
                                     "algorithm \"optimal\" (with a time limit) searches anyway",
                                     kAutoSearchMaxProcessors));
  return greedy;
}

}  // namespace

MakespanPlan plan_broadcast_auto(const Cluster& cluster, ProcessorIndex source, const SearchLimits& limits) {
  MakespanPlan greedy = plan_broadcast_fnf(cluster, source);
  if (greedy.optimal) return greedy;
  if (cluster.size() > kAutoSearchMaxProcessors) return with_size_note(std::move(greedy));
  MakespanPlan searched = plan_broadcast_optimal(cluster, source, budgeted(limits));
  return choose(cluster, std::move(greedy), std::move(searched), "broadcast", limits);
}

MakespanPlan plan_reduce_auto(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits) {
  MakespanPlan greedy = plan_reduce_snf(cluster, root);
  if (greedy.optimal) return greedy;
  if (cluster.size() > kAutoSearchMaxProcessors) return with_size_note(std::move(greedy));
  MakespanPlan searched = plan_reduce_optimal(cluster, root, budgeted(limits));
  return choose(cluster, std::move(greedy), std::move(searched), "reduce", limits);
}

MakespanPlan plan_allreduce_auto(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits) {
  if (root == kNoProcessor) root = cluster.fastest_processor();
  SearchBudget clock(limits);  // the time limit covers both phases
  MakespanPlan reduce = plan_reduce_auto(cluster, root, limits);
  SearchLimits rest = limits;
  rest.time_limit_seconds = clock.remaining_seconds();
  if (!(rest.time_limit_seconds > 0)) rest.time_limit_seconds = std::numeric_limits<double>::min();
  if (limits.node_limit != kNoNodeLimit) {
    rest.node_limit = limits.node_limit > reduce.stats.nodes ? limits.node_limit - reduce.stats.nodes : 0;
  }
  MakespanPlan broadcast = plan_broadcast_auto(cluster, root, rest);
  return compose_allreduce(cluster, root, reduce, broadcast, fmt::format("{}+{}", reduce.algorithm, broadcast.algorithm));
}

}  // namespace hetcoll
