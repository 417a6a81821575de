#include "hetcoll/makespan/graph/auto_graph.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include <fmt/format.h>

#include "hetcoll/makespan/graph/ecef.h"
#include "hetcoll/makespan/graph/graph_schedule.h"
#include "hetcoll/makespan/graph/hierarchical.h"
#include "hetcoll/makespan/graph/lookahead.h"
#include "hetcoll/core/error.h"
#include "hetcoll/core/limits.h"

namespace hetcoll {

namespace {
double completion(const EngineResult& result, double ready) {
  double end = ready;
  for (const auto& t : result.transfers) end = std::max(end, t.end);
  return end;
}
}  // namespace

EngineResult broadcast_auto(const GraphNetwork& network, const BroadcastTask& task, const SearchLimits& limits) {
  SearchBudget clock(limits);  // for its elapsed time only
  EngineResult best = broadcast_hierarchical(network, task);
  const char* picked = "hierarchical";
  const bool flat = task.members.size() <= kMaxFlatMembers;
  bool skipped = false;
  if (flat) {
    const std::pair<BroadcastEngine, const char*> others[] = {{&broadcast_ecef, "ECEF"},
                                                              {&broadcast_lookahead, "look-ahead"}};
    // Each builds its own route table: one that would end past the time
    // limit is not started (the hierarchical plan is kept).
    const double table_seconds = limits.has_time_limit() ? estimate_route_table(network, task.members).seconds : 0;
    for (const auto& [engine, name] : others) {
      if (limits.has_time_limit() && clock.elapsed_seconds() + table_seconds > limits.time_limit_seconds) {
        skipped = true;
        break;
      }
      BroadcastTask timed = task;
      if (limits.has_time_limit()) {
        timed.deadline = std::chrono::steady_clock::now() +
                         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             std::chrono::duration<double>(std::max(0.0, clock.remaining_seconds())));
      }
      EngineResult other;
      try {
        other = engine(network, timed);
      } catch (const LimitError&) {  // past the limit: keep the plans so far
        skipped = true;
        break;
      }
      if (completion(other, task.source_ready) < completion(best, task.source_ready)) {
        best = std::move(other);
        picked = name;
      }
    }
  }
  const std::string heuristics =
      skipped ? fmt::format("{} (ECEF or look-ahead dropped: it would not finish within the time limit)", picked)
      : flat  ? fmt::format("{} (the best of hierarchical, ECEF and look-ahead)", picked)
              : fmt::format("hierarchical (ECEF and look-ahead stop at {} participants)", kMaxFlatMembers);
  if (skipped) best.status = SearchStatus::time_limit;
  if (task.members.size() <= kAutoExactMembers) {
    SearchLimits budget = limits;
    if (budget.has_time_limit()) budget.time_limit_seconds = std::max(1e-6, clock.remaining_seconds());
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
