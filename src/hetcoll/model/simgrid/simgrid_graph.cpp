// The graph the imported network's routes run on: its edges (every
// consecutive pair of a route primitive, star zones' member links, the
// topologies' layouts) and the Platform built from them (simgrid_network.h).
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
