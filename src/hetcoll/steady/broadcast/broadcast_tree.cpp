#include "hetcoll/steady/broadcast/broadcast_tree.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

std::string_view port_model_name(PortModel model) {
  return model == PortModel::one_port ? "one-port" : "multi-port";
}

TreeCosts make_tree_costs(const Platform& platform, std::optional<double> slice_size, PortModel model) {
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
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
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

TreeEvaluation evaluate_tree(const Platform& platform, const BroadcastTree& tree, const TreeCosts& costs) {
  const auto n = static_cast<size_t>(platform.size());
  TreeEvaluation result;
  result.node_period.assign(n, 0.0);
  if (costs.model == PortModel::one_port) {
    std::vector<double> out_load(n, 0.0), in_load(n, 0.0);
    for (const auto& edge : tree.edges) {
      for (auto e : edge.route) {
        const auto& link = platform.edges()[e];
        out_load[static_cast<size_t>(link.from)] += costs.edge_time[e];
        in_load[static_cast<size_t>(link.to)] += costs.edge_time[e];
      }
    }
    for (size_t v = 0; v < n; ++v) result.node_period[v] = std::max(out_load[v], in_load[v]);
  } else {
    std::vector<int> sends(n, 0);
    std::vector<double> longest(n, 0.0);
    std::vector<double> link_busy(platform.edges().size(), 0.0);
    for (const auto& edge : tree.edges) {
      for (auto e : edge.route) {
        auto from = static_cast<size_t>(platform.edges()[e].from);
        ++sends[from];
        link_busy[e] += costs.edge_time[e];
        longest[from] = std::max(longest[from], link_busy[e]);
      }
    }
    for (size_t v = 0; v < n; ++v) result.node_period[v] = std::max(sends[v] * costs.send_time[v], longest[v]);
  }
  for (size_t v = 0; v < n; ++v) {
    if (result.node_period[v] > result.period) {
      result.period = result.node_period[v];
      result.bottleneck = static_cast<ProcessorIndex>(v);
    }
  }
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
