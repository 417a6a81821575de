#include "hetcoll/steady/broadcast/multiport_grow.h"

#include <algorithm>

namespace hetcoll {

BroadcastTree multiport_grow_tree(const TreeProblem& problem) {
  require_all_reachable(problem);
  const auto& platform = problem.graph();
  const auto& time = problem.costs.edge_time;
  TreeCosts multi_port = problem.costs;
  multi_port.model = BroadcastModel::multi_port;
  std::vector<NodeLoad> load(static_cast<size_t>(platform.size()));
  auto with_edge = [&](size_t e) { return load[static_cast<size_t>(platform.edges()[e].from)].with_send(time[e]); };
  return grow_tree_by_key(
      problem, [&](size_t e) { return node_period(multi_port, platform.edges()[e].from, with_edge(e)); },
      [&](size_t e) { load[static_cast<size_t>(platform.edges()[e].from)] = with_edge(e); });
}

}  // namespace hetcoll
