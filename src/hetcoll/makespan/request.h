// What every makespan planner is asked: the operation, its root or source,
// the multicast group, the user's limits and the options some planners
// take. The same request goes to every planner of every model (registry/
// registry.h dispatches it).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/core/limits.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// `auto`'s search budget (makespan/sender_speed/auto_select.h says how the
// default is computed).
struct AutoBudget {
  std::optional<double> seconds;       // wall-clock budget of the search (> 0); default: the formula above
  std::optional<std::uint64_t> nodes;  // a deterministic node budget instead of a time budget
};

struct MakespanRequest {
  Operation operation = Operation::broadcast;
  // Source (broadcast, multicast) or root (reduce, all-reduce);
  // kNoProcessor = the algorithm's default (the first processor; for
  // all-reduce, a fastest processor).
  ProcessorIndex root = kNoProcessor;
  std::vector<ProcessorIndex> targets;              // multicast group
  std::optional<std::vector<ProcessorIndex>> order;  // `ep`: the sender order
  SearchLimits limits;                 // node/time limits and progress (core/limits.h)
  AutoBudget auto_budget;              // `auto`: its search budget (makespan/sender_speed/auto_select.h)
  double eps = 0.5;                    // PTAS: guessing precision
  std::optional<double> eps_prime;     // PTAS: fast/slow split (default eps)
  // Algorithms that can run long say here, before starting, what work they
  // will do (e.g. the PTAS's predicted states and seconds).
  std::function<void(std::string_view)> announce;
};

}  // namespace hetcoll
