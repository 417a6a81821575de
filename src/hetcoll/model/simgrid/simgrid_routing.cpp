// SimGrid's routing on the imported network (simgrid_network.h): the
// hierarchical algorithm over the zones' local routes (simgrid_zone_routes.cpp).
//
// The hierarchical algorithm is SimGrid's (NetZoneImpl::get_global_route, as
// in SimGrid 3.32): find the zone where the two ancestries meet, check its
// bypass routes, take its local route between the two children (or end
// points) and recurse from the source to that route's source gateway and
// from its destination gateway to the destination. Each recursion goes
// strictly deeper (gateways lie inside the children, checked when reading),
// so the depth is bounded by the zone nesting.
#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <queue>
#include <stdexcept>
#include <unordered_set>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/simgrid/simgrid_network.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"

namespace hetcoll::simgrid {

std::uint64_t pair_key(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) | static_cast<std::uint32_t>(b);
}

bool append_path(Path& path, const Path& segment) {
  if (segment.empty()) return true;
  if (path.empty()) {
    path = segment;
    return true;
  }
  if (path.back() != segment.front()) return false;
  path.insert(path.end(), segment.begin() + 1, segment.end());
  return true;
}

bool EdgeSet::add(ElementId from, ElementId to, double extra) {
  if (from == to) return true;  // a route never stays on one element
  auto [it, inserted] = index.emplace(pair_key(from, to), pairs.size());
  if (!inserted) return extra_latency[it->second] == extra;
  pairs.emplace_back(from, to);
  extra_latency.push_back(extra);
  return true;
}

void EdgeSet::add_path(const Path& path) {
  for (std::size_t k = 1; k < path.size(); ++k) add(path[k - 1], path[k]);
}
// ---------------------------------------------------------------- routing ---

namespace {
// Recursion guard against malformed hierarchies: real ones recurse once per
// nesting level, twice for Floyd chains through gateways.
constexpr int kMaxRouteDepth = 4 * 64;
}  // namespace

SimgridRouting::SimgridRouting(std::shared_ptr<const Network> network, std::vector<ProcessorIndex> node_of,
                               std::unordered_map<std::uint64_t, std::size_t> edge_of)
    : network_(std::move(network)), node_of_(std::move(node_of)) {
  ProcessorIndex nodes = 0;
  for (ProcessorIndex node : node_of_) nodes = std::max(nodes, node + 1);
  netpoint_of_node_.assign(static_cast<std::size_t>(nodes), -1);
  for (std::size_t p = 0; p < network_->netpoints.size(); ++p) {
    ElementId element = network_->netpoints[p].element;
    if (element != kNoElement) {
      netpoint_of_node_[static_cast<std::size_t>(node_of_[static_cast<std::size_t>(element)])] = static_cast<int>(p);
    }
  }
  std::vector<std::pair<std::uint64_t, std::size_t>> sorted(edge_of.begin(), edge_of.end());
  std::sort(sorted.begin(), sorted.end());
  first_edge_.assign(static_cast<std::size_t>(nodes) + 1, 0);
  for (auto [key, edge] : sorted) ++first_edge_[(key >> 32) + 1];
  for (std::size_t v = 0; v < static_cast<std::size_t>(nodes); ++v) first_edge_[v + 1] += first_edge_[v];
  for (auto [key, edge] : sorted) {
    heads_.push_back(static_cast<ProcessorIndex>(key & 0xffffffffU));
    edges_.push_back(edge);
  }
  const std::size_t netpoints = network_->netpoints.size();
  cache_from_host_.resize(netpoints);
  cache_to_host_.resize(netpoints);
  cache_between_routers_.resize(netpoints);
  for (const Zone& zone : network_->zones) {
    for (auto [routes, trails] : {std::pair{&zone.routes, &route_trails_}, std::pair{&zone.bypass_routes, &bypass_trails_}}) {
      trails->emplace_back();
      for (const DeclaredRoute& route : *routes) {
        auto trail = trail_of(route.path);
        if (!trail) throw std::logic_error("simgrid routing: a declared route is not a path of the graph");
        trails->back().push_back(std::move(*trail));
      }
    }
  }
}

std::optional<std::size_t> SimgridRouting::edge_between(ProcessorIndex from, ProcessorIndex to) const {
  auto begin = heads_.begin() + static_cast<std::ptrdiff_t>(first_edge_[static_cast<std::size_t>(from)]);
  auto end = heads_.begin() + static_cast<std::ptrdiff_t>(first_edge_[static_cast<std::size_t>(from) + 1]);
  auto found = std::lower_bound(begin, end, to);
  if (found == end || *found != to) return std::nullopt;
  return edges_[static_cast<std::size_t>(found - heads_.begin())];
}

namespace {
// Appends `segment` to `trail`; they must meet.
bool extend(Trail& trail, const Trail& segment) {
  if (segment.start == kNoProcessor) return true;
  if (trail.start == kNoProcessor) {
    trail = segment;
    return true;
  }
  if (trail.end != segment.start) return false;
  trail.edges.insert(trail.edges.end(), segment.edges.begin(), segment.edges.end());
  trail.end = segment.end;
  return true;
}
}  // namespace

std::optional<Trail> SimgridRouting::trail_of(const Path& path) const {
  Trail trail;
  if (path.empty()) return trail;
  trail.start = trail.end = node(path.front());
  trail.edges.reserve(path.size());
  for (std::size_t k = 1; k < path.size(); ++k) {
    ProcessorIndex next = node(path[k]);
    auto edge = edge_between(trail.end, next);
    if (!edge) return std::nullopt;
    trail.edges.push_back(*edge);
    trail.end = next;
  }
  return trail;
}

std::optional<Route> SimgridRouting::declared_route(ProcessorIndex from, ProcessorIndex to) const {
  if (from < 0 || to < 0 || static_cast<std::size_t>(from) >= netpoint_of_node_.size() ||
      static_cast<std::size_t>(to) >= netpoint_of_node_.size()) {
    return std::nullopt;
  }
  int source = netpoint_of_node_[static_cast<std::size_t>(from)];
  int destination = netpoint_of_node_[static_cast<std::size_t>(to)];
  if (source < 0 || destination < 0 || source == destination) return std::nullopt;
  Trail trail;
  if (!append_route(trail, source, destination, 0)) return std::nullopt;
  return std::move(trail.edges);
}

std::optional<HubRoute> SimgridRouting::hub_route(ProcessorIndex v) const {
  if (v < 0 || static_cast<std::size_t>(v) >= netpoint_of_node_.size()) return std::nullopt;
  const int netpoint = netpoint_of_node_[static_cast<std::size_t>(v)];
  if (netpoint < 0) return std::nullopt;
  const Network& network = *network_;
  const Netpoint& point = network.netpoints[static_cast<std::size_t>(netpoint)];
  if (point.kind != NetpointKind::host || point.zone < 0 || point.element == kNoElement) return std::nullopt;
  const Zone& zone = network.zones[static_cast<std::size_t>(point.zone)];
  // Two hosts of this zone meet in it: compute_route takes its bypass route
  // (none here) or its local route, star_path, with both hosts as gateways.
  if (zone.kind != ZoneKind::star || zone.center == kNoElement || !zone.bypass_routes.empty()) return std::nullopt;
  const StarLinks* links = star_links(zone, netpoint);
  // star_path drops from the destination's down chain the links the source's
  // up chain crossed. A link in both chains of two different members is a
  // shared link (find_shared_up_sets), so for sources whose up chains hold
  // the same shared links U, the down chain is the destination's minus U.
  std::vector<ElementId> shared;
  if (links) {
    for (ElementId link : links->up) {
      for (const auto& set : zone.shared_up_sets) {
        if (std::binary_search(set.begin(), set.end(), link)) {
          shared.push_back(link);
          break;
        }
      }
    }
  }
  std::sort(shared.begin(), shared.end());
  shared.erase(std::unique(shared.begin(), shared.end()), shared.end());
  std::size_t set_number = 0;  // 0: no shared link; else 1 + its index in shared_up_sets
  if (!shared.empty()) {
    auto found = std::find(zone.shared_up_sets.begin(), zone.shared_up_sets.end(), shared);
    if (found == zone.shared_up_sets.end()) return std::nullopt;
    set_number = 1 + static_cast<std::size_t>(found - zone.shared_up_sets.begin());
  }
  Path up{point.element};
  Path down{zone.center};
  if (links) {
    for (ElementId link : links->up) {
      if (std::find(up.begin() + 1, up.end(), link) == up.end()) up.push_back(link);
    }
    for (ElementId link : links->down) {
      if (!std::binary_search(shared.begin(), shared.end(), link) &&
          std::find(down.begin() + 1, down.end(), link) == down.end()) {
        down.push_back(link);
      }
    }
  }
  up.push_back(zone.center);
  down.push_back(point.element);
  auto up_trail = trail_of(up);
  auto down_trail = trail_of(down);
  if (!up_trail || !down_trail || up_trail->edges.empty() || down_trail->edges.empty()) return std::nullopt;
  HubRoute result;
  result.group = (static_cast<std::uint64_t>(point.zone) << 32) | set_number;
  result.up = std::move(up_trail->edges);
  result.down = std::move(down_trail->edges);
  return result;
}

std::optional<Path> SimgridRouting::netpoint_route(int source, int destination) const {
  Trail trail;
  if (!append_route(trail, source, destination, 0)) return std::nullopt;
  // Nodes back to elements: the inverse of node_of_.
  std::vector<ElementId> element_of(node_of_.size());
  for (std::size_t e = 0; e < node_of_.size(); ++e) element_of[static_cast<std::size_t>(node_of_[e])] = static_cast<ElementId>(e);
  Path path{element_of[static_cast<std::size_t>(trail.start)]};
  for (std::size_t edge : trail.edges) {
    ProcessorIndex head = kNoProcessor;
    for (std::size_t k = 0; k < edges_.size() && head == kNoProcessor; ++k) {
      if (edges_[k] == edge) head = heads_[k];
    }
    path.push_back(element_of[static_cast<std::size_t>(head)]);
  }
  return path;
}

bool SimgridRouting::append_route(Trail& out, int source, int destination, int depth) const {
  const Network& network = *network_;
  const bool source_is_host = network.netpoints[static_cast<std::size_t>(source)].kind == NetpointKind::host;
  const bool destination_is_host = network.netpoints[static_cast<std::size_t>(destination)].kind == NetpointKind::host;
  if (source_is_host && destination_is_host) return compute_route(out, source, destination, depth);
  auto& lists = source_is_host ? cache_from_host_ : destination_is_host ? cache_to_host_ : cache_between_routers_;
  const int owner = destination_is_host && !source_is_host ? destination : source;
  const int other = owner == source ? destination : source;
  {
    std::shared_lock lock(cache_mutex_);
    const auto& list = lists[static_cast<std::size_t>(owner)];
    for (auto [end, index] : list) {
      if (end == other) return cached_[index] && extend(out, *cached_[index]);
    }
  }
  Trail fresh;
  bool found = compute_route(fresh, source, destination, depth);
  bool appended = found && extend(out, fresh);
  std::unique_lock lock(cache_mutex_);
  cached_.push_back(found ? std::optional<Trail>(std::move(fresh)) : std::nullopt);
  lists[static_cast<std::size_t>(owner)].emplace_back(other, cached_.size() - 1);
  return appended;
}

bool SimgridRouting::compute_route(Trail& out, int source, int destination, int depth) const {
  const Network& network = *network_;
  const Netpoint& source_point = network.netpoints[static_cast<std::size_t>(source)];
  if (source == destination) {
    ProcessorIndex at = node(source_point.element);
    return extend(out, Trail{at, at, {}});
  }
  if (depth > kMaxRouteDepth) return false;
  const Netpoint& destination_point = network.netpoints[static_cast<std::size_t>(destination)];
  // Walk both ancestries up to the zone where they meet.
  int source_child = source, destination_child = destination;
  int source_zone = source_point.zone, destination_zone = destination_point.zone;
  if (source_zone < 0 || destination_zone < 0) return false;
  while (source_zone != destination_zone) {
    const Zone& a = network.zones[static_cast<std::size_t>(source_zone)];
    const Zone& b = network.zones[static_cast<std::size_t>(destination_zone)];
    if (a.depth >= b.depth) {
      source_child = a.netpoint;
      source_zone = a.parent;
    } else {
      destination_child = b.netpoint;
      destination_zone = b.parent;
    }
    if (source_zone < 0 || destination_zone < 0) return false;
  }
  const int common = source_zone;
  if (auto bypass = append_bypass_route(out, common, source, destination, depth)) return *bypass;
  auto local = local_route(common, source_child, destination_child, depth);
  if (!local) return false;
  if (local->gateway_source != source) {
    if (!append_route(out, source, local->gateway_source, depth + 1)) return false;
  }
  if (!extend(out, local->trail())) return false;
  if (local->gateway_destination != destination) {
    if (!append_route(out, local->gateway_destination, destination, depth + 1)) return false;
  }
  return true;
}

// NetZoneImpl::get_bypass_route, looked up in the zone where the ancestries meet.
std::optional<bool> SimgridRouting::append_bypass_route(Trail& out, int zone_index, int source, int destination,
                                                        int depth) const {
  const Network& network = *network_;
  const Zone& zone = network.zones[static_cast<std::size_t>(zone_index)];
  if (zone.bypass_routes.empty()) return std::nullopt;
  const auto& trails = bypass_trails_[static_cast<std::size_t>(zone_index)];
  const Netpoint& source_point = network.netpoints[static_cast<std::size_t>(source)];
  const Netpoint& destination_point = network.netpoints[static_cast<std::size_t>(destination)];
  if (source_point.zone == zone_index && destination_point.zone == zone_index) {
    auto found = zone.bypass_index.find(pair_key(source, destination));
    if (found == zone.bypass_index.end()) return std::nullopt;
    return extend(out, trails[found->second]);
  }
  auto ancestry = [&](int zone_of) {
    std::vector<int> zones;
    for (int z = zone_of; z >= 0; z = network.zones[static_cast<std::size_t>(z)].parent) zones.push_back(z);
    return zones;
  };
  std::vector<int> source_zones = ancestry(source_point.zone);
  std::vector<int> destination_zones = ancestry(destination_point.zone);
  while (source_zones.size() > 1 && destination_zones.size() > 1 && source_zones.back() == destination_zones.back()) {
    source_zones.pop_back();
    destination_zones.pop_back();
  }
  std::optional<std::size_t> found;
  auto lookup = [&](std::size_t i, std::size_t j) {
    if (i >= source_zones.size() || j >= destination_zones.size()) return false;
    int key_source = network.zones[static_cast<std::size_t>(source_zones[i])].netpoint;
    int key_destination = network.zones[static_cast<std::size_t>(destination_zones[j])].netpoint;
    auto it = zone.bypass_index.find(pair_key(key_source, key_destination));
    if (it == zone.bypass_index.end()) return false;
    found = it->second;
    return true;
  };
  for (std::size_t max = 0, end = std::max(source_zones.size(), destination_zones.size()); max < end; ++max) {
    for (std::size_t i = 0; i < max; ++i) {
      if (lookup(i, max) || lookup(max, i)) break;
    }
    if (found || lookup(max, max)) break;
  }
  if (!found) return std::nullopt;
  const DeclaredRoute& bypass = zone.bypass_routes[*found];
  if (bypass.gateway_source != source) {
    if (!append_route(out, source, bypass.gateway_source, depth + 1)) return false;
  }
  if (!extend(out, trails[*found])) return false;
  if (bypass.gateway_destination != destination) {
    if (!append_route(out, bypass.gateway_destination, destination, depth + 1)) return false;
  }
  return true;
}

std::optional<LocalRoute> SimgridRouting::local_route(int zone_index, int source, int destination,
                                                      int depth) const {
  const Network& network = *network_;
  const Zone& zone = network.zones[static_cast<std::size_t>(zone_index)];
  auto built = [&](const Path& path, int gateway_source, int gateway_destination) -> std::optional<LocalRoute> {
    auto trail = trail_of(path);
    if (!trail) return std::nullopt;
    return LocalRoute{nullptr, std::move(*trail), gateway_source, gateway_destination};
  };
  ElementId source_element = network.netpoints[static_cast<std::size_t>(source)].element;
  ElementId destination_element = network.netpoints[static_cast<std::size_t>(destination)].element;
  switch (zone.kind) {
    case ZoneKind::none:
      return std::nullopt;
    case ZoneKind::full:
    case ZoneKind::floyd:
    case ZoneKind::dijkstra:
      return routed_zone_route(zone_index, source, destination, depth);
    case ZoneKind::star:
      // Child zones of a Cluster zone have no gateway SimGrid could use.
      if (source_element == kNoElement || destination_element == kNoElement) return std::nullopt;
      return built(star_path(zone, source_element, star_links(zone, source), destination_element,
                             star_links(zone, destination)),
                   source, destination);
    case ZoneKind::vivaldi: {
      auto path = vivaldi_path(network, zone, source, destination);
      if (!path) return std::nullopt;
      return built(path->path, path->gateway_source, path->gateway_destination);
    }
    case ZoneKind::wifi:
      // WifiZone::get_local_route: the cell is crossed from a station to the
      // access point and from the access point to a station; a
      // station-to-station route crosses it once in this graph.
      if (zone.wifi_link == kNoElement || source_element == kNoElement || destination_element == kNoElement) {
        return std::nullopt;
      }
      return built(Path{source_element, zone.wifi_link, destination_element}, source, destination);
    case ZoneKind::torus:
    case ZoneKind::fat_tree:
    case ZoneKind::dragonfly: {
      auto a = zone.rank_of.find(source), b = zone.rank_of.find(destination);
      if (a == zone.rank_of.end() || b == zone.rank_of.end()) return std::nullopt;
      auto path = zone.topology->route(a->second, b->second);
      if (!path) return std::nullopt;
      return built(*path, source, destination);
    }
  }
  return std::nullopt;
}

std::optional<LocalRoute> SimgridRouting::routed_zone_route(int zone_index, int source, int destination,
                                                            int depth) const {
  const Zone& zone = network_->zones[static_cast<std::size_t>(zone_index)];
  const auto& trails = route_trails_[static_cast<std::size_t>(zone_index)];
  if (zone.kind == ZoneKind::full) {
    auto found = zone.route_index.find(pair_key(source, destination));
    if (found == zone.route_index.end()) return std::nullopt;
    const DeclaredRoute& route = zone.routes[found->second];
    return LocalRoute{&trails[found->second], {}, route.gateway_source, route.gateway_destination};
  }
  auto a = zone.member_position.find(source), b = zone.member_position.find(destination);
  if (a == zone.member_position.end() || b == zone.member_position.end()) return std::nullopt;
  std::vector<int> chain = shortest_chain(zone, a->second, b->second);
  if (chain.size() < 2) return std::nullopt;
  LocalRoute result;
  int previous_gateway = -1;
  for (std::size_t k = 1; k < chain.size(); ++k) {
    int from = zone.members[static_cast<std::size_t>(chain[k - 1])];
    int to = zone.members[static_cast<std::size_t>(chain[k])];
    std::size_t index = zone.route_index.at(pair_key(from, to));
    const DeclaredRoute& route = zone.routes[index];
    if (k == 1) {
      result.gateway_source = route.gateway_source;
    } else if (previous_gateway != route.gateway_source &&
               !append_route(result.built, previous_gateway, route.gateway_source, depth + 1)) {
      // FloydZone::get_local_route: consecutive zone routes are joined by the
      // global route between the gateways they leave at and enter by.
      return std::nullopt;
    }
    if (!extend(result.built, trails[index])) return std::nullopt;
    previous_gateway = route.gateway_destination;
  }
  result.gateway_destination = previous_gateway;
  return result;
}

}  // namespace hetcoll::simgrid
