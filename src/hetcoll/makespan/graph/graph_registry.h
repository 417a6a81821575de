// The registry of makespan planners on platform graphs
// (model/graph_network.h). Every planner handles broadcast, multicast,
// reduce and all-reduce through graph_planner.h; `hetcoll algorithms` lists
// them next to the sender-speed ones, the command line dispatches through
// this list on graph platforms, and the property tests
// (tests/graph_planner_test.cpp) cover each entry automatically.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/makespan/registry.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct GraphMakespanAlgorithm {
  std::string name;         // as given to --algo
  Guarantee guarantee;      // structured: exact / heuristic
  // The same as the sender-speed registry states it (`hetcoll algorithms
  // --json`, "guarantee_spec"): the worst case when the run finishes, what
  // holds when a limit stops it, and the conditions for more. Claims hold in
  // the platform-graph model (model/graph_network.h).
  AlgorithmGuarantee spec;
  // `spec` as it holds for one operation: no all-reduce is proven optimal on
  // a graph (the exact search covers reduce-then-broadcast plans only), so
  // there exact claims become heuristic.
  AlgorithmGuarantee spec_for(Operation operation) const;
  std::string complexity;
  std::string reference;
  std::string summary;
  bool is_default = false;  // `auto`
  bool is_baseline = false; // not a graph planner: the sender-speed view executed on the graph
  bool exact = false;       // an exact search (small platforms only)
  std::function<MakespanPlan(const GraphNetwork&, const MakespanRequest&)> run;
};

const std::vector<GraphMakespanAlgorithm>& graph_makespan_algorithms();
const GraphMakespanAlgorithm* find_graph_makespan_algorithm(std::string_view name);

// Runs the named planner (empty: auto) and times it into plan.stats.
// Throws InputError for an unknown name or an invalid request.
MakespanPlan plan_graph_makespan(const GraphNetwork& network, const MakespanRequest& request,
                                 std::string_view algorithm_name = {});

}  // namespace hetcoll
