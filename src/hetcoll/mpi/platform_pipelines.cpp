#ifdef HETCOLL_WITH_LP

#include "hetcoll/mpi/platform_pipelines.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/steady/broadcast/steady_broadcast.h"
#include "hetcoll/steady/pipelined/latency_aware.h"
#include "hetcoll/steady/pipelined/pipelined_tree_plan.h"

namespace hetcoll::mpi {

PipelineTree rank_tree(const hetcoll::BroadcastTree& tree, const Platform& platform,
                       const std::vector<ProcessorIndex>& processor_of_rank) {
  auto nodes = static_cast<size_t>(platform.size());
  std::vector<ProcessorIndex> parent(nodes, kNoProcessor);
  std::vector<std::size_t> added_by(nodes, std::numeric_limits<std::size_t>::max());
  for (std::size_t i = 0; i < tree.edges.size(); ++i) {
    auto to = static_cast<size_t>(tree.edges[i].to);
    parent[to] = tree.edges[i].from;
    added_by[to] = i;
  }
  std::vector<int> rank_of(nodes, -1);
  for (size_t r = 0; r < processor_of_rank.size(); ++r) rank_of[static_cast<size_t>(processor_of_rank[r])] = static_cast<int>(r);
  auto ranks = processor_of_rank.size();
  PipelineTree result;
  result.root = rank_of[static_cast<size_t>(tree.source)];
  if (result.root < 0) throw InputError("rank tree: the tree's source is not played by a rank");
  result.children.assign(ranks, {});
  std::vector<std::pair<std::size_t, int>> order;  // (edge index, rank)
  for (size_t r = 0; r < ranks; ++r) {
    if (static_cast<int>(r) == result.root) continue;
    auto node = processor_of_rank[r];
    if (added_by[static_cast<size_t>(node)] == std::numeric_limits<std::size_t>::max()) {
      throw InputError(fmt::format("rank tree: rank {} ({}) is not reached by the tree", r, platform.id(node)));
    }
    order.emplace_back(added_by[static_cast<size_t>(node)], static_cast<int>(r));
  }
  std::sort(order.begin(), order.end());
  for (auto [edge, r] : order) {
    auto up = parent[static_cast<size_t>(processor_of_rank[static_cast<size_t>(r)])];
    for (std::size_t steps = 0; up != kNoProcessor && rank_of[static_cast<size_t>(up)] < 0 && steps <= nodes; ++steps) {
      up = parent[static_cast<size_t>(up)];
    }
    if (up == kNoProcessor || rank_of[static_cast<size_t>(up)] < 0) {
      throw InputError(fmt::format("rank tree: rank {} has no ancestor played by a rank", r));
    }
    result.children[static_cast<size_t>(rank_of[static_cast<size_t>(up)])].push_back(r);
  }
  return result;
}

Platform rank_route_graph(const Platform& platform, const std::vector<ProcessorIndex>& processor_of_rank) {
  std::vector<PlatformNode> nodes;
  for (auto p : processor_of_rank) {
    PlatformNode node;
    node.id = platform.id(p);
    node.speed = platform.node(p).speed;
    nodes.push_back(node);
  }
  auto unit_costs = platform.edge_costs(1.0);
  std::vector<PlatformEdge> edges;
  const auto ranks = processor_of_rank.size();
  for (size_t u = 0; u < ranks; ++u) {
    auto routes = platform.routes_from(processor_of_rank[u], unit_costs);
    for (size_t v = 0; v < ranks; ++v) {
      if (u == v) continue;
      const auto& route = routes[static_cast<size_t>(processor_of_rank[v])];
      if (!route) {
        throw InputError(fmt::format("rank mapping: no route from {} to {}", platform.id(processor_of_rank[u]),
                                     platform.id(processor_of_rank[v])));
      }
      PlatformEdge edge;
      edge.from = static_cast<ProcessorIndex>(u);
      edge.to = static_cast<ProcessorIndex>(v);
      // route_time is affine in the size: latency + size / smallest bandwidth.
      double latency = platform.route_time(*route, 0.0);
      double per_byte = platform.route_time(*route, 1.0) - latency;
      if (per_byte > 0) {
        edge.latency = latency;
        edge.bandwidth = 1.0 / per_byte;
      } else {
        edge.cost = latency;  // no bandwidth limit on the way: the latency alone
      }
      edges.push_back(edge);
    }
  }
  return Platform(std::move(nodes), std::move(edges), "rank route graph");
}

PlatformPipeline plan_platform_pipeline(const Platform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                                        int root_rank, const std::string& method, double message_bytes,
                                        int type_size) {
  // Planned on the graph the runtime executes: one MPI message per rank pair
  // (see the header).
  const Platform participating = rank_route_graph(platform, processor_of_rank);
  std::vector<ProcessorIndex> identity(processor_of_rank.size());
  for (size_t r = 0; r < identity.size(); ++r) identity[r] = static_cast<ProcessorIndex>(r);
  ProcessorIndex source = static_cast<ProcessorIndex>(root_rank);

  // One LP-free single tree, then (multi-tree, auto) the latency-aware
  // choice of latency_aware.h, which plans that same tree first.
  auto single_pipeline = [&](const PipelinedTreePlan& single) {
    if (!single.slice_size || !single.makespan) throw InputError("pipelined tree: no slice size was chosen");
    PlatformPipeline result;
    result.plan.trees = {{1.0, rank_tree(single.tree, participating, identity)}};
    result.plan.slice_bytes = static_cast<std::size_t>(std::max(1.0, std::floor(*single.slice_size)));
    result.plan.algorithm = "tree " + single.algorithm;
    result.predicted_seconds = single.makespan->makespan;
    result.description = fmt::format("pipelined best single tree ({}); {:.0f} B slices", single.algorithm, *single.slice_size);
    return result;
  };
  if (method == "tree") {
    PipelinedTreeRequest request;
    request.source = source;
    request.message_size = message_bytes;
    return single_pipeline(plan_pipelined_tree(participating, request));
  }
  if (method != "multi-tree" && method != "auto") {
    throw InputError(fmt::format("pipeline method \"{}\": use tree, multi-tree or auto", method));
  }
  SteadyBroadcastOptions steady;
  steady.message_size = message_bytes;
  steady.stage = SteadyBroadcastStage::packing;  // the runtime deals the slices out in rounds, not periods
  const SteadyBroadcastResult planned = plan_steady_broadcast(participating, source, steady);
  const LatencyAwareChoice& choice = *planned.latency_aware;
  // The rounds schedule as the runtime runs it: the trees of the round with
  // their slices per round as weights (smooth weighted round robin deals
  // exactly r_i of every R slices to tree i), at the chosen slice size.
  const auto& rounds = choice.multi_tree.rounds;
  PlatformPipeline multi;
  for (std::size_t i = 0; i < choice.packing.trees.size(); ++i) {
    if (rounds.tree_slices[i] == 0) continue;
    multi.plan.trees.push_back({static_cast<double>(rounds.tree_slices[i]),
                                rank_tree(choice.packing.trees[i].tree, participating, identity)});
  }
  multi.plan.slice_bytes = static_cast<std::size_t>(std::max(1.0, std::floor(choice.multi_tree.slice_size)));
  multi.plan.algorithm = "multi-tree";
  // The runtime's one-port replay of that order: what it will take.
  auto costs = participating.edge_costs(1.0);
  TransferCost cost = [&](ProcessorIndex u, ProcessorIndex v, double bytes) {
    auto route = participating.route(u, v, costs);
    return route ? participating.route_time(*route, bytes) : std::numeric_limits<double>::infinity();
  };
  multi.predicted_seconds = predict_pipelined_broadcast(multi.plan, message_bytes, type_size, cost);
  multi.description = fmt::format(
      "pipelined multi-tree in rounds ({} of {} packed trees; {} slices per round; rounds model {:.4g} s); {} B slices",
      rounds.trees_used, choice.packing.trees.size(), rounds.slices_per_round, choice.multi_tree.makespan,
      multi.plan.slice_bytes);
  if (method == "multi-tree") return multi;
  // auto: the rounds only where both the rounds model and the runtime's
  // replay say they beat the single tree.
  auto single = single_pipeline(choice.single_tree);
  if (choice.multi_tree_chosen && multi.predicted_seconds < single.predicted_seconds) {
    multi.description = "auto: " + multi.description;
    return multi;
  }
  single.description = "auto: " + single.description;
  return single;
}

}  // namespace hetcoll::mpi

#endif
