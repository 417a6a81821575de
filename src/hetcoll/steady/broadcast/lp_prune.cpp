#include "hetcoll/steady/broadcast/lp_prune.h"

#include <algorithm>
#include <numeric>

#include "hetcoll/core/error.h"
#include "hetcoll/steady/broadcast/simple_prune.h"

namespace hetcoll {

BroadcastTree lp_prune_tree(const TreeProblem& problem) {
  const auto& rate = problem.lp_edge_rates;
  if (rate.size() != problem.graph().edges().size()) {
    throw InputError("lp_edge_rates: LP-Prune needs the SSB linear program's rate of every platform edge");
  }
  std::vector<std::size_t> order(rate.size());
  std::iota(order.begin(), order.end(), 0);
  const auto& time = problem.costs.edge_time;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (rate[a] != rate[b]) return rate[a] < rate[b];
    return time[a] > time[b];
  });
  return prune_in_order(problem, order);
}

}  // namespace hetcoll
