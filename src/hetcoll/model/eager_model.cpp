#include "hetcoll/model/eager_model.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

EagerCost eager_cost(const GraphNetwork& network, std::span<const std::size_t> route) {
  const Platform& platform = network.platform();
  double fixed = 0, latency = 0;
  double narrowest = std::numeric_limits<double>::infinity();
  for (std::size_t e : route) {
    const PlatformEdge& edge = platform.edges()[e];
    if (edge.cost) {
      fixed += *edge.cost;
    } else {
      latency += edge.latency.value_or(0.0);
      narrowest = std::min(narrowest, *edge.bandwidth);
    }
  }
  EagerCost cost;
  cost.delay = latency;
  if (narrowest == std::numeric_limits<double>::infinity()) {
    cost.occupancy = fixed;
    return cost;
  }
  if (!network.message_size()) {
    throw InputError("message_size", "edges with latency/bandwidth need a message size in bytes to become costs");
  }
  cost.occupancy = fixed + *network.message_size() / narrowest;
  return cost;
}

EagerMatrix::EagerMatrix(const GraphNetwork& network, std::vector<ProcessorIndex> members)
    : members_(std::move(members)) {
  const std::size_t k = members_.size();
  if (k > kEagerMemberCap) {
    throw InputError("participants",
                     fmt::format("the eager model's planner keeps a cost for every pair of participants and handles at "
                                 "most {} of them; this platform has {} (make the others routers)",
                                 kEagerMemberCap, k));
  }
  cost_.assign(k * k, EagerCost{});
  RouteFinder finder = network.route_finder();
  for (std::size_t i = 0; i < k; ++i) {
    auto routes = finder.routes_from(members_[i], members_);
    for (std::size_t j = 0; j < k; ++j) {
      if (i == j || !routes[j] || routes[j]->empty()) continue;
      EagerCost cost = eager_cost(network, *routes[j]);
      cost_[i * k + j] = cost;
      smallest_occupancy_ = std::min(smallest_occupancy_, cost.occupancy);
      smallest_delay_ = std::min(smallest_delay_, cost.delay);
    }
  }
}

EagerMatrix EagerMatrix::transposed() const {
  EagerMatrix result;
  result.members_ = members_;
  result.smallest_occupancy_ = smallest_occupancy_;  // over all ordered pairs: the same set of pairs
  result.smallest_delay_ = smallest_delay_;
  const std::size_t k = members_.size();
  result.cost_.resize(cost_.size());
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) result.cost_[j * k + i] = cost_[i * k + j];
  }
  return result;
}

}  // namespace hetcoll
