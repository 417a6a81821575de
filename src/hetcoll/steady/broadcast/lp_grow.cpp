#include "hetcoll/steady/broadcast/lp_grow.h"

#include <algorithm>
#include <limits>

#include "hetcoll/core/error.h"

namespace hetcoll {

BroadcastTree lp_grow_tree(const TreeProblem& problem) {
  const auto& rate = problem.lp_edge_rates;
  if (rate.size() != problem.graph().edges().size()) {
    throw InputError("lp_edge_rates: LP-Grow-Tree needs the SSB linear program's rate of every platform edge");
  }
  require_all_reachable(problem);
  const auto& time = problem.costs.edge_time;
  // A lexicographic key (largest rate, then smallest time) folded into one
  // double: rates are compared first with the times only splitting ties.
  double largest_time = 0;
  for (double t : time) largest_time = std::max(largest_time, t);
  std::vector<double> rank(rate.size());
  {
    std::vector<size_t> order(rate.size());
    for (size_t e = 0; e < order.size(); ++e) order[e] = e;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (rate[a] != rate[b]) return rate[a] > rate[b];
      return time[a] < time[b];
    });
    for (size_t position = 0; position < order.size(); ++position) rank[order[position]] = static_cast<double>(position);
  }
  return grow_tree_by_key(problem, [&](size_t e) { return rank[e]; }, [](size_t) {});
}

}  // namespace hetcoll
