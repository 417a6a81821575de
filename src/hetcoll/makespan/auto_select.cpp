#include "hetcoll/makespan/auto_select.h"

#include <algorithm>

#include <fmt/format.h>

#include "hetcoll/makespan/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/broadcast/fnf.h"
#include "hetcoll/makespan/broadcast/optimal_search.h"
#include "hetcoll/makespan/reduce/optimal_search.h"
#include "hetcoll/makespan/reduce/snf.h"

namespace hetcoll {

namespace {

// Keeps the greedy plan's guarantee; takes the searched plan's schedule when
// it is proven optimal or simply shorter.
MakespanPlan choose(MakespanPlan greedy, MakespanPlan searched, const char* search_name) {
  const std::uint64_t nodes = searched.stats.nodes;
  if (searched.optimal && !searched.limit_reached) {
    searched.notes.insert(searched.notes.begin(),
                          fmt::format("auto: {} is not proven optimal here, so the exact {} search ran and "
                                      "finished ({} nodes)",
                                      greedy.algorithm, search_name, nodes));
    return searched;
  }
  const double lower_bound = std::max(greedy.lower_bound, searched.lower_bound);
  MakespanPlan best = std::move(greedy);
  if (searched.makespan < best.makespan - 1e-9 * best.makespan && !searched.transfers.empty()) {
    best.transfers = std::move(searched.transfers);
    best.makespan = searched.makespan;
    best.algorithm = searched.algorithm;
  }
  best.lower_bound = lower_bound;  // both are proven; verify/ checks it against the makespan
  best.stats.nodes = nodes;
  best.limit_reached = false;  // our own budget, not a limit the user set
  best.notes.push_back(fmt::format("auto: the exact {} search stopped at its budget of {} nodes; "
                                   "algorithm \"optimal\" (with a time limit) searches further",
                                   search_name, nodes));
  return best;
}

MakespanPlan with_size_note(MakespanPlan greedy) {
  greedy.notes.push_back(fmt::format("auto: more than {} processors, so no exact search was tried; "
                                     "algorithm \"optimal\" (with a time limit) searches anyway",
                                     kAutoSearchMaxProcessors));
  return greedy;
}

MakespanRequest budgeted(const MakespanRequest& request) {
  MakespanRequest copy = request;
  copy.node_limit = std::min(request.node_limit, kAutoSearchNodeBudget);
  return copy;
}

}  // namespace

MakespanPlan plan_broadcast_auto(const Cluster& cluster, ProcessorIndex source, const MakespanRequest& request) {
  MakespanPlan greedy = plan_broadcast_fnf(cluster, source);
  if (greedy.optimal) return greedy;
  if (cluster.size() > kAutoSearchMaxProcessors) return with_size_note(std::move(greedy));
  MakespanPlan searched = plan_broadcast_optimal(cluster, source, SearchLimits::from_request(budgeted(request)));
  return choose(std::move(greedy), std::move(searched), "broadcast");
}

MakespanPlan plan_reduce_auto(const Cluster& cluster, ProcessorIndex root, const MakespanRequest& request) {
  MakespanPlan greedy = plan_reduce_snf(cluster, root);
  if (greedy.optimal) return greedy;
  if (cluster.size() > kAutoSearchMaxProcessors) return with_size_note(std::move(greedy));
  MakespanPlan searched = plan_reduce_optimal(cluster, root, budgeted(request));
  return choose(std::move(greedy), std::move(searched), "reduce");
}

MakespanPlan plan_allreduce_auto(const Cluster& cluster, ProcessorIndex root, const MakespanRequest& request) {
  if (root == kNoProcessor) root = cluster.fastest_processor();
  MakespanPlan reduce = plan_reduce_auto(cluster, root, request);
  MakespanPlan broadcast = plan_broadcast_auto(cluster, root, request);
  MakespanPlan plan = reduce_then_broadcast(cluster, reduce, broadcast);
  plan.algorithm = fmt::format("{}+{}", reduce.algorithm, broadcast.algorithm);
  const bool root_is_fastest = cluster.transmission_time(root) <= cluster.fastest_time() + cluster.tolerance();
  const double reduce_factor = reduce.optimal ? 1.0 : 2.0;
  const double broadcast_factor = root_is_fastest ? (broadcast.optimal ? 1.0 : 1.5) : (broadcast.optimal ? 2.0 : 4.0);
  plan.guarantee = Guarantee::at_most(reduce_factor + broadcast_factor);
  plan.stats.nodes = reduce.stats.nodes + broadcast.stats.nodes;
  plan.notes.push_back(fmt::format("reduce phase by {}: {}; broadcast phase by {}: {}", reduce.algorithm,
                                   reduce.optimal ? "proven optimal" : reduce.guarantee.text, broadcast.algorithm,
                                   broadcast.optimal ? "proven optimal" : broadcast.guarantee.text));
  if (!root_is_fastest) {
    plan.notes.push_back("the root is not a fastest processor: see makespan/allreduce/reduce_broadcast.h for the "
                         "guarantee");
  }
  return plan;
}

}  // namespace hetcoll
