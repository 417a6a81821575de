#include "hetcoll/steady/broadcast/multiport_grow.h"

#include <algorithm>

namespace hetcoll {

BroadcastTree multiport_grow_tree(const TreeProblem& problem) {
  require_all_reachable(problem);
  const auto& platform = problem.graph();
  const auto& time = problem.costs.edge_time;
  const auto n = static_cast<size_t>(platform.size());
  std::vector<int> children(n, 0);
  std::vector<double> longest(n, 0.0);
  auto from = [&](size_t e) { return static_cast<size_t>(platform.edges()[e].from); };
  return grow_tree_by_key(
      problem,
      [&](size_t e) {
        auto u = from(e);
        return std::max((children[u] + 1) * problem.costs.send_time[u], std::max(longest[u], time[e]));
      },
      [&](size_t e) {
        auto u = from(e);
        ++children[u];
        longest[u] = std::max(longest[u], time[e]);
      });
}

}  // namespace hetcoll
