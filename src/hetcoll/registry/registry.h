// The one registry of hetcoll's planners.
//
// Every algorithm of every family is one row of one table (planners()),
// keyed by (operation, model): the sender-speed planners (makespan/
// sender_speed/), the platform-graph planners (makespan/graph/), the eager
// ones (makespan/eager/), the split plans (makespan/split/), the
// steady-state LPs (steady/) and the pipelined broadcast trees
// (steady/broadcast/, steady/pipelined/). A row carries its guarantee as
// data (AlgorithmGuarantee), its complexity and reference, what options it
// takes (PlannerCapabilities), and one way to run it: run_plan(problem,
// request) -> Plan. Selectors (`auto`) are rows like any other, and so are
// baselines that model what MPI libraries do. `hetcoll algorithms` prints
// this table; the registry-wide property test (tests/planner_registry_test
// .cpp) runs every row on seeded random instances and checks each plan with
// verify/; the command line dispatches through it.
//
// Adding an algorithm = one file under the folder of its model plus one row
// in the rows file of its family (registry/*_rows.cpp).
//
// STABLE INTERFACE: ClaimCondition, AlgorithmGuarantee, PlannerEntry (fields
// are only added), planners(), find_planner(); and the typed views the
// command line and tests use: makespan_algorithms(), find_makespan_algorithm(),
// default_makespan_algorithm(), plan_makespan() (sender-speed rows);
// graph_makespan_algorithms(), find_graph_makespan_algorithm(),
// plan_graph_makespan() (platform-graph rows, registry/graph_registry.h).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/makespan/request.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/model/cluster.h"
#include "hetcoll/model/platform.h"
#include "hetcoll/plan/plan.h"
#include "hetcoll/plan/plan_variant.h"

namespace hetcoll {

// The model an algorithm plans in, and in which its claims are proven, is
// the one PlanModel enum (plan/plan.h; CommunicationModel is its other name).

// A claim stronger than the worst case, and when it holds (a theorem's
// hypothesis, or an algorithm's own condition).
struct ClaimCondition {
  Guarantee::Kind kind = Guarantee::Kind::exact;  // exact, or ratio `ratio`
  double ratio = 1;
  std::string condition;  // e.g. "source a fastest processor, at most two classes"
  std::string reference;  // e.g. "Liu 2002 Thm 4.4"
  bool ratio_from_eps = false;  // the ratio is (1+eps)(1+eps')(1+3eps') (PTAS)
};

// What an algorithm proves, as values a test can check.
//  * kind/ratio: the worst case over every instance of `model` when the run
//    finishes (status finished): exact (makespan = optimum), ratio r
//    (makespan <= r x optimum) or heuristic (nothing). For the PTAS the ratio
//    depends on --eps: worst_ratio(request).
//  * stopped_kind/stopped_ratio: what still holds when a limit stops the run
//    or it refuses (the fallback's guarantee).
//  * stronger: conditions under which a plan claims more (theorems).
// Every plan carries its own, per-instance Guarantee (plan.h), never weaker
// than this one when it finished.
struct AlgorithmGuarantee {
  Guarantee::Kind kind = Guarantee::Kind::heuristic;
  double ratio = 0;
  bool ratio_from_eps = false;  // PTAS: max(ratio, (1+eps)(1+eps')(1+3eps'))
  Guarantee::Kind stopped_kind = Guarantee::Kind::heuristic;
  double stopped_ratio = 0;
  std::vector<ClaimCondition> stronger;
  std::string text;  // one line for --help and `hetcoll algorithms`

  // The worst-case factor for this request (1 for exact, infinity for
  // heuristic), when the run finishes.
  double worst_ratio(const MakespanRequest& request) const;
};


// What a row accepts beyond the operation and its root (the command line
// checks options against these instead of against names).
struct PlannerCapabilities {
  bool eps = false;            // MakespanRequest::eps / eps_prime (the PTAS)
  bool order = false;          // MakespanRequest::order (a given sender order)
  bool threads = false;        // SearchLimits::threads (parallel exact search)
  bool limits = false;         // honours SearchLimits time and node limits
  bool auto_budget = false;    // MakespanRequest::auto_budget
  bool splits_messages = false;     // cuts the message into pieces or slices
  bool needs_message_size = false;  // plans for one message size (bytes)
  bool exact_search = false;   // an exact search (small instances only)
  bool baseline = false;       // a yardstick (MPI's algorithm, a view), not a hetcoll plan
};

// What a row plans on: the cluster (sender-speed rows) or the platform
// graph (every other model). The caller sets the one its model needs.
struct PlannerProblem {
  const Cluster* cluster = nullptr;
  const Platform* platform = nullptr;
};

// What a row is asked. `makespan` holds the operation, root, targets and
// limits every family reads; the other fields are for the families that
// take them (see each row's capabilities).
struct PlannerRequest {
  MakespanRequest makespan;
  std::optional<double> message_size;          // bytes (graph, eager, split, steady, pipelined rows)
  std::optional<double> slice_size;            // bytes: pipelined rows and the steady broadcast (its unit)
  std::vector<ProcessorIndex> sources;         // steady gossip: every participant when empty
  std::vector<ProcessorIndex> participants;    // steady reduce: every participant when empty
  std::size_t elements = 0;                    // split rows: elements of element_bytes each; 0: message_size bytes
  double element_bytes = 1;
};

struct PlannerEntry {
  std::string name;        // as given to --algo (per operation and model)
  Operation operation = Operation::broadcast;
  CommunicationModel model = CommunicationModel::sender_speed;
  AlgorithmGuarantee guarantee;
  std::string complexity;  // e.g. "O(n log n)"
  std::string reference;   // paper and section (docs/REFERENCES.md keys)
  std::string summary;     // one line for `hetcoll algorithms`
  bool is_default = false; // the default of its (operation, model)
  // The typed entry points of the makespan families:
  // model == sender_speed:
  std::function<MakespanPlan(const Cluster&, const MakespanRequest&)> run;
  // model == platform_graph or eager:
  std::function<MakespanPlan(const GraphNetwork&, const MakespanRequest&)> run_on_graph;
  PlannerCapabilities capabilities;
  bool is_selector = false;  // chooses among other rows (auto)
  // Every row: the plan for `problem` (set by the rows files, or derived
  // from run / run_on_graph).
  std::function<PlanVariant(const PlannerProblem&, const PlannerRequest&)> run_plan;
};

// The name every caller knew.
using MakespanAlgorithm = PlannerEntry;

// The one table, every family; rows in a fixed order (family, operation).
const std::vector<PlannerEntry>& planners();
const PlannerEntry* find_planner(Operation operation, CommunicationModel model, std::string_view name);
// The row `auto` (or the family's default) of (operation, model); nullptr when none.
const PlannerEntry* default_planner(Operation operation, CommunicationModel model);
// Runs a row on `problem` and times it; InputError when the row's model
// needs what `problem` lacks.
PlanVariant run_planner(const PlannerEntry& planner, const PlannerProblem& problem, const PlannerRequest& request);


// The sender-speed rows of planners() (every makespan operation).
const std::vector<MakespanAlgorithm>& makespan_algorithms();
const MakespanAlgorithm* find_makespan_algorithm(Operation operation, std::string_view name,
                                                 CommunicationModel model = CommunicationModel::sender_speed);
const MakespanAlgorithm& default_makespan_algorithm(Operation operation,
                                                    CommunicationModel model = CommunicationModel::sender_speed);

// Runs the named sender-speed algorithm (or the default), validates the
// request (root, limits) and times it into plan.stats. Throws InputError for
// an unknown name or an invalid request.
MakespanPlan plan_makespan(const Cluster& cluster, const MakespanRequest& request,
                           std::string_view algorithm_name = {});

}  // namespace hetcoll
