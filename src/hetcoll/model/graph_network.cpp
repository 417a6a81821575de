#include "hetcoll/model/graph_network.h"
#include "hetcoll/model/shortest_paths.h"

#include <algorithm>
#include <functional>
#include <map>
#include <queue>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

namespace {
constexpr std::uint8_t kWanted = 1;
constexpr std::uint8_t kSettled = 2;

}  // namespace

RouteFinder::RouteFinder(const Platform& platform, const std::vector<double>& edge_costs)
    : platform_(platform),
      edge_costs_(edge_costs),
      distance_(static_cast<std::size_t>(platform.size()), kNoRoute),
      parent_edge_(static_cast<std::size_t>(platform.size()), SIZE_MAX),
      mark_(static_cast<std::size_t>(platform.size()), 0) {}

std::vector<std::optional<Route>> RouteFinder::routes_from(ProcessorIndex source,
                                                           std::span<const ProcessorIndex> targets) {
  std::vector<std::optional<Route>> routes(targets.size());
  std::size_t pending = 0;
  for (std::size_t k = 0; k < targets.size(); ++k) {
    const ProcessorIndex target = targets[k];
    if (target == source) {
      routes[k] = Route{};
    } else if (auto declared = platform_.declared_route(source, target)) {
      routes[k] = std::move(declared);
    } else if (auto direct = cheapest_direct_edge(platform_, source, target, edge_costs_)) {
      routes[k] = Route{*direct};
    } else {
      auto& mark = mark_[static_cast<std::size_t>(target)];
      if (!(mark & kWanted)) {
        mark |= kWanted;
        ++pending;
        touched_.push_back(target);
      }
    }
  }
  if (pending > 0) {
    // Dijkstra as shortest_paths.h runs it (every node may relay), stopped
    // once every wanted node is settled.
    using Entry = std::pair<double, ProcessorIndex>;  // (distance, node): ties settle the lower index first
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    distance_[static_cast<std::size_t>(source)] = 0;
    touched_.push_back(source);
    queue.emplace(0.0, source);
    while (!queue.empty() && pending > 0) {
      auto [distance, v] = queue.top();
      queue.pop();
      auto vi = static_cast<std::size_t>(v);
      if (mark_[vi] & kSettled) continue;
      mark_[vi] |= kSettled;
      if (mark_[vi] & kWanted) --pending;
      for (std::size_t e : platform_.out_edges(v)) {
        const double cost = edge_costs_[e];
        if (!(cost < kNoRoute)) continue;
        const auto wi = static_cast<std::size_t>(platform_.edges()[e].to);
        if (mark_[wi] & kSettled) continue;
        const double candidate = distance + cost;
        if (candidate < distance_[wi]) {
          if (distance_[wi] == kNoRoute) touched_.push_back(static_cast<ProcessorIndex>(wi));
          distance_[wi] = candidate;
          parent_edge_[wi] = e;
          queue.emplace(candidate, static_cast<ProcessorIndex>(wi));
        }
      }
    }
    for (std::size_t k = 0; k < targets.size(); ++k) {
      const auto ti = static_cast<std::size_t>(targets[k]);
      if (routes[k] || !(mark_[ti] & kSettled) || targets[k] == source) continue;
      Route route;
      for (ProcessorIndex v = targets[k]; v != source;) {
        const std::size_t e = parent_edge_[static_cast<std::size_t>(v)];
        route.push_back(e);
        v = platform_.edges()[e].from;
      }
      std::reverse(route.begin(), route.end());
      routes[k] = std::move(route);
    }
  }
  for (auto v : touched_) {
    auto vi = static_cast<std::size_t>(v);
    distance_[vi] = kNoRoute;
    parent_edge_[vi] = SIZE_MAX;
    mark_[vi] = 0;
  }
  touched_.clear();
  return routes;
}

GraphNetwork::GraphNetwork(const Platform& platform, std::optional<double> message_size, OnePortRule rule)
    : platform_(&platform), message_size_(message_size), rule_(rule) {
  edge_costs_ = platform.edge_costs(message_size);
  participants_ = platform.participants();
  for (auto v : participants_) {
    if (platform.node(v).speed) has_computation_ = true;
    if (!one_port(v)) all_one_port_ = false;
  }
  for (std::size_t e = 0; e < edge_costs_.size(); ++e) {
    const auto& edge = platform.edges()[e];
    if (edge_costs_[e] > 0) smallest_edge_cost_ = std::min(smallest_edge_cost_, edge_costs_[e]);
    if (!platform.node(edge.from).router) smallest_send_cost_ = std::min(smallest_send_cost_, edge_costs_[e]);
    if (!platform.node(edge.to).router) smallest_receive_cost_ = std::min(smallest_receive_cost_, edge_costs_[e]);
  }
  if (smallest_edge_cost_ == kNoRoute) smallest_edge_cost_ = 1;  // nothing costs anything: any scale will do
}

double GraphNetwork::route_time(std::span<const std::size_t> route) const {
  if (route.empty()) return kNoRoute;
  return platform_->route_time(route, {}, message_size_);
}

std::optional<Route> GraphNetwork::route(ProcessorIndex from, ProcessorIndex to) const {
  RouteFinder finder = route_finder();
  const ProcessorIndex targets[] = {to};
  return std::move(finder.routes_from(from, targets).front());
}

void GraphNetwork::held_ports(ProcessorIndex from, ProcessorIndex to, std::span<const std::size_t> route,
                              std::vector<PortId>& out) const {
  if (one_port(from)) out.push_back(send_port(from));
  if (one_port(to)) out.push_back(receive_port(to));
  for (std::size_t k = 0; k + 1 < route.size(); ++k) {
    const ProcessorIndex inner = platform_->edges()[route[k]].to;
    if (!one_port(inner)) continue;
    out.push_back(receive_port(inner));
    if (rule_ == OnePortRule::bidirectional) out.push_back(send_port(inner));
  }
}

std::string GraphNetwork::describe_port(PortId port) const {
  const auto node = static_cast<ProcessorIndex>(port / 2);
  const std::string& id = platform_->id(node);
  const auto kind = platform_->node(node).kind;
  const std::string what = is_participant(node) ? std::string()
                           : fmt::format(" (a one-port {})", kind == NodeKind::host ? "router" : to_string(kind));
  if (rule_ == OnePortRule::unidirectional) return id + what;
  return fmt::format("{}'s {} port{}", id, port % 2 == 0 ? "send" : "receive", what);
}

double GraphNetwork::combine_time(ProcessorIndex v) const {
  const auto& speed = platform_->node(v).speed;
  return speed ? 1.0 / *speed : 0.0;
}

double GraphNetwork::smallest_out_cost(ProcessorIndex v) const {
  double best = kNoRoute;
  for (auto e : platform_->out_edges(v)) best = std::min(best, edge_costs_[e]);
  return best;
}

double GraphNetwork::smallest_in_cost(ProcessorIndex v) const {
  double best = kNoRoute;
  for (auto e : platform_->in_edges(v)) best = std::min(best, edge_costs_[e]);
  return best;
}

namespace {

// The hub routes of every member when all of them share one group (and the
// matrix can be kept as halves), else nothing.
std::optional<std::vector<HubRoute>> common_hub_routes(const Platform& platform,
                                                       const std::vector<ProcessorIndex>& members) {
  if (members.size() < 2 || !platform.has_declared_routes()) return std::nullopt;
  std::vector<HubRoute> halves;
  halves.reserve(members.size());
  for (auto v : members) {
    auto half = platform.hub_route(v);
    if (!half || (!halves.empty() && half->group != halves.front().group)) return std::nullopt;
    halves.push_back(std::move(*half));
  }
  return halves;
}

}  // namespace

RouteMatrix::RouteMatrix(const GraphNetwork& network, std::vector<ProcessorIndex> members, bool reversed)
    : members_(std::move(members)), reversed_(reversed) {
  const std::size_t k = members_.size();
  for (auto v : members_) {
    if (v < 0 || v >= network.node_count() || !network.is_participant(v)) {
      throw InputError(fmt::format("route matrix: node {} is not a participant", v));
    }
  }
  index_.reserve(k);
  for (std::size_t i = 0; i < k; ++i) index_.emplace_back(members_[i], i);
  std::sort(index_.begin(), index_.end());
  cost_.assign(k * k, kNoRoute);
  for (std::size_t i = 0; i < k; ++i) cost_[i * k + i] = 0;  // a member reaches itself at no cost, holding nothing

  if (auto halves = common_hub_routes(network.platform(), members_)) {
    // Route i -> j = up(i) followed by down(j) for i != j (Platform::route
    // takes the declared route first): its inner nodes are the heads of
    // up(i)'s edges and of down(j)'s but the last (GraphNetwork::held_ports).
    hub_ = true;
    joined_ = std::make_unique<std::once_flag>();
    const Platform& platform = network.platform();
    up_.resize(k);
    down_.resize(k);
    out_ports_.resize(k);
    in_ports_.resize(k);
    sends_first_.assign(k, 0);
    receives_first_.assign(k, 0);
    auto inner = [&](ProcessorIndex node, std::vector<PortId>& out) {
      if (!network.one_port(node)) return;
      out.push_back(network.receive_port(node));
      if (network.one_port_rule() == OnePortRule::bidirectional) out.push_back(network.send_port(node));
    };
    for (std::size_t i = 0; i < k; ++i) {
      HubRoute& half = (*halves)[i];
      const ProcessorIndex v = members_[i];
      if (network.one_port(v)) {
        out_ports_[i].push_back(network.send_port(v));
        in_ports_[i].push_back(network.receive_port(v));
        sends_first_[i] = receives_first_[i] = 1;
      }
      for (std::size_t e : half.up) inner(platform.edges()[e].to, out_ports_[i]);
      for (std::size_t s = 0; s + 1 < half.down.size(); ++s) inner(platform.edges()[half.down[s]].to, in_ports_[i]);
      up_[i] = std::move(half.up);
      down_[i] = std::move(half.down);
    }
    // A route's time depends only on its edges' attributes in travel order:
    // halves with the same attributes form a class, and the time of a pair
    // is its classes' (route_time of the joined route, bit for bit).
    auto classes_of = [&](const std::vector<Route>& halves, std::vector<std::size_t>& representative) {
      std::map<std::vector<double>, std::size_t> seen;
      std::vector<std::size_t> class_of(k);
      std::vector<double> key;
      for (std::size_t i = 0; i < k; ++i) {
        key.clear();
        for (std::size_t e : halves[i]) {
          const PlatformEdge& edge = platform.edges()[e];
          if (edge.cost) {
            key.insert(key.end(), {0.0, *edge.cost, 0.0});
          } else {
            key.insert(key.end(), {1.0, edge.latency.value_or(0.0), *edge.bandwidth});
          }
        }
        auto [it, inserted] = seen.emplace(key, representative.size());
        if (inserted) representative.push_back(i);
        class_of[i] = it->second;
      }
      return class_of;
    };
    std::vector<std::size_t> up_representative, down_representative;
    const auto up_class = classes_of(up_, up_representative);
    const auto down_class = classes_of(down_, down_representative);
    const std::size_t downs = down_representative.size();
    std::vector<double> class_time(up_representative.size() * downs);
    for (std::size_t a = 0; a < up_representative.size(); ++a) {
      for (std::size_t b = 0; b < downs; ++b) {
        class_time[a * downs + b] =
            platform.route_time(up_[up_representative[a]], down_[down_representative[b]], network.message_size());
      }
    }
    for (std::size_t i = 0; i < k; ++i) {
      const double* row = class_time.data() + up_class[i] * downs;
      for (std::size_t j = 0; j < k; ++j) {
        if (i == j) continue;
        // Forward: entry i -> j is the platform transfer i -> j. Reversed:
        // entry j -> i stands for it.
        cost_[reversed_ ? j * k + i : i * k + j] = row[down_class[j]];
      }
    }
    uniform_ = std::all_of(class_time.begin(), class_time.end(), [&](double t) { return t == class_time.front(); });
    return;
  }

  const RouteTableEstimate estimate = estimate_route_table(network, members_);
  if (estimate.bytes > kMaxRouteTableBytes) {
    throw LimitError(fmt::format(
        "the routes between {} participants cross {:.0f} links on average: a route table of about {:.1f} GB, above "
        "the {:.0f} GB a flat graph planner keeps (plan on the sender-speed view, or give the platform routers that "
        "shorten its routes)",
        k, estimate.hops / std::max<double>(1.0, static_cast<double>(k) * static_cast<double>(k - 1)),
        estimate.bytes / 1e9, kMaxRouteTableBytes / 1e9));
  }
  // One route search per member, written straight into the pools (no k^2
  // route vectors alive at once).
  edge_begin_.assign(k * k, 0);
  port_begin_.assign(k * k, 0);
  edge_count_.assign(k * k, 0);
  port_count_.assign(k * k, 0);
  edge_pool_.reserve(static_cast<std::size_t>(estimate.hops * 1.05) + k);
  RouteFinder finder = network.route_finder();
  std::vector<PortId> ports;
  for (std::size_t i = 0; i < k; ++i) {
    const auto found = finder.routes_from(members_[i], members_);
    for (std::size_t j = 0; j < k; ++j) {
      if (i == j || !found[j]) continue;
      // Forward: entry i -> j is the platform transfer i -> j. Reversed:
      // entry j -> i stands for it.
      const std::size_t entry = reversed_ ? j * k + i : i * k + j;
      const Route& route = *found[j];
      cost_[entry] = network.route_time(route);
      if (!(cost_[entry] < kNoRoute)) continue;
      edge_begin_[entry] = edge_pool_.size();
      edge_count_[entry] = static_cast<std::uint32_t>(route.size());
      edge_pool_.insert(edge_pool_.end(), route.begin(), route.end());
      ports.clear();
      network.held_ports(members_[i], members_[j], route, ports);
      port_begin_[entry] = port_pool_.size();
      port_count_[entry] = static_cast<std::uint32_t>(ports.size());
      port_pool_.insert(port_pool_.end(), ports.begin(), ports.end());
    }
  }
  uniform_ = k >= 2 && cost_[1] < kNoRoute;
  for (std::size_t entry = 0; entry < k * k && uniform_; ++entry) {
    if (entry / k != entry % k && cost_[entry] != cost_[1]) uniform_ = false;
  }
}

RouteTableEstimate estimate_route_table(const GraphNetwork& network, const std::vector<ProcessorIndex>& members) {
  RouteTableEstimate estimate;
  const std::size_t k = members.size();
  if (k < 2) return estimate;
  if (common_hub_routes(network.platform(), members)) {
    estimate.through_hub = true;
    return estimate;
  }
  constexpr std::size_t kSampled = 16;
  const std::size_t sampled = std::min(k, kSampled);
  RouteFinder finder = network.route_finder();
  double hops = 0;
  for (std::size_t s = 0; s < sampled; ++s) {
    const std::size_t i = s * k / sampled;
    for (const auto& route : finder.routes_from(members[i], members)) {
      if (route) hops += static_cast<double>(route->size());
    }
  }
  const double pairs = static_cast<double>(k) * static_cast<double>(k);
  estimate.hops = hops * static_cast<double>(k) / static_cast<double>(sampled);
  // Per hop: its edge (8 bytes) and up to two ports (4 bytes each); per
  // pair: its cost, offsets and counts.
  estimate.bytes = estimate.hops * 16 + pairs * 32;
  estimate.seconds = estimate.bytes / kRouteTableBytesPerSecond;
  return estimate;
}

void RouteMatrix::join() const {
  // The pools of the hub matrix's routes, in the order the general
  // constructor writes them (ports as GraphNetwork::held_ports lists them:
  // sender, receiver, then the inner nodes in travel order).
  const std::size_t k = members_.size();
  edge_begin_.assign(k * k, 0);
  port_begin_.assign(k * k, 0);
  edge_count_.assign(k * k, 0);
  port_count_.assign(k * k, 0);
  for (std::size_t entry = 0; entry < k * k; ++entry) {
    edge_begin_[entry] = edge_pool_.size();
    port_begin_[entry] = port_pool_.size();
    const std::size_t from = entry / k, to = entry % k;
    if (from == to) continue;
    const std::size_t sender = reversed_ ? to : from, receiver = reversed_ ? from : to;
    edge_pool_.insert(edge_pool_.end(), up_[sender].begin(), up_[sender].end());
    edge_pool_.insert(edge_pool_.end(), down_[receiver].begin(), down_[receiver].end());
    const auto& out = out_ports_[sender];
    const auto& in = in_ports_[receiver];
    if (sends_first_[sender]) port_pool_.push_back(out.front());
    if (receives_first_[receiver]) port_pool_.push_back(in.front());
    port_pool_.insert(port_pool_.end(), out.begin() + sends_first_[sender], out.end());
    port_pool_.insert(port_pool_.end(), in.begin() + receives_first_[receiver], in.end());
    edge_count_[entry] = static_cast<std::uint32_t>(edge_pool_.size() - edge_begin_[entry]);
    port_count_[entry] = static_cast<std::uint32_t>(port_pool_.size() - port_begin_[entry]);
  }
}

std::span<const std::size_t> RouteMatrix::edges(std::size_t from, std::size_t to) const {
  if (hub_) std::call_once(*joined_, [this] { join(); });
  const std::size_t entry = from * members_.size() + to;
  return {edge_pool_.data() + edge_begin_[entry], edge_count_[entry]};
}

std::span<const PortId> RouteMatrix::ports(std::size_t from, std::size_t to) const {
  if (hub_) std::call_once(*joined_, [this] { join(); });
  const std::size_t entry = from * members_.size() + to;
  return {port_pool_.data() + port_begin_[entry], port_count_[entry]};
}

RouteMatrix::Parts<std::size_t> RouteMatrix::route_parts(std::size_t from, std::size_t to) const {
  if (!hub_) return {edges(from, to), {}};
  if (from == to) return {};
  const std::size_t sender = reversed_ ? to : from, receiver = reversed_ ? from : to;
  return {up_[sender], down_[receiver]};
}

RouteMatrix::Parts<PortId> RouteMatrix::port_parts(std::size_t from, std::size_t to) const {
  if (!hub_) return {ports(from, to), {}};
  if (from == to) return {};
  // Reversed: the platform transfer to -> from, `from` receiving.
  if (reversed_) return {in_ports_[from], out_ports_[to]};
  return {out_ports_[from], in_ports_[to]};
}

std::size_t RouteMatrix::index_of(ProcessorIndex node) const {
  auto it = std::lower_bound(index_.begin(), index_.end(), std::pair<ProcessorIndex, std::size_t>{node, 0});
  return it != index_.end() && it->first == node ? it->second : npos;
}

}  // namespace hetcoll
