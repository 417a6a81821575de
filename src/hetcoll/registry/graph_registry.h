// The platform-graph rows of the one registry (registry.h), as the command
// line and tests use them. Every graph planner handles broadcast, multicast,
// reduce and all-reduce through makespan/graph/graph_planner.h, so it has one
// row per operation; graph_makespan_algorithms() lists each planner once
// (its broadcast row), and plan_graph_makespan() runs the row of the
// request's operation. The property tests (tests/graph_planner_test.cpp)
// cover each planner automatically.
#pragma once

#include <string_view>
#include <vector>

#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"
#include "hetcoll/registry/registry.h"

namespace hetcoll {

using GraphMakespanAlgorithm = PlannerEntry;

// Each graph planner once: its broadcast row.
const std::vector<GraphMakespanAlgorithm>& graph_makespan_algorithms();
// The broadcast row of the graph planner `name`; nullptr when none.
const GraphMakespanAlgorithm* find_graph_makespan_algorithm(std::string_view name);

// Runs the named planner (empty: auto) for request.operation and times it
// into plan.stats. Throws InputError for an unknown name or an invalid request.
MakespanPlan plan_graph_makespan(const GraphNetwork& network, const MakespanRequest& request,
                                 std::string_view algorithm_name = {});

}  // namespace hetcoll
