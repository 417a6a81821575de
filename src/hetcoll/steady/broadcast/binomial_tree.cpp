#include "hetcoll/steady/broadcast/binomial_tree.h"

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/shortest_paths.h"

namespace hetcoll {

BroadcastTree binomial_tree(const TreeProblem& problem) {
  require_all_reachable(problem);
  const auto& platform = problem.graph();
  std::vector<ProcessorIndex> rank{problem.source};
  for (auto v : platform.participants()) {
    if (v != problem.source) rank.push_back(v);
  }
  const size_t p = rank.size();
  size_t power = 1;  // 2^m, the largest power of two <= p
  while (power * 2 <= p) power *= 2;

  std::vector<ShortestPathTree> paths(p);  // from each sender, computed once
  BroadcastTree tree;
  tree.source = problem.source;
  auto add = [&](size_t from, size_t to) {
    if (paths[from].root == kNoProcessor) paths[from] = shortest_paths_from(platform, rank[from], problem.costs.edge_time);
    auto route = paths[from].path(platform, rank[to]);
    if (route.empty()) {
      throw NoSolutionError(fmt::format("no path from {} to {}", platform.id(rank[from]), platform.id(rank[to])));
    }
    tree.edges.push_back({rank[from], rank[to], std::move(route)});
  };
  for (size_t half = power / 2; half >= 1; half /= 2) {
    for (size_t x = 0; x < power; x += 2 * half) add(x, x + half);
  }
  for (size_t u = power; u < p; ++u) add(u - power, u);
  return tree;
}

}  // namespace hetcoll
