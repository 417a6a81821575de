// What a graph broadcast engine (FEF, ECEF, look-ahead, hierarchical, the
// exact search) is given and returns; graph_planner.h turns every operation
// into such tasks, graph_schedule.h times their transfers.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/core/limits.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct BroadcastTask {
  ProcessorIndex source = kNoProcessor;
  std::vector<ProcessorIndex> members;    // participants that may take part, by node index (the source among them)
  std::vector<char> must_receive;         // per member
  bool reversed = false;                  // plan the time-reversed problem of a reduce
  double source_ready = 0;                // when the source holds the message
  // The greedy planners (greedy_broadcast.h) throw LimitError when they are
  // still running past it; auto sets it to drop a candidate that overruns
  // the time limit. Default: none.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

struct EngineResult {
  std::vector<Transfer> transfers;  // of the broadcast (of the reversed problem when reversed)
  bool proven_optimal = false;      // an exact search finished
  SearchStatus status = SearchStatus::finished;  // or why a search stopped early
  std::string proof;                // why it is optimal, when proven
  SearchStats stats;
  std::vector<std::string> notes;
};

using BroadcastEngine = std::function<EngineResult(const GraphNetwork&, const BroadcastTask&)>;

}  // namespace hetcoll
