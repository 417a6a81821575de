// The local routes of SimGrid's zone kinds on the imported network
// (simgrid_network.h): star zones (Cluster, Vivaldi, Wi-Fi: up and down
// links of the members), Vivaldi distances, and the chains of routes of
// Floyd and Dijkstra zones (SimGrid's FloydZone and DijkstraZone, in
// SimGrid 3.32). simgrid_routing.cpp composes them into global routes.
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

const StarLinks* star_links(const Zone& zone, int netpoint) {
  auto found = zone.star.find(netpoint);
  return found == zone.star.end() ? nullptr : &found->second;
}

namespace {

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

}  // namespace

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

}  // namespace hetcoll::simgrid
