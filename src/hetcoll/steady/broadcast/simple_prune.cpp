#include "hetcoll/steady/broadcast/simple_prune.h"

#include <algorithm>
#include <numeric>

namespace hetcoll {

BroadcastTree prune_in_order(const TreeProblem& problem, const std::vector<std::size_t>& order) {
  require_all_reachable(problem);
  ReachabilityPruner pruner(problem);
  for (auto e : order) pruner.try_remove(e);
  return pruner.tree();
}

BroadcastTree simple_prune_tree(const TreeProblem& problem) {
  std::vector<std::size_t> order(problem.graph().edges().size());
  std::iota(order.begin(), order.end(), 0);
  const auto& time = problem.costs.edge_time;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return time[a] > time[b]; });
  return prune_in_order(problem, order);
}

}  // namespace hetcoll
