// Longer than 800 lines: the hierarchical routing and the graph it runs on share this file's zone helpers; kept together.
// SimGrid's routing on the imported network (simgrid_network.h), and the
// graph its routes run on.
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

// ------------------------------------------------------------ star zones ---

Path star_path(const Zone& zone, ElementId source_element, const StarLinks* up_of, ElementId destination_element,
               const StarLinks* down_of) {
  Path path{source_element};
  // Chains are a few links long: a linear search beats a hash set.
  auto crossed = [&](ElementId link) { return std::find(path.begin() + 1, path.end(), link) != path.end(); };
  if (up_of) {
    for (ElementId link : up_of->up) {
      if (!crossed(link)) path.push_back(link);
    }
  }
  path.push_back(zone.center);
  if (down_of) {
    for (ElementId link : down_of->down) {
      if (!crossed(link)) path.push_back(link);
    }
  }
  path.push_back(destination_element);
  return path;
}

namespace {

const StarLinks* star_links(const Zone& zone, int netpoint) {
  auto found = zone.star.find(netpoint);
  return found == zone.star.end() ? nullptr : &found->second;
}

// The euclidean part of a Vivaldi distance plus both heights, in seconds
// (coordinates are in milliseconds, VivaldiZone::get_local_route).
double vivaldi_latency(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  double dx = a[0] - b[0], dy = a[1] - b[1];
  return (std::sqrt(dx * dx + dy * dy) + std::fabs(a[2]) + std::fabs(b[2])) / 1000.0;
}

// A Vivaldi member's end point: a host or router itself, or for a child zone
// its gateway "router_<zone>" (SimGrid's convention); -1 when there is none.
int vivaldi_endpoint(const Network& network, int netpoint) {
  const Netpoint& point = network.netpoints[static_cast<std::size_t>(netpoint)];
  return point.kind == NetpointKind::zone ? point.gateway : netpoint;
}

// The Vivaldi path from member a to member b: a's up links, then b's down
// links not crossed yet; the edge joining the two parts carries the distance.
struct VivaldiPath {
  Path path;
  std::size_t join = 0;  // the edge path[join] -> path[join + 1] carries the distance
  double latency = 0;
  int gateway_source = -1;
  int gateway_destination = -1;
};

std::optional<VivaldiPath> vivaldi_path(const Network& network, const Zone& zone, int source, int destination) {
  int source_end = vivaldi_endpoint(network, source);
  int destination_end = vivaldi_endpoint(network, destination);
  if (source_end < 0 || destination_end < 0) return std::nullopt;
  const auto& source_point = network.netpoints[static_cast<std::size_t>(source_end)];
  const auto& destination_point = network.netpoints[static_cast<std::size_t>(destination_end)];
  if (!source_point.coordinates || !destination_point.coordinates) return std::nullopt;
  VivaldiPath result;
  result.gateway_source = source_end;
  result.gateway_destination = destination_end;
  result.path.push_back(source_point.element);
  std::unordered_set<ElementId> crossed;
  if (const StarLinks* links = star_links(zone, source)) {
    for (ElementId link : links->up) {
      if (crossed.insert(link).second) result.path.push_back(link);
    }
  }
  result.join = result.path.size() - 1;
  if (const StarLinks* links = star_links(zone, destination)) {
    for (ElementId link : links->down) {
      if (crossed.insert(link).second) result.path.push_back(link);
    }
  }
  result.path.push_back(destination_point.element);
  result.latency = vivaldi_latency(*source_point.coordinates, *destination_point.coordinates);
  return result;
}

}  // namespace

void find_shared_up_sets(Zone& zone) {
  // A link of a member's up chain can be dropped from another member's down
  // chain only if it is in both: shared links are those in the up chains of
  // two members, or in the up chain of one and the down chain of another.
  struct Users {
    int first = -1;
    bool several = false;
    void add(int member) {
      if (first < 0) {
        first = member;
      } else if (first != member) {
        several = true;
      }
    }
  };
  std::unordered_map<ElementId, Users> up_users, down_users;
  for (const auto& [member, links] : zone.star) {
    for (ElementId link : links.up) up_users[link].add(member);
    for (ElementId link : links.down) down_users[link].add(member);
  }
  auto shared = [&](ElementId link) {
    const Users& up = up_users[link];
    auto down = down_users.find(link);
    if (up.several) return true;
    if (down == down_users.end() || up.first < 0) return false;
    return down->second.several || down->second.first != up.first;
  };
  std::vector<std::vector<ElementId>> sets;
  for (int member : zone.members) {
    auto found = zone.star.find(member);
    if (found == zone.star.end()) continue;
    std::vector<ElementId> set;
    for (ElementId link : found->second.up) {
      if (shared(link)) set.push_back(link);
    }
    if (set.empty()) continue;
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
    if (std::find(sets.begin(), sets.end(), set) == sets.end()) sets.push_back(std::move(set));
  }
  zone.shared_up_sets = std::move(sets);
}

// ------------------------------------------------ Floyd, Dijkstra zones ---

namespace {

constexpr std::size_t kPrecomputedChainMembers = 1024;  // Floyd: members^3 steps; tables members^2
constexpr std::size_t kFloydMembers = 400;              // above, chains come from Dijkstra runs

// SimGrid's Floyd-Warshall (FloydZone::do_seal): costs are link counts, a
// shorter chain must be strictly shorter, intermediates tried in vertex order.
void floyd(Zone& zone) {
  const std::size_t m = zone.members.size();
  constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::uint64_t> cost(m * m, kNone);
  zone.predecessors.assign(m * m, -1);
  for (const DeclaredRoute& route : zone.routes) {
    auto a = static_cast<std::size_t>(zone.member_position.at(route.source));
    auto b = static_cast<std::size_t>(zone.member_position.at(route.destination));
    cost[a * m + b] = route.link_count;
    zone.predecessors[a * m + b] = static_cast<std::int32_t>(a);
  }
  for (std::size_t c = 0; c < m; ++c) {
    for (std::size_t a = 0; a < m; ++a) {
      std::uint64_t ac = cost[a * m + c];
      if (ac == kNone) continue;
      for (std::size_t b = 0; b < m; ++b) {
        std::uint64_t cb = cost[c * m + b];
        if (cb == kNone) continue;
        std::uint64_t& ab = cost[a * m + b];
        if (ab == kNone || ac + cb < ab) {
          ab = ac + cb;
          zone.predecessors[a * m + b] = zone.predecessors[c * m + b];
        }
      }
    }
  }
}

// SimGrid's DijkstraZone::get_local_route search from one member: graph
// nodes numbered by first appearance in a declared route, out-edges in
// declaration order, the queue ordered by (links, node number), a node's
// predecessor replaced only by a strictly shorter chain. Returns the
// predecessor of every member position (-1: unreached).
std::vector<std::int32_t> dijkstra_from(const Zone& zone, int source_position,
                                        const std::vector<std::vector<std::size_t>>& routes_from) {
  const std::size_t m = zone.members.size();
  std::vector<int> graph_id(m, -1);
  for (std::size_t k = 0; k < zone.dijkstra_order.size(); ++k) {
    graph_id[static_cast<std::size_t>(zone.dijkstra_order[k])] = static_cast<int>(k);
  }
  constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::uint64_t> cost(m, kNone);
  std::vector<std::int32_t> predecessor(m, -1);
  using Entry = std::pair<std::uint64_t, int>;  // (links, graph id)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  if (graph_id[static_cast<std::size_t>(source_position)] < 0) return predecessor;
  cost[static_cast<std::size_t>(source_position)] = 0;
  queue.emplace(0, graph_id[static_cast<std::size_t>(source_position)]);
  while (!queue.empty()) {
    auto [reached, id] = queue.top();
    queue.pop();
    auto position = static_cast<std::size_t>(zone.dijkstra_order[static_cast<std::size_t>(id)]);
    if (reached != cost[position]) continue;
    for (std::size_t r : routes_from[position]) {
      const DeclaredRoute& route = zone.routes[r];
      auto next = static_cast<std::size_t>(zone.member_position.at(route.destination));
      std::uint64_t candidate = reached + route.link_count;
      if (candidate < cost[next]) {
        cost[next] = candidate;
        predecessor[next] = static_cast<std::int32_t>(position);
        queue.emplace(candidate, graph_id[next]);
      }
    }
  }
  return predecessor;
}

std::vector<std::vector<std::size_t>> routes_by_source(const Zone& zone) {
  std::vector<std::vector<std::size_t>> routes_from(zone.members.size());
  for (std::size_t r = 0; r < zone.routes.size(); ++r) {
    routes_from[static_cast<std::size_t>(zone.member_position.at(zone.routes[r].source))].push_back(r);
  }
  return routes_from;
}

}  // namespace

void precompute_chains(Zone& zone) {
  const std::size_t m = zone.members.size();
  if (zone.kind == ZoneKind::floyd && m <= kFloydMembers) {
    floyd(zone);
    return;
  }
  if (m > kPrecomputedChainMembers) return;
  auto routes_from = routes_by_source(zone);
  zone.predecessors.assign(m * m, -1);
  for (std::size_t a = 0; a < m; ++a) {
    auto row = dijkstra_from(zone, static_cast<int>(a), routes_from);
    std::copy(row.begin(), row.end(), zone.predecessors.begin() + static_cast<std::ptrdiff_t>(a * m));
  }
}

std::vector<int> shortest_chain(const Zone& zone, int source_position, int destination_position) {
  const std::size_t m = zone.members.size();
  std::vector<std::int32_t> row;
  const std::int32_t* predecessor = nullptr;
  if (!zone.predecessors.empty()) {
    predecessor = zone.predecessors.data() + static_cast<std::size_t>(source_position) * m;
  } else {
    row = dijkstra_from(zone, source_position, routes_by_source(zone));
    predecessor = row.data();
  }
  std::vector<int> chain{destination_position};
  int at = destination_position;
  while (at != source_position) {
    std::int32_t before = predecessor[static_cast<std::size_t>(at)];
    if (before < 0 || chain.size() > m) return {};
    at = before;
    chain.push_back(at);
  }
  std::reverse(chain.begin(), chain.end());
  return chain;
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

// ------------------------------------------------------------ the graph ---

EdgeSet collect_edges(const Network& network, const std::vector<TopologyLayout>& layouts, std::string_view source) {
  EdgeSet edges;
  for (const Zone& zone : network.zones) {
    for (const DeclaredRoute& route : zone.routes) edges.add_path(route.path);
    for (const DeclaredRoute& route : zone.bypass_routes) edges.add_path(route.path);
    if (zone.kind == ZoneKind::star) {
      for (int member : zone.members) {
        const Netpoint& point = network.netpoints[static_cast<std::size_t>(member)];
        if (point.element == kNoElement) continue;
        const StarLinks* links = star_links(zone, member);
        StarLinks none;
        if (!links) links = &none;
        // Up: the member, its links, the centre.
        Path up{point.element};
        for (ElementId link : links->up) {
          if (std::find(up.begin(), up.end(), link) == up.end()) up.push_back(link);
        }
        up.push_back(zone.center);
        edges.add_path(up);
        // Down, once per subset of shared links a source may have crossed.
        std::vector<std::vector<ElementId>> variants = zone.shared_up_sets;
        variants.emplace_back();
        for (const auto& crossed : variants) {
          Path down{zone.center};
          for (ElementId link : links->down) {
            if (std::find(crossed.begin(), crossed.end(), link) == crossed.end() &&
                std::find(down.begin(), down.end(), link) == down.end()) {
              down.push_back(link);
            }
          }
          down.push_back(point.element);
          edges.add_path(down);
        }
      }
    } else if (zone.kind == ZoneKind::vivaldi) {
      for (int a : zone.members) {
        for (int b : zone.members) {
          if (a == b) continue;
          auto path = vivaldi_path(network, zone, a, b);
          if (!path) continue;
          for (std::size_t k = 1; k < path->path.size(); ++k) {
            double extra = k - 1 == path->join ? path->latency : 0.0;
            if (!edges.add(path->path[k - 1], path->path[k], extra)) {
              throw InputError(fmt::format(
                  "{}: zone \"{}\": the Vivaldi route from \"{}\" to \"{}\" needs the edge from \"{}\" to \"{}\" with "
                  "another latency than a route elsewhere (a peer's links are used outside its zone)",
                  source, zone.id, network.netpoints[static_cast<std::size_t>(a)].name,
                  network.netpoints[static_cast<std::size_t>(b)].name,
                  network.elements[static_cast<std::size_t>(path->path[k - 1])].name,
                  network.elements[static_cast<std::size_t>(path->path[k])].name));
            }
          }
        }
      }
    } else if (zone.kind == ZoneKind::wifi && zone.wifi_link != kNoElement) {
      for (int member : zone.members) {
        ElementId element = network.netpoints[static_cast<std::size_t>(member)].element;
        if (element == kNoElement) continue;
        edges.add(element, zone.wifi_link);
        edges.add(zone.wifi_link, element);
      }
    }
  }
  for (const TopologyLayout& layout : layouts) {
    for (auto [from, to] : layout.edges) edges.add(from, to);
  }
  return edges;
}

Platform build_platform(std::shared_ptr<Network> network, const EdgeSet& edge_set, std::string_view source) {
  const auto& elements = network->elements;
  // Hosts, then routers and switches, then links; each in creation order.
  std::vector<ProcessorIndex> node_of(elements.size());
  std::vector<ElementId> order;
  order.reserve(elements.size());
  for (NodeKind kind : {NodeKind::host, NodeKind::router, NodeKind::link}) {
    for (std::size_t e = 0; e < elements.size(); ++e) {
      if (elements[e].kind != kind) continue;
      node_of[e] = static_cast<ProcessorIndex>(order.size());
      order.push_back(static_cast<ElementId>(e));
    }
  }
  // Links and switches have their own namespace in SimGrid; a name already
  // taken by a host or router gets a "link:" (or "switch:") prefix.
  std::unordered_set<std::string> taken;
  for (ElementId e : order) {
    if (elements[static_cast<std::size_t>(e)].kind == NodeKind::host) taken.insert(elements[static_cast<std::size_t>(e)].name);
  }
  for (const Netpoint& point : network->netpoints) {
    if (point.kind == NetpointKind::router) taken.insert(point.name);
  }
  std::vector<PlatformNode> nodes;
  nodes.reserve(order.size());
  std::vector<char> is_netpoint(elements.size(), 0);
  // A host's site: the zone just below the root zone that holds it (none
  // for a host of the root zone itself).
  std::vector<std::string> site_of(elements.size());
  for (const Netpoint& point : network->netpoints) {
    if (point.element == kNoElement) continue;
    is_netpoint[static_cast<std::size_t>(point.element)] = 1;
    if (point.kind != NetpointKind::host || point.zone < 0) continue;
    int zone = point.zone;
    while (network->zones[static_cast<std::size_t>(zone)].parent >= 0 &&
           network->zones[static_cast<std::size_t>(network->zones[static_cast<std::size_t>(zone)].parent)].parent >= 0) {
      zone = network->zones[static_cast<std::size_t>(zone)].parent;
    }
    if (network->zones[static_cast<std::size_t>(zone)].parent >= 0) {
      site_of[static_cast<std::size_t>(point.element)] = network->zones[static_cast<std::size_t>(zone)].id;
    }
  }
  for (ElementId e : order) {
    const Element& element = elements[static_cast<std::size_t>(e)];
    PlatformNode node;
    node.id = element.name;
    if (!is_netpoint[static_cast<std::size_t>(e)]) {
      std::string prefix = element.kind == NodeKind::link ? "link:" : "switch:";
      if (taken.count(node.id)) node.id = prefix + node.id;
      for (int copy = 2; !taken.insert(node.id).second; ++copy) {
        node.id = fmt::format("{}{}#{}", prefix, element.name, copy);
      }
    }
    node.kind = element.kind;
    node.router = element.kind != NodeKind::host;
    node.ports = element.ports;
    if (element.kind == NodeKind::host) node.speed = element.speed;
    node.site = std::move(site_of[static_cast<std::size_t>(e)]);
    nodes.push_back(std::move(node));
  }
  std::vector<PlatformEdge> edges;
  edges.reserve(edge_set.pairs.size());
  std::unordered_map<std::uint64_t, std::size_t> edge_of;
  edge_of.reserve(edge_set.pairs.size());
  // Edges in the order of their tails' nodes, so that a node's edges are
  // listed together in the written file.
  std::vector<std::size_t> by_tail(edge_set.pairs.size());
  for (std::size_t k = 0; k < by_tail.size(); ++k) by_tail[k] = k;
  std::stable_sort(by_tail.begin(), by_tail.end(), [&](std::size_t a, std::size_t b) {
    return node_of[static_cast<std::size_t>(edge_set.pairs[a].first)] <
           node_of[static_cast<std::size_t>(edge_set.pairs[b].first)];
  });
  for (std::size_t k : by_tail) {
    auto [from, to] = edge_set.pairs[k];
    const Element& head = elements[static_cast<std::size_t>(to)];
    PlatformEdge edge;
    edge.from = node_of[static_cast<std::size_t>(from)];
    edge.to = node_of[static_cast<std::size_t>(to)];
    double extra = edge_set.extra_latency[k];
    if (head.kind == NodeKind::link) {
      edge.latency = head.latency + extra;
      edge.bandwidth = head.bandwidth;
      if (!std::isfinite(*edge.latency)) {
        throw InputError(fmt::format("{}: the latency into link \"{}\" is not finite", source, head.name));
      }
    } else {
      edge.cost = extra;  // a wire, or a Vivaldi distance
    }
    edge_of.emplace(pair_key(edge.from, edge.to), edges.size());
    edges.push_back(edge);
  }
  auto routing = std::make_shared<SimgridRouting>(network, std::move(node_of), std::move(edge_of));
  return Platform(std::move(nodes), std::move(edges), source, std::move(routing));
}

}  // namespace hetcoll::simgrid
