#include "hetcoll/verify/verify_tree.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

namespace hetcoll {
namespace {

struct Violations {
  VerifyReport& report;
  template <typename... Args>
  void add(fmt::format_string<Args...> format, Args&&... args) {
    report.add_violation(fmt::format(format, std::forward<Args>(args)...));
  }
};

}  // namespace

VerifyReport verify_broadcast_tree(const Platform& platform, const BroadcastTree& tree, const TreeCosts& costs,
                                   double claimed_period) {
  VerifyReport report;
  Violations violations{report};
  const auto n = static_cast<std::size_t>(platform.size());
  const auto m = platform.edges().size();
  if (tree.source < 0 || tree.source >= platform.size()) {
    violations.add("the source is not a node of the platform");
    return report;
  }
  if (platform.node(tree.source).router) violations.add("the source {} is a router", platform.id(tree.source));
  if (costs.edge_time.size() != m || costs.send_time.size() != n) {
    violations.add("the slice times do not match the platform");
    return report;
  }

  std::vector<std::vector<ProcessorIndex>> children(n);
  std::vector<int> parents(n, 0);
  std::vector<long long> uses(m, 0);
  for (std::size_t i = 0; i < tree.edges.size(); ++i) {
    const auto& edge = tree.edges[i];
    if (edge.from < 0 || edge.from >= platform.size() || edge.to < 0 || edge.to >= platform.size()) {
      violations.add("tree edge {} names an unknown node", i);
      continue;
    }
    const auto& from = platform.id(edge.from);
    const auto& to = platform.id(edge.to);
    if (edge.route.empty()) violations.add("tree edge {} -> {} has no route", from, to);
    ProcessorIndex at = edge.from;
    bool route_ok = !edge.route.empty();
    for (auto e : edge.route) {
      if (e >= m || platform.edges()[e].from != at) {
        route_ok = false;
        break;
      }
      at = platform.edges()[e].to;
      ++uses[e];
    }
    if (!edge.route.empty() && (!route_ok || at != edge.to)) {
      violations.add("the route of tree edge {} -> {} is not a path of platform edges from {} to {}", from, to,
                     from, to);
    }
    if (edge.to == tree.source) violations.add("tree edge {} -> {} enters the source", from, to);
    if (++parents[static_cast<std::size_t>(edge.to)] == 2) violations.add("node {} has two parents", to);
    children[static_cast<std::size_t>(edge.from)].push_back(edge.to);
  }

  // Spanning and acyclic: a walk from the source meets each node once.
  std::vector<char> reached(n, 0);
  std::vector<ProcessorIndex> stack{tree.source};
  reached[static_cast<std::size_t>(tree.source)] = 1;
  while (!stack.empty()) {
    auto u = stack.back();
    stack.pop_back();
    for (auto v : children[static_cast<std::size_t>(u)]) {
      if (reached[static_cast<std::size_t>(v)]) {
        violations.add("node {} is reached twice (a cycle or a second parent)", platform.id(v));
        continue;
      }
      reached[static_cast<std::size_t>(v)] = 1;
      stack.push_back(v);
    }
  }
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    if (!reached[static_cast<std::size_t>(v)] && !platform.node(v).router) {
      violations.add("participant {} does not receive the broadcast", platform.id(v));
    }
    if (!reached[static_cast<std::size_t>(v)] && parents[static_cast<std::size_t>(v)] > 0) {
      violations.add("node {} hangs off a part of the tree the source does not reach", platform.id(v));
    }
  }

  // The period from per-edge use counts.
  std::vector<double> sent(n, 0.0), received(n, 0.0), busiest_link(n, 0.0), busiest_in(n, 0.0);
  std::vector<long long> sends(n, 0);
  for (std::size_t e = 0; e < m; ++e) {
    if (uses[e] == 0) continue;
    auto from = static_cast<std::size_t>(platform.edges()[e].from);
    auto to = static_cast<std::size_t>(platform.edges()[e].to);
    double busy = static_cast<double>(uses[e]) * costs.edge_time[e];
    sent[from] += busy;
    received[to] += busy;
    sends[from] += uses[e];
    busiest_link[from] = std::max(busiest_link[from], busy);
    busiest_in[to] = std::max(busiest_in[to], busy);
  }
  double period = 0;
  for (std::size_t v = 0; v < n; ++v) {
    // A node with unlimited ports (a switch) serialises nothing: only its links.
    bool unlimited = platform.node(static_cast<ProcessorIndex>(v)).ports == PortModel::unlimited;
    double node = unlimited ? std::max(busiest_link[v], busiest_in[v])
                : costs.model == BroadcastModel::one_port
                      ? std::max(sent[v], received[v])
                      : std::max(static_cast<double>(sends[v]) * costs.send_time[v], busiest_link[v]);
    period = std::max(period, node);
  }
  report.measured_makespan = period;
  if (claimed_period > 0 && std::fabs(claimed_period - period) > 1e-9 * period) {
    violations.add("the claimed period {} differs from the period of the tree, {}", claimed_period, period);
  }
  return report;
}

}  // namespace hetcoll

namespace hetcoll {

}  // namespace hetcoll
