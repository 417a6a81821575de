#include "hetcoll/steady/pipelined/latency_aware.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {
namespace {

// r_i for R slices per round: largest remainders of R w_i / sum w (ties to
// the lower tree index).
std::vector<std::int64_t> apportion(const std::vector<double>& weights, int slices_per_round) {
  double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  std::vector<std::int64_t> share(weights.size(), 0);
  std::vector<std::pair<double, size_t>> remainders;
  std::int64_t given = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    double quota = slices_per_round * weights[i] / total;
    share[i] = static_cast<std::int64_t>(std::floor(quota));
    given += share[i];
    remainders.push_back({quota - static_cast<double>(share[i]), i});
  }
  std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t j = 0; given < slices_per_round && j < remainders.size(); ++j, ++given) ++share[remainders[j].second];
  return share;
}

// Edges (hops) from the source to the deepest node of a tree.
int tree_depth(const Platform& platform, const BroadcastTree& tree) {
  std::vector<int> depth(static_cast<size_t>(platform.size()), 0);
  int deepest = 0;
  for (const auto& edge : tree.edges) {  // parents come before children
    auto& d = depth[static_cast<size_t>(edge.to)];
    d = depth[static_cast<size_t>(edge.from)] + static_cast<int>(edge.route.size());
    deepest = std::max(deepest, d);
  }
  return deepest;
}

// Per tree and node, the slice times of the tree's hops leaving and entering
// the node; rows of n entries.
struct TreeLoads {
  std::vector<double> out, in;  // [tree * n + node]
};

TreeLoads tree_loads(const Platform& platform, const MultiTreePacking& packing, const std::vector<double>& times) {
  const auto n = static_cast<size_t>(platform.size());
  TreeLoads loads{std::vector<double>(packing.trees.size() * n, 0.0), std::vector<double>(packing.trees.size() * n, 0.0)};
  for (size_t i = 0; i < packing.trees.size(); ++i) {
    for (const auto& edge : packing.trees[i].tree.edges) {
      for (auto e : edge.route) {
        const auto& link = platform.edges()[e];
        loads.out[i * n + static_cast<size_t>(link.from)] += times[e];
        loads.in[i * n + static_cast<size_t>(link.to)] += times[e];
      }
    }
  }
  return loads;
}

double round_length(const Platform& platform, const TreeLoads& loads, const std::vector<std::int64_t>& share) {
  const auto n = static_cast<size_t>(platform.size());
  double longest = 0;
  for (size_t v = 0; v < n; ++v) {
    if (platform.node(static_cast<ProcessorIndex>(v)).ports == PortModel::unlimited) continue;
    double out = 0, in = 0;
    for (size_t i = 0; i < share.size(); ++i) {
      if (share[i] == 0) continue;
      out += static_cast<double>(share[i]) * loads.out[i * n + v];
      in += static_cast<double>(share[i]) * loads.in[i * n + v];
    }
    longest = std::max({longest, out, in});
  }
  // A switch (unlimited ports) is not serialised: left out, an estimate
  // that is optimistic only when one of its links is the bottleneck.
  return longest;
}

struct RoundShape {
  std::vector<std::int64_t> share;
  int depth = 0;
  int trees_used = 0;
};

std::vector<RoundShape> round_shapes(const Platform& platform, const MultiTreePacking& packing, int max_round) {
  std::vector<double> weights;
  std::vector<int> depths;
  for (const auto& tree : packing.trees) {
    weights.push_back(to_double(tree.weight));
    depths.push_back(tree_depth(platform, tree.tree));
  }
  std::vector<RoundShape> shapes(static_cast<size_t>(max_round) + 1);
  for (int r = 1; r <= max_round; ++r) {
    auto& shape = shapes[static_cast<size_t>(r)];
    shape.share = apportion(weights, r);
    for (size_t i = 0; i < weights.size(); ++i) {
      if (shape.share[i] == 0) continue;
      ++shape.trees_used;
      shape.depth = std::max(shape.depth, depths[i]);
    }
  }
  return shapes;
}

}  // namespace

RoundedMultiTree round_multi_tree(const Platform& platform, const MultiTreePacking& packing,
                                  const std::vector<double>& slice_times, int slices_per_round) {
  if (slices_per_round < 1) throw InputError("slices_per_round: must be at least 1");
  if (packing.trees.empty()) throw InputError("packing: no trees to round");
  auto shapes = round_shapes(platform, packing, slices_per_round);
  const auto& shape = shapes.back();
  RoundedMultiTree rounded;
  rounded.slices_per_round = slices_per_round;
  rounded.tree_slices = shape.share;
  rounded.depth = shape.depth;
  rounded.trees_used = shape.trees_used;
  rounded.round_length = round_length(platform, tree_loads(platform, packing, slice_times), shape.share);
  return rounded;
}

MultiTreeMakespan best_multi_tree_makespan(const Platform& platform, const MultiTreePacking& packing,
                                           double message_size, const LatencyAwareOptions& options) {
  if (!(message_size > 0) || !std::isfinite(message_size)) {
    throw InputError(fmt::format("message_size: must be a positive number of bytes, got {}", message_size));
  }
  if (packing.trees.empty()) throw InputError("packing: no trees");
  const int max_round = std::max(1, options.max_slices_per_round);
  auto shapes = round_shapes(platform, packing, max_round);
  // Best R for k slices: returns (makespan, R).
  auto best_for_count = [&](std::int64_t k) {
    double slice = options.slice_size ? *options.slice_size : message_size / static_cast<double>(k);
    auto costs = make_tree_costs(platform, slice, BroadcastModel::one_port);
    auto loads = tree_loads(platform, packing, costs.edge_time);
    std::pair<double, int> best{std::numeric_limits<double>::infinity(), 1};
    for (int r = 1; r <= max_round && r <= k; ++r) {
      const auto& shape = shapes[static_cast<size_t>(r)];
      double length = round_length(platform, loads, shape.share);
      double makespan;
      if (shape.trees_used == 1) {
        // One tree: the single-tree pipeline (slice_makespan.h) runs it.
        size_t only = static_cast<size_t>(std::find_if(shape.share.begin(), shape.share.end(),
                                                       [](std::int64_t s) { return s > 0; }) -
                                          shape.share.begin());
        makespan = static_cast<double>(k - 1) * length / r + first_slice_time(platform, packing.trees[only].tree, costs);
      } else {
        auto batches = (k + r - 1) / r;
        makespan = static_cast<double>(batches + shape.depth - 1) * length;
      }
      if (makespan < best.first) best = {makespan, r};
    }
    return best;
  };
  std::int64_t count;
  if (options.slice_size) {
    count = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(message_size / *options.slice_size - 1e-12)));
  } else {
    auto max_count = static_cast<std::int64_t>(std::min(std::floor(message_size), 1e7));
    count = best_slice_count(max_count, [&](std::int64_t k) { return best_for_count(k).first; }).count;
  }
  auto [makespan, rounds] = best_for_count(count);
  MultiTreeMakespan result;
  result.slices = count;
  result.slice_size = options.slice_size ? *options.slice_size : message_size / static_cast<double>(count);
  result.rounds = round_multi_tree(platform, packing, platform.edge_costs(result.slice_size), rounds);
  result.makespan = makespan;
  return result;
}

std::string LatencyAwareChoice::chosen_name() const {
  if (!multi_tree_chosen) return fmt::format("one tree ({})", single_tree.algorithm);
  if (multi_tree.rounds.trees_used == 1) return "one tree (the multi-tree packing's heaviest, alone)";
  return fmt::format("{} trees in rounds of {} slices", multi_tree.rounds.trees_used,
                     multi_tree.rounds.slices_per_round);
}

LatencyAwareChoice choose_broadcast_schedule(const Platform& platform, ProcessorIndex source, double message_size,
                                             const LatencyAwareOptions& options) {
  if (platform.has_fixed_costs()) {
    throw InputError("message_size: the platform's edges have fixed costs, so there are no bytes to cut into "
                     "slices; a latency-aware choice needs edges with latency and bandwidth");
  }
  LatencyAwareChoice choice;
  choice.message_size = message_size;
  PipelinedTreeRequest request;
  request.source = source;
  request.message_size = message_size;
  request.slice_size = options.slice_size;
  choice.single_tree = plan_pipelined_tree(platform, request);
  double slice = *choice.single_tree.slice_size;
  for (int round = 0; round < 2; ++round) {
    auto times = platform.edge_costs(slice);
    choice.optimum = solve_ssb(platform, source, times);
    choice.packing = pack_broadcast_trees(platform, source, times, choice.optimum);
    choice.multi_tree = best_multi_tree_makespan(platform, choice.packing, message_size, options);
    choice.packing_slice_size = slice;
    if (options.slice_size || choice.multi_tree.slice_size == slice) break;
    slice = choice.multi_tree.slice_size;
  }
  choice.multi_tree_chosen = choice.multi_tree.makespan < choice.single_tree.makespan->makespan;
  return choice;
}

}  // namespace hetcoll
