#include "hetcoll/plan/broadcast_tree.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

std::string_view port_model_name(BroadcastModel model) {
  return model == BroadcastModel::one_port ? "one-port" : "multi-port";
}

TreeCosts make_tree_costs(const Platform& platform, std::optional<double> slice_size, BroadcastModel model) {
  if (slice_size && !(*slice_size > 0 && std::isfinite(*slice_size))) {
    throw InputError(fmt::format("slice_size: must be a positive number of bytes, got {}", *slice_size));
  }
  if (!slice_size && !platform.has_fixed_costs()) {
    throw InputError("slice_size: the platform's edges give latency/bandwidth, so a slice size in bytes is needed");
  }
  TreeCosts costs;
  costs.model = model;
  costs.slice_size = slice_size;
  costs.edge_time = platform.edge_costs(slice_size);
  costs.send_time.assign(static_cast<size_t>(platform.size()), 0.0);
  costs.unlimited_ports.assign(static_cast<size_t>(platform.size()), 0);
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    costs.unlimited_ports[static_cast<size_t>(v)] = platform.node(v).ports == PortModel::unlimited;
    if (auto overhead = platform.node(v).send_overhead) {
      costs.send_time[static_cast<size_t>(v)] = *overhead;
      continue;
    }
    double fastest = std::numeric_limits<double>::infinity();
    for (auto e : platform.out_edges(v)) fastest = std::min(fastest, costs.edge_time[e]);
    costs.send_time[static_cast<size_t>(v)] = std::isfinite(fastest) ? 0.8 * fastest : 0.0;
  }
  return costs;
}

double node_period(const TreeCosts& costs, ProcessorIndex v, const NodeLoad& load) {
  auto vi = static_cast<size_t>(v);
  if (costs.unlimited_ports[vi]) return std::max(load.out_longest, load.in_longest);
  if (costs.model == BroadcastModel::one_port) return std::max(load.out_sum, load.in_sum);
  return std::max(load.out_count * costs.send_time[vi], load.out_longest);
}

TreeEvaluation evaluate_tree(const Platform& platform, const BroadcastTree& tree, const TreeCosts& costs) {
  const auto n = static_cast<size_t>(platform.size());
  std::vector<NodeLoad> load(n);
  std::vector<double> link_busy(platform.edges().size(), 0.0);
  for (const auto& edge : tree.edges) {
    for (auto e : edge.route) {
      const auto& link = platform.edges()[e];
      double time = costs.edge_time[e];
      link_busy[e] += time;
      auto& from = load[static_cast<size_t>(link.from)];
      auto& to = load[static_cast<size_t>(link.to)];
      from.out_sum += time;
      from.out_longest = std::max(from.out_longest, link_busy[e]);
      ++from.out_count;
      to.in_sum += time;
      to.in_longest = std::max(to.in_longest, link_busy[e]);
    }
  }
  TreeEvaluation result;
  result.node_period.assign(n, 0.0);
  for (size_t v = 0; v < n; ++v) {
    result.node_period[v] = node_period(costs, static_cast<ProcessorIndex>(v), load[v]);
    if (result.node_period[v] > result.period) {
      result.period = result.node_period[v];
      result.bottleneck = static_cast<ProcessorIndex>(v);
    }
  }
  if (result.bottleneck == kNoProcessor) result.bottleneck = tree.source;
  result.throughput = result.period > 0 ? 1.0 / result.period : std::numeric_limits<double>::infinity();
  return result;
}

BroadcastTree tree_from_edges(ProcessorIndex source, const Platform& platform, const std::vector<std::size_t>& edges) {
  BroadcastTree tree;
  tree.source = source;
  tree.edges.reserve(edges.size());
  for (auto e : edges) tree.edges.push_back({platform.edges()[e].from, platform.edges()[e].to, {e}});
  return tree;
}

}  // namespace hetcoll
