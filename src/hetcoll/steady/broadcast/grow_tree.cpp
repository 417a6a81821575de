#include "hetcoll/steady/broadcast/grow_tree.h"

#include <algorithm>

namespace hetcoll {

BroadcastTree grow_tree(const TreeProblem& problem) {
  require_all_reachable(problem);
  const auto& platform = problem.graph();
  const auto& time = problem.costs.edge_time;
  // The one-port rule whatever the evaluation model (Alg. 5 is the
  // multi-port one); a node with unlimited ports pays only its slowest link.
  TreeCosts one_port = problem.costs;
  one_port.model = BroadcastModel::one_port;
  std::vector<NodeLoad> load(static_cast<size_t>(platform.size()));
  auto with_edge = [&](size_t e) { return load[static_cast<size_t>(platform.edges()[e].from)].with_send(time[e]); };
  return grow_tree_by_key(
      problem, [&](size_t e) { return node_period(one_port, platform.edges()[e].from, with_edge(e)); },
      [&](size_t e) { load[static_cast<size_t>(platform.edges()[e].from)] = with_edge(e); });
}

}  // namespace hetcoll
