#include "hetcoll/steady/pipelined/pipelined_tree_plan.h"

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/steady/broadcast/optimal_tree_search.h"
#include "hetcoll/steady/broadcast/tree_heuristics.h"
#include "hetcoll/verify/verify_tree.h"

namespace hetcoll {
namespace {

struct BuiltTree {
  BroadcastTree tree;
  std::optional<bool> finished;
  std::uint64_t nodes = 0;
  std::optional<SearchStatus> status;
};

// `limits`: one budget for every build of the call (the slice-size rounds
// and the final tree), the starting tree's heuristics included.
BuiltTree build(const Platform& platform, const PipelinedTreeRequest& request, std::optional<double> slice_size,
                SharedLimits& limits) {
  TreeProblem problem;
  problem.platform = &platform;
  problem.source = request.source;
  problem.costs = make_tree_costs(platform, slice_size, request.model);
  problem.lp_edge_rates = request.lp_edge_rates;
  if (request.heuristic == "optimal") {
    BroadcastTree start = best_single_tree(problem);
    auto result = optimal_tree_search(problem, start, limits.remaining());
    limits.spend(result.nodes);
    return {std::move(result.tree), result.finished, result.nodes, result.status};
  }
  const auto* heuristic = find_tree_heuristic(request.heuristic);
  if (!heuristic) {
    std::string known;
    for (const auto& h : tree_heuristics()) known += (known.empty() ? "" : ", ") + h.name;
    throw InputError(fmt::format("heuristic: unknown \"{}\" (known: {}, optimal)", request.heuristic, known));
  }
  return {heuristic->build(problem), std::nullopt, 0, std::nullopt};
}

}  // namespace

PipelinedTreePlan plan_pipelined_tree(const Platform& platform, const PipelinedTreeRequest& request) {
  if (request.source < 0 || request.source >= platform.size()) throw InputError("source: not a node of the platform");
  if (platform.node(request.source).router) {
    throw InputError(fmt::format("source: {} is a router, which holds no data to broadcast", platform.id(request.source)));
  }
  PipelinedTreePlan plan;
  plan.algorithm = request.heuristic;
  const auto* heuristic = find_tree_heuristic(request.heuristic);
  plan.heuristic_reference = heuristic ? heuristic->reference : "hetcoll (exact tree search)";
  plan.port_model = request.model;
  plan.source = request.source;
  plan.message_size = request.message_size;
  plan.optimal_throughput = request.optimal_throughput;
  plan.slice_size = request.slice_size;
  SharedLimits limits(request.search_limits);

  if (request.message_size && !request.slice_size && !platform.has_fixed_costs()) {
    // The tree depends on the slice size and the best slice on the tree: build
    // at a hundredth of the message, pick the slice, rebuild, pick again.
    double slice = *request.message_size / 100;
    for (int round = 0; round < 2; ++round) {
      auto built = build(platform, request, slice, limits);
      auto best = best_slice_size(platform, built.tree, request.model, *request.message_size);
      slice = best.slice_size;
      plan.slice_size_within_one_percent = best.within_one_percent;
    }
    plan.slice_size = slice;
    plan.slice_size_chosen = true;
  }
  auto built = build(platform, request, plan.slice_size, limits);
  plan.tree = std::move(built.tree);
  if (built.status) plan.status = *built.status;
  plan.stats.nodes = built.nodes;
  auto costs = make_tree_costs(platform, plan.slice_size, request.model);
  plan.evaluation = evaluate_tree(platform, plan.tree, costs);
  if (request.message_size) {
    plan.makespan = tree_makespan(platform, plan.tree, request.model, *request.message_size,
                                  plan.slice_size.value_or(*request.message_size));
  }
  plan.verification = verify_broadcast_tree(platform, plan.tree, costs, plan.evaluation.period);
  return plan;
}

}  // namespace hetcoll
