#include "hetcoll/makespan/graph/auto_graph.h"

#include <algorithm>

#include "hetcoll/makespan/graph/ecef.h"
#include "hetcoll/makespan/graph/graph_schedule.h"
#include "hetcoll/makespan/graph/hierarchical.h"
#include "hetcoll/makespan/graph/lookahead.h"

namespace hetcoll {

namespace {
double completion(const EngineResult& result, double ready) {
  double end = ready;
  for (const auto& t : result.transfers) end = std::max(end, t.end);
  return end;
}
}  // namespace

EngineResult broadcast_auto(const GraphNetwork& network, const BroadcastTask& task, const SearchLimits& limits) {
  EngineResult best = broadcast_hierarchical(network, task);
  if (task.members.size() <= kMaxFlatMembers) {
    for (auto* engine : {&broadcast_ecef, &broadcast_lookahead}) {
      EngineResult other = (*engine)(network, task);
      if (completion(other, task.source_ready) < completion(best, task.source_ready)) best = std::move(other);
    }
  }
  if (task.members.size() <= kAutoExactMembers) {
    SearchLimits budget = limits;
    budget.node_limit = std::min(budget.node_limit, kAutoExactNodeBudget);
    EngineResult result = broadcast_exact(network, task, budget, std::move(best));
    if (result.status != SearchStatus::finished) {
      result.notes.push_back("--algo auto: the exact search did not finish within its budget; best plan found");
    }
    return result;
  }
  return best;
}

}  // namespace hetcoll
