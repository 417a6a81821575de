#include "hetcoll/steady/broadcast/refined_prune.h"

#include <algorithm>
#include <numeric>

namespace hetcoll {

BroadcastTree refined_prune_tree(const TreeProblem& problem) {
  require_all_reachable(problem);
  const auto& platform = problem.graph();
  const auto& time = problem.costs.edge_time;
  const auto n = static_cast<size_t>(platform.size());
  ReachabilityPruner pruner(problem);

  // Each node's surviving out-edges, heaviest first.
  std::vector<std::vector<size_t>> out(n);
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    auto& edges = out[static_cast<size_t>(v)];
    edges = platform.out_edges(v);
    std::stable_sort(edges.begin(), edges.end(), [&](size_t a, size_t b) { return time[a] > time[b]; });
  }
  auto load = [&](size_t v) {
    NodeLoad surviving;
    for (auto e : out[v]) {
      if (pruner.alive(e)) surviving = surviving.with_send(time[e]);
    }
    return node_period(problem.costs, static_cast<ProcessorIndex>(v), surviving);
  };
  std::vector<double> node_load(n);
  for (size_t v = 0; v < n; ++v) node_load[v] = load(v);
  // Nodes none of whose edges can go are skipped until something changes:
  // a deletion elsewhere never makes an undeletable edge deletable.
  std::vector<char> exhausted(n, 0);
  std::vector<size_t> nodes(n);
  for (;;) {
    std::iota(nodes.begin(), nodes.end(), 0);
    std::stable_sort(nodes.begin(), nodes.end(), [&](size_t a, size_t b) { return node_load[a] > node_load[b]; });
    bool removed = false;
    for (auto v : nodes) {
      if (exhausted[v]) continue;
      for (auto e : out[v]) {
        if (pruner.try_remove(e)) {
          node_load[v] = load(v);
          removed = true;
          break;
        }
      }
      if (removed) break;
      exhausted[v] = 1;
    }
    if (!removed) break;
  }
  return pruner.tree();
}

}  // namespace hetcoll
