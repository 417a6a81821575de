#include "hetcoll/makespan/graph/auto_graph.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

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
  const char* picked = "hierarchical";
  const bool flat = task.members.size() <= kMaxFlatMembers;
  if (flat) {
    const std::pair<BroadcastEngine, const char*> others[] = {{&broadcast_ecef, "ECEF"},
                                                              {&broadcast_lookahead, "look-ahead"}};
    for (const auto& [engine, name] : others) {
      EngineResult other = engine(network, task);
      if (completion(other, task.source_ready) < completion(best, task.source_ready)) {
        best = std::move(other);
        picked = name;
      }
    }
  }
  const std::string heuristics = flat ? fmt::format("{} (the best of hierarchical, ECEF and look-ahead)", picked)
                                      : fmt::format("hierarchical (ECEF and look-ahead stop at {} participants)",
                                                    kMaxFlatMembers);
  if (task.members.size() <= kAutoExactMembers) {
    SearchLimits budget = limits;
    budget.node_limit = std::min(budget.node_limit, kAutoExactNodeBudget);
    EngineResult result = broadcast_exact(network, task, budget, std::move(best));
    if (result.status != SearchStatus::finished) {
      result.notes.push_back(fmt::format("auto: the exact search, seeded with {}, did not finish within its "
                                         "budget; best plan found, not proven optimal",
                                         heuristics));
    } else {
      result.notes.push_back(fmt::format("auto: the exact search, seeded with {}, finished", heuristics));
    }
    return result;
  }
  best.notes.push_back(fmt::format("auto: {}, as the {} participants are more than the {} the exact search "
                                   "takes; no proven ratio",
                                   heuristics, task.members.size(), kAutoExactMembers));
  return best;
}

}  // namespace hetcoll
