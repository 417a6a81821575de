#include "hetcoll/model/flow_network.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/graph_network.h"

namespace hetcoll {

FlowNetwork::FlowNetwork(const Platform& platform, std::vector<ProcessorIndex> members, double tcp_gamma)
    : members_(std::move(members)) {
  const std::size_t k = members_.size();
  // Message size 1: only the routes are read here, not their times.
  const GraphNetwork network(platform, 1.0);
  const RouteMatrix routes(network, members_);
  // Resource of an edge: its link node when it enters a shared link, else itself.
  std::unordered_map<std::uint64_t, std::uint32_t> resource_of;
  auto resource = [&](std::uint64_t key, double bandwidth) {
    auto [it, inserted] = resource_of.emplace(key, static_cast<std::uint32_t>(capacity_.size()));
    if (inserted) capacity_.push_back(bandwidth);
    return it->second;
  };
  const auto infinity = std::numeric_limits<double>::infinity();
  paths_.resize(k * k);
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      Path& path = paths_[i * k + j];
      path.rate_bound = infinity;
      if (i == j) continue;
      if (!routes.connected(i, j)) {
        throw InputError("members", fmt::format("no route from {} to {}", platform.id(members_[i]),
                                                platform.id(members_[j])));
      }
      auto parts = routes.route_parts(i, j);
      for (auto edges : {parts.first, parts.second}) {
        for (std::size_t e : edges) {
          const PlatformEdge& edge = platform.edges()[e];
          if (edge.cost) path.latency += *edge.cost;
          if (edge.latency) path.latency += *edge.latency;
          if (!edge.bandwidth) continue;
          path.rate_bound = std::min(path.rate_bound, *edge.bandwidth);
          const PlatformNode& head = platform.node(edge.to);
          std::uint32_t id = 0;
          if (head.kind == NodeKind::link) {
            if (head.ports == PortModel::unlimited) continue;  // FATPIPE: a bound, not shared
            id = resource(static_cast<std::uint64_t>(edge.to), *edge.bandwidth);
          } else {
            id = resource((std::uint64_t{1} << 63) | e, *edge.bandwidth);
          }
          if (std::find(path.resources.begin(), path.resources.end(), id) == path.resources.end()) {
            path.resources.push_back(id);
          }
        }
      }
      if (path.latency > 0 && tcp_gamma > 0) path.rate_bound = std::min(path.rate_bound, tcp_gamma / (2 * path.latency));
    }
  }
}

double FlowNetwork::alone_time(std::size_t from, std::size_t to, double bytes) const {
  if (from == to) return 0;
  const Path& p = path(from, to);
  return p.latency + (bytes > 0 ? bytes / p.rate_bound : 0);
}

}  // namespace hetcoll
