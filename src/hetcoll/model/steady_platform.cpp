#include "hetcoll/model/steady_platform.h"

#include <deque>
#include <map>

#include "hetcoll/core/error.h"

namespace hetcoll {

bool SteadyPlatform::free_edge(std::size_t edge) const {
  if (cost[edge] == 0) return true;
  const auto& e = platform->edges()[edge];
  return !one_port[static_cast<std::size_t>(e.from)] && !one_port[static_cast<std::size_t>(e.to)];
}

std::optional<std::size_t> SteadyPlatform::edge_between(ProcessorIndex from, ProcessorIndex to) const {
  for (auto e : platform->out_edges(from)) {
    if (usable[e] && platform->edges()[e].to == to) return e;
  }
  return std::nullopt;
}

std::vector<char> SteadyPlatform::reachable_from(ProcessorIndex from, bool free_edges_only) const {
  std::vector<char> seen(static_cast<std::size_t>(size()), 0);
  std::deque<ProcessorIndex> queue{from};
  seen[static_cast<std::size_t>(from)] = 1;
  while (!queue.empty()) {
    const auto v = queue.front();
    queue.pop_front();
    for (auto e : platform->out_edges(v)) {
      if (!usable[e]) continue;
      if (free_edges_only && !free_edge(e)) continue;
      const auto w = platform->edges()[e].to;
      if (!seen[static_cast<std::size_t>(w)]) {
        seen[static_cast<std::size_t>(w)] = 1;
        queue.push_back(w);
      }
    }
  }
  return seen;
}

SteadyPlatform make_steady_platform(const Platform& platform, std::optional<double> message_size) {
  SteadyPlatform view;
  view.platform = &platform;
  view.message_size = message_size;
  const auto costs = platform.edge_costs(message_size);
  view.cost.reserve(costs.size());
  for (double c : costs) view.cost.push_back(rational_from_double(c));
  std::map<std::pair<ProcessorIndex, ProcessorIndex>, std::size_t> cheapest;
  view.usable.assign(costs.size(), 0);
  for (std::size_t e = 0; e < costs.size(); ++e) {
    const auto& edge = platform.edges()[e];
    if (edge.from == edge.to) continue;
    auto [it, inserted] = cheapest.try_emplace({edge.from, edge.to}, e);
    if (!inserted && view.cost[e] < view.cost[it->second]) it->second = e;
  }
  for (const auto& [pair, e] : cheapest) view.usable[e] = 1;
  for (const auto& node : platform.nodes()) {
    view.one_port.push_back(node.ports == PortModel::one_port ? 1 : 0);
    if (node.speed && !node.router) {
      view.compute_time.push_back(Rational(1) / rational_from_double(*node.speed));
    } else {
      view.compute_time.push_back(std::nullopt);
    }
  }
  return view;
}

void require_participant(const Platform& platform, ProcessorIndex node, const std::string& role) {
  const auto& n = platform.node(node);
  if (n.kind != NodeKind::host) {
    throw InputError(role + ": " + n.id + " is a network element (" + std::string(to_string(n.kind)) +
                     "), not a host: it forwards messages but cannot take part");
  }
  if (n.router) {
    throw InputError(role + ": " + n.id + " is not a participant (a router: it forwards messages but holds no data)");
  }
}

}  // namespace hetcoll
