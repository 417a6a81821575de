#include "hetcoll/model/eager_model.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

namespace {

// eager_cost as a fold over a route's edges in travel order: the state after
// a prefix of the route. Continuing a state over the rest of the route does
// the same floating-point operations, in the same order, as one pass over
// the whole route, so a cost built from a route's halves equals eager_cost
// of the joined route bit for bit.
struct EagerFold {
  double fixed = 0, latency = 0;
  double narrowest = std::numeric_limits<double>::infinity();

  void add(const PlatformEdge& edge) {
    if (edge.cost) {
      fixed += *edge.cost;
    } else {
      latency += edge.latency.value_or(0.0);
      narrowest = std::min(narrowest, *edge.bandwidth);
    }
  }
  void add(const Platform& platform, std::span<const std::size_t> route) {
    for (std::size_t e : route) add(platform.edges()[e]);
  }
  EagerCost cost(const GraphNetwork& network) const {
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
};

}  // namespace

EagerCost eager_cost(const GraphNetwork& network, std::span<const std::size_t> route) {
  EagerFold fold;
  fold.add(network.platform(), route);
  return fold.cost(network);
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
  const Platform& platform = network.platform();
  auto record = [&](std::size_t i, std::size_t j, const EagerCost& cost) {
    cost_[i * k + j] = cost;
    smallest_occupancy_ = std::min(smallest_occupancy_, cost.occupancy);
    smallest_delay_ = std::min(smallest_delay_, cost.delay);
  };

  // Pairs that meet at a hub (the hosts of one SimGrid <cluster>,
  // PlatformRouting::hub_route): the route i -> j is i's half up to the hub
  // followed by j's half down from it, so its cost is the fold of i's up
  // half continued over j's down half. Members whose up halves end in the
  // same fold state and members whose down halves have the same edge
  // attributes form classes; a pair's cost is its two classes' cost, worked
  // out once per pair of classes that occurs (O(k) route halves and O(k²)
  // copies instead of k² route searches).
  std::vector<std::uint64_t> group(k);
  std::vector<char> in_group(k, 0);
  std::vector<std::size_t> up_class(k), down_class(k);
  std::vector<EagerFold> up_fold;
  std::vector<Route> down_half;
  if (k >= 2 && platform.has_declared_routes()) {
    std::map<std::tuple<std::uint64_t, double, double, double>, std::size_t> up_classes;
    std::map<std::pair<std::uint64_t, std::vector<double>>, std::size_t> down_classes;
    std::vector<double> key;
    for (std::size_t i = 0; i < k; ++i) {
      auto half = platform.hub_route(members_[i]);
      if (!half) continue;
      in_group[i] = 1;
      group[i] = half->group;
      EagerFold fold;
      fold.add(platform, half->up);
      auto [up, new_up] =
          up_classes.try_emplace({half->group, fold.fixed, fold.latency, fold.narrowest}, up_fold.size());
      if (new_up) up_fold.push_back(fold);
      up_class[i] = up->second;
      key.clear();
      for (std::size_t e : half->down) {
        const PlatformEdge& edge = platform.edges()[e];
        if (edge.cost) {
          key.insert(key.end(), {0.0, *edge.cost, 0.0});
        } else {
          key.insert(key.end(), {1.0, edge.latency.value_or(0.0), *edge.bandwidth});
        }
      }
      auto [down, new_down] = down_classes.try_emplace({half->group, key}, down_half.size());
      if (new_down) down_half.push_back(std::move(half->down));
      down_class[i] = down->second;
    }
  }
  auto meet_at_hub = [&](std::size_t i, std::size_t j) {
    return in_group[i] && in_group[j] && group[i] == group[j];
  };

  const std::size_t downs = down_half.size();
  std::vector<EagerCost> class_cost(up_fold.size() * downs);
  std::vector<char> class_done(class_cost.size(), 0);
  RouteFinder finder = network.route_finder();
  std::vector<ProcessorIndex> targets;
  std::vector<std::size_t> target_index;
  for (std::size_t i = 0; i < k; ++i) {
    targets.clear();
    target_index.clear();
    for (std::size_t j = 0; j < k; ++j) {
      if (members_[i] == members_[j]) continue;  // (a member listed twice reaches itself: no transfer)
      if (meet_at_hub(i, j)) {
        const std::size_t c = up_class[i] * downs + down_class[j];
        if (!class_done[c]) {
          EagerFold fold = up_fold[up_class[i]];
          fold.add(platform, down_half[down_class[j]]);
          class_cost[c] = fold.cost(network);
          class_done[c] = 1;
        }
        record(i, j, class_cost[c]);
      } else {
        targets.push_back(members_[j]);
        target_index.push_back(j);
      }
    }
    if (targets.empty()) continue;
    // The others: the platform's routes, one search per member.
    auto routes = finder.routes_from(members_[i], targets);
    for (std::size_t t = 0; t < targets.size(); ++t) {
      if (!routes[t] || routes[t]->empty()) continue;
      record(i, target_index[t], eager_cost(network, *routes[t]));
    }
  }
}

EagerMatrix EagerMatrix::transposed() && {
  const std::size_t k = members_.size();
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = i + 1; j < k; ++j) std::swap(cost_[i * k + j], cost_[j * k + i]);
  }
  return std::move(*this);
}

EagerMatrix EagerMatrix::transposed() const& {
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
