#include "hetcoll/registry/graph_registry.h"
#include "hetcoll/registry/rows_internal.h"

#include <chrono>
#include <memory>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/graph/auto_graph.h"
#include "hetcoll/makespan/graph/binomial_tree.h"
#include "hetcoll/makespan/graph/ecef.h"
#include "hetcoll/makespan/graph/exact_search.h"
#include "hetcoll/makespan/graph/fef.h"
#include "hetcoll/makespan/graph/fnf_view.h"
#include "hetcoll/makespan/graph/graph_planner.h"
#include "hetcoll/makespan/graph/hierarchical.h"
#include "hetcoll/makespan/graph/lookahead.h"
#include "hetcoll/registry/predicted_plan.h"

namespace hetcoll {

namespace {

// One graph planner before it becomes a row per operation.
struct GraphPlanner {
  PlannerEntry row;  // model, name, texts, capabilities, run_on_graph; `guarantee` as it holds for broadcast
};

// The flat planners build a route table of every participant first; one
// that cannot be built within the time limit is not started (LimitError,
// exit code 4) rather than overrunning it. The estimate is of one table of
// every participant: hierarchical and auto build smaller ones per site, so
// for them it is an upper bound (auto then drops ECEF and look-ahead when
// they overrun the limit, auto_graph.h).
void refuse_table_beyond_time_limit(const GraphNetwork& network, const MakespanRequest& request,
                                    const std::string& name) {
  if (!request.limits.has_time_limit()) return;
  const RouteTableEstimate table = estimate_route_table(network, network.participants());
  if (table.seconds > request.limits.time_limit_seconds) {
    throw LimitError(fmt::format("{}: its route table of {} participants ({:.2g} links crossed in all, about {:.2g} "
                                 "GB) takes about {:.2g} s to build, beyond the time limit of {:g} s",
                                 name, network.participants().size(), table.hops, table.bytes / 1e9, table.seconds,
                                 request.limits.time_limit_seconds));
  }
}

GraphPlanner entry(std::string name, Guarantee guarantee, std::string complexity, std::string reference,
                   std::string summary, BroadcastEngine engine) {
  GraphPlanner planner;
  PlannerEntry& algorithm = planner.row;
  algorithm.name = name;
  algorithm.model = CommunicationModel::platform_graph;
  algorithm.complexity = std::move(complexity);
  algorithm.reference = std::move(reference);
  algorithm.summary = std::move(summary);
  algorithm.guarantee.kind = guarantee.kind == Guarantee::Kind::exact ? Guarantee::Kind::exact : Guarantee::Kind::heuristic;
  algorithm.guarantee.stopped_kind = Guarantee::Kind::heuristic;
  algorithm.guarantee.text = guarantee.text;
  algorithm.capabilities.needs_message_size = true;
  algorithm.run_on_graph = [name, guarantee, engine](const GraphNetwork& network, const MakespanRequest& request) {
    refuse_table_beyond_time_limit(network, request, name);
    return plan_on_graph(network, request, {name, guarantee}, engine);
  };
  return planner;
}

Guarantee heuristic() {
  Guarantee g = Guarantee::none();
  g.text = "heuristic (no proven ratio)";
  return g;
}

std::vector<GraphPlanner> build_graph_planners() {
  std::vector<GraphPlanner> algorithms;
  {
    Guarantee guarantee = heuristic();
    guarantee.text = "the candidate predicted fastest in the flow model; its own claims (e.g. auto's proven "
                     "optimum) hold in its own model";
    auto algorithm = entry("predicted", guarantee, "the candidates' planners, plus one flow-model prediction each",
                           "selector: the flow model of SimGrid's CM02 (Velho, Legrand 2009) as SMPI runs MPI",
                           "with latencies, bandwidths and a message size: of auto, hierarchical, look-ahead, ECEF, "
                           "binomial and the eager model's auto and flat trees, the one predicted to finish first "
                           "in the flow model (shared links at their capacity); the command line also weighs MPI's "
                           "own algorithms and hetcoll's split and site programs, and prints a program plan when "
                           "one is predicted faster by more than 2 %; otherwise auto",
                           {});
    algorithm.row.is_default = true;
    algorithm.row.is_selector = true;
    algorithm.row.capabilities.limits = true;
    algorithm.row.run_on_graph = [](const GraphNetwork& network, const MakespanRequest& request) {
      return plan_by_flow_prediction(network, request).plan;
    };
    algorithms.push_back(std::move(algorithm));
  }
  {
    Guarantee guarantee = heuristic();
    guarantee.text = fmt::format("optimal when the exact search finishes (up to {} participants), else heuristic",
                                 kAutoExactMembers);
    auto algorithm = entry("auto", guarantee, "budgeted exact search (n <= 10), else O(n^2 log n) per site",
                           "selector over the graph planners",
                           "the best of hierarchical, ECEF and look-ahead; up to 10 participants, the exact search "
                           "(fixed node budget) started from it",
                           {});
    algorithm.row.is_selector = true;
    algorithm.row.capabilities.limits = true;
    algorithm.row.guarantee.stronger.push_back({Guarantee::Kind::exact, 1,
                                       "the budgeted exact search finishes (at most 10 participants); every "
                                       "operation but all-reduce",
                                       "hetcoll's exact search over transfer orders"});
    algorithm.row.run_on_graph = [guarantee](const GraphNetwork& network, const MakespanRequest& request) {
      // One budget for every phase and root (an all-reduce runs up to 2 x 16).
      auto shared = std::make_shared<SharedLimits>(request.limits);
      refuse_table_beyond_time_limit(network, request, "auto");
      MakespanPlan plan = plan_on_graph(network, request, {"auto", guarantee},
                                        [shared](const GraphNetwork& n, const BroadcastTask& task) {
                                          EngineResult result = broadcast_auto(n, task, shared->remaining());
                                          shared->spend(result.stats.nodes);
                                          return result;
                                        });
      // The guarantee of this run, not the policy: its size decides.
      const std::size_t members = request.operation == Operation::multicast ? request.targets.size() + 1
                                                                            : network.participants().size();
      if (plan.optimal) {
        plan.guarantee.text = "optimal (the exact search finished)";
      } else if (members > kAutoExactMembers) {
        plan.guarantee.text = fmt::format("heuristic, no proven ratio ({} participants; the exact search takes at "
                                          "most {})",
                                          members, kAutoExactMembers);
      } else if (request.operation == Operation::allreduce) {
        plan.guarantee.text = "heuristic, no proven ratio (an all-reduce's two phases are planned one after the "
                              "other; the exact search is not exact for the whole)";
      } else {
        plan.guarantee.text = "heuristic, no proven ratio (the exact search did not finish)";
      }
      return plan;
    };
    algorithms.push_back(std::move(algorithm));
  }
  algorithms.push_back(entry("hierarchical", heuristic(), "O(m log m) + O(k^2 log k) per group of k",
                             "MagPIe (Kielmann et al. 1999), Open MPI HAN; planned with costs",
                             "detect sites (groups of cheap links), cross each slow link once: gateways first, "
                             "then inside each site (reduce: the reverse)",
                             broadcast_hierarchical));
  algorithms.push_back(entry("lookahead", heuristic(), "O(n^2 log n)", "Bhat, Raghavendra, Prasanna 2003",
                             "ECEF with look-ahead: earliest completion plus the receiver's cheapest onward route",
                             broadcast_lookahead));
  algorithms.push_back(entry("ecef", heuristic(), "O(n^2 log n)", "Bhat, Raghavendra, Prasanna 2003",
                             "earliest completing edge first: the transfer that would finish first",
                             broadcast_ecef));
  algorithms.push_back(entry("fef", heuristic(), "O(n^2 log n)", "Bhat, Raghavendra, Prasanna 2003",
                             "fastest edge first: the cheapest route from an informed node", broadcast_fef));
  algorithms.push_back(entry("binomial", heuristic(), "O(k log k) placements + O(k^2) route table",
                             "Thakur, Rabenseifner, Gropp 2005 (MPICH); SimGrid SMPI bcast-binomial-tree",
                             "MPI's binomial tree over the participants in index order (source = relative rank "
                             "0), timed on the graph; it ignores every cost",
                             broadcast_binomial));
  {
    Guarantee guarantee = Guarantee::exact();
    guarantee.text = "exact (when the search finishes; else the best plan found)";
    auto algorithm = entry("optimal", guarantee, "exponential; O(k^2) per node, k <= 16 participants",
                           "branch and bound over transfer orders (hetcoll)",
                           "exact search for small graphs (<= 16 participants; --time-limit, --node-limit)", {});
    algorithm.row.capabilities.exact_search = true;
    algorithm.row.capabilities.limits = true;
    algorithm.row.guarantee.text = "exact when the search finishes (every operation but all-reduce); else the best plan found";
    algorithm.row.run_on_graph = [guarantee](const GraphNetwork& network, const MakespanRequest& request) {
      auto shared = std::make_shared<SharedLimits>(request.limits);
      return plan_on_graph(network, request, {"optimal", guarantee},
                           [shared](const GraphNetwork& n, const BroadcastTask& task) {
                             EngineResult result = broadcast_exact(n, task, shared->remaining());
                             shared->spend(result.stats.nodes);
                             return result;
                           });
    };
    algorithms.push_back(std::move(algorithm));
  }
  {
    auto algorithm = entry("fnf-view", heuristic(), "O(n^2) routes + O(n log n)",
                           "Liu 2002 sec. 3 (FNF), Liu, Kuo, Wang 2009 (SNF), on the sender-speed view",
                           "baseline: FNF / SNF planned on the sender-speed view (one time per node), executed on the "
                           "platform",
                           broadcast_fnf_view);
    algorithm.row.capabilities.baseline = true;
    algorithms.push_back(std::move(algorithm));
  }
  return algorithms;
}

// `guarantee` as it holds for one operation: no all-reduce is proven optimal
// on a graph (the exact search covers reduce-then-broadcast plans only), so
// there exact claims become heuristic.
AlgorithmGuarantee guarantee_for(const AlgorithmGuarantee& broadcast, Operation operation) {
  if (operation != Operation::allreduce) return broadcast;
  AlgorithmGuarantee claimed = broadcast;
  if (claimed.kind == Guarantee::Kind::exact) claimed.kind = Guarantee::Kind::heuristic;
  std::erase_if(claimed.stronger, [](const ClaimCondition& c) { return c.kind == Guarantee::Kind::exact; });
  return claimed;
}

}  // namespace

void add_graph_planners(std::vector<PlannerEntry>& rows) {
  const auto planners = build_graph_planners();
  for (auto operation : {Operation::broadcast, Operation::multicast, Operation::reduce, Operation::allreduce}) {
    for (const auto& planner : planners) {
      PlannerEntry row = planner.row;
      row.operation = operation;
      row.guarantee = guarantee_for(planner.row.guarantee, operation);
      rows.push_back(std::move(row));
    }
  }
}

const std::vector<GraphMakespanAlgorithm>& graph_makespan_algorithms() {
  static const std::vector<GraphMakespanAlgorithm> algorithms = [] {
    std::vector<GraphMakespanAlgorithm> rows;
    for (const auto& row : planners()) {
      if (row.model == CommunicationModel::platform_graph && row.operation == Operation::broadcast) rows.push_back(row);
    }
    return rows;
  }();
  return algorithms;
}

const GraphMakespanAlgorithm* find_graph_makespan_algorithm(std::string_view name) {
  for (const auto& algorithm : graph_makespan_algorithms()) {
    if (algorithm.name == name) return &algorithm;
  }
  return nullptr;
}

MakespanPlan plan_graph_makespan(const GraphNetwork& network, const MakespanRequest& request,
                                 std::string_view algorithm_name) {
  const std::string_view name = algorithm_name.empty() ? "auto" : algorithm_name;
  const PlannerEntry* algorithm = find_planner(request.operation, CommunicationModel::platform_graph, name);
  if (!algorithm) {
    std::string known;
    for (const auto& candidate : graph_makespan_algorithms()) known += (known.empty() ? "" : ", ") + candidate.name;
    throw InputError(fmt::format("unknown graph planner \"{}\" (known: {})", algorithm_name, known));
  }
  const auto started = std::chrono::steady_clock::now();
  MakespanPlan plan = algorithm->run_on_graph(network, request);
  plan.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return plan;
}

}  // namespace hetcoll
