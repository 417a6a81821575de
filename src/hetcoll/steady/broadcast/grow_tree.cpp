#include "hetcoll/steady/broadcast/grow_tree.h"

namespace hetcoll {

BroadcastTree grow_tree(const TreeProblem& problem) {
  require_all_reachable(problem);
  const auto& platform = problem.graph();
  const auto& time = problem.costs.edge_time;
  std::vector<double> out_degree(static_cast<size_t>(platform.size()), 0.0);
  return grow_tree_by_key(
      problem, [&](size_t e) { return out_degree[static_cast<size_t>(platform.edges()[e].from)] + time[e]; },
      [&](size_t e) { out_degree[static_cast<size_t>(platform.edges()[e].from)] += time[e]; });
}

}  // namespace hetcoll
