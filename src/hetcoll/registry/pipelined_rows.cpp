// The pipelined broadcast rows (steady/broadcast/tree_heuristics.h,
// steady/pipelined/pipelined_tree_plan.h): one broadcast cut into slices
// along a single tree, each heuristic of Beaumont, Marchal, Robert 2004 and
// the exact tree search.
#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/registry/rows_internal.h"
#include "hetcoll/steady/broadcast/steady_broadcast.h"
#include "hetcoll/steady/broadcast/tree_heuristics.h"
#include "hetcoll/steady/pipelined/pipelined_tree_plan.h"

namespace hetcoll {

namespace {

PlannerEntry pipelined_row(std::string name, std::string summary, std::string reference, bool needs_lp) {
  PlannerEntry row;
  row.name = name;
  row.operation = Operation::broadcast;
  row.model = CommunicationModel::pipelined;
  row.guarantee.kind = Guarantee::Kind::heuristic;
  row.guarantee.stopped_kind = Guarantee::Kind::heuristic;
  row.guarantee.text = "none (heuristic); its throughput is compared with the multi-tree optimum";
  row.complexity = needs_lp ? "the SSB LP, then the heuristic's tree building" : "polynomial tree building";
  row.reference = std::move(reference);
  row.summary = std::move(summary);
  row.capabilities.splits_messages = true;
  row.run_plan = [name, needs_lp](const PlannerProblem& problem, const PlannerRequest& request) {
    if (!problem.platform) throw InputError("problem", fmt::format("{} plans on a platform graph", name));
    const Platform& platform = *problem.platform;
    PipelinedTreeRequest tree;
    tree.source = request.makespan.root == kNoProcessor ? platform.participants().front() : request.makespan.root;
    tree.heuristic = name;
    tree.slice_size = request.slice_size;
    tree.message_size = request.message_size;
    if (name == "optimal") tree.search_limits = request.makespan.limits;
    if (needs_lp) {
      SteadyBroadcastOptions lp_only;
      lp_only.slice_size = request.slice_size;
      lp_only.stage = SteadyBroadcastStage::optimum;
      const SsbSolution optimum = plan_steady_broadcast(platform, tree.source, lp_only).optimum;
      tree.lp_edge_rates = optimum.edge_rate_values();
      tree.optimal_throughput = optimum.throughput_value();
    }
    return PlanVariant(plan_pipelined_tree(platform, tree));
  };
  return row;
}

}  // namespace

void add_pipelined_planners(std::vector<PlannerEntry>& rows) {
  for (const auto& heuristic : tree_heuristics()) {
    rows.push_back(pipelined_row(heuristic.name, heuristic.summary, heuristic.reference, heuristic.needs_lp));
    rows.back().is_default = heuristic.name == PipelinedTreeRequest{}.heuristic;
  }
  auto optimal = pipelined_row("optimal", "the best single tree by branch and bound over arborescences (small platforms)",
                               "hetcoll (Beaumont, Marchal, Robert 2004 note the problem is NP-hard)", false);
  optimal.guarantee.kind = Guarantee::Kind::exact;
  optimal.guarantee.text = "the best single tree when the search finishes; else the best tree found";
  optimal.capabilities.exact_search = true;
  optimal.capabilities.limits = true;
  optimal.complexity = "exponential; small platforms";
  rows.push_back(std::move(optimal));
}

}  // namespace hetcoll
