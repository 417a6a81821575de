// The network of a SimGrid platform as the importer keeps it: netpoints
// (hosts, routers, zones), graph elements (hosts, routers, switches and link
// nodes), zones with their routing, and the routing itself, which answers
// Platform::declared_route() for any pair of hosts and routers by SimGrid's
// hierarchical algorithm.
//
// Internal to the importer (simgrid_xml_import.cpp and its step files
// build it, simgrid_routing.cpp routes on it over the zones' local routes
// of simgrid_zone_routes.cpp, simgrid_graph.cpp builds its graph,
// simgrid_topologies.cpp lays out torus, fat-tree and dragonfly clusters).
// docs/ALGORITHMS.md, "Platform graph model", says what becomes a node and
// an edge.
//
// Routes are computed as paths of elements (node sequences) from the route
// primitives below, and every consecutive pair of a primitive is an edge of
// the graph, so any route is a path of the graph. Queries do not modify the
// network (thread-safe) and cost O(zone depth x route length), plus one
// shortest-path run in the large Floyd/Dijkstra zones that are not
// precomputed.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "hetcoll/model/platform.h"

namespace hetcoll::simgrid {

// A graph element, numbered in creation order; build_platform() puts hosts
// first, then routers and switches, then links.
using ElementId = int;
inline constexpr ElementId kNoElement = -1;

struct Element {
  std::string name;
  NodeKind kind = NodeKind::host;
  PortModel ports = PortModel::one_port;
  double speed = 0;      // hosts: flop/s
  double latency = 0;    // links: seconds
  double bandwidth = 0;  // links: bytes/s
};

enum class NetpointKind { host, router, zone };

// SimGrid's NetPoint: anything a route starts or ends at.
struct Netpoint {
  std::string name;
  NetpointKind kind = NetpointKind::host;
  int zone = -1;                  // the zone that directly contains it (-1: none, the root zone's own netpoint)
  int own_zone = -1;              // zones: the zone it stands for
  ElementId element = kNoElement; // hosts and routers
  std::optional<std::array<double, 3>> coordinates;  // Vivaldi
  int gateway = -1;  // zones in a Vivaldi zone: the router "router_<zone>" that stands for them
};

using Path = std::vector<ElementId>;

// A declared route of a Full/Floyd/Dijkstra zone, a zoneRoute, or a bypass
// route: the path runs from the source gateway's element through the link
// nodes to the destination gateway's element (for a plain route the
// gateways are the end points themselves).
struct DeclaredRoute {
  int source = -1;  // netpoints
  int destination = -1;
  int gateway_source = -1;
  int gateway_destination = -1;
  Path path;
  std::size_t link_count = 0;
};

enum class ZoneKind { full, floyd, dijkstra, none, star, vivaldi, wifi, torus, fat_tree, dragonfly };

// The links a member of a star zone (a SimGrid Cluster zone, a <cluster>,
// a Vivaldi zone) uses to reach the zone's centre, and back.
struct StarLinks {
  std::vector<ElementId> up;
  std::vector<ElementId> down;
};

// A route under construction, as platform edges: it runs from node `start`
// to node `end` (both kNoProcessor while empty; equal when it has no edge).
struct Trail {
  ProcessorIndex start = kNoProcessor;
  ProcessorIndex end = kNoProcessor;
  Route edges;
};

// A zone's route between two of its members: a declared route (not copied)
// or one built for the query.
struct LocalRoute {
  const Trail* declared = nullptr;
  Trail built;
  int gateway_source = -1;
  int gateway_destination = -1;
  const Trail& trail() const { return declared ? *declared : built; }
};

// Torus, fat-tree and dragonfly clusters (simgrid_topologies.cpp).
class TopologyRouting {
 public:
  virtual ~TopologyRouting() = default;
  // The path between two hosts of the cluster, given by their rank (position
  // in the radical), from the source host's element to the destination's.
  virtual std::optional<Path> route(int source_rank, int destination_rank) const = 0;
};

// What a <cluster> element asks for.
enum class LinkSharing { shared, split_duplex, fatpipe };

struct ClusterShape {
  std::string id;
  double bandwidth = 0;  // of every link, bytes/s
  double latency = 0;    // seconds
  LinkSharing sharing = LinkSharing::split_duplex;
  std::optional<double> limiter_bandwidth;
  std::string parameters;  // topo_parameters
};



struct Zone {
  std::string id;
  ZoneKind kind = ZoneKind::full;
  int parent = -1;
  int netpoint = -1;
  int depth = 0;

  // Netpoints directly in the zone, in creation order (SimGrid's vertex ids).
  std::vector<int> members;
  std::unordered_map<int, int> member_position;

  // Full, Floyd, Dijkstra: declared routes between members, by (source, destination).
  std::vector<DeclaredRoute> routes;
  std::unordered_map<std::uint64_t, std::size_t> route_index;
  // Any zone: bypass routes, looked up when the zone is the common ancestor.
  std::vector<DeclaredRoute> bypass_routes;
  std::unordered_map<std::uint64_t, std::size_t> bypass_index;
  // Floyd and Dijkstra: the predecessor of position b on the chain from
  // position a, row-major by a (precomputed for small zones, else empty).
  std::vector<std::int32_t> predecessors;
  // Dijkstra: SimGrid's graph (members in order of first appearance in a route).
  std::vector<int> dijkstra_order;

  // Star, Vivaldi: the centre switch and each member's links.
  ElementId center = kNoElement;
  std::unordered_map<int, StarLinks> star;
  // Links shared by the up chains of several members, and the distinct
  // subsets of them an up chain holds: a down chain drops the links its
  // route already crossed (SimGrid removes duplicates), so the graph holds
  // one variant of each down chain per subset.
  std::vector<std::vector<ElementId>> shared_up_sets;

  // Wi-Fi: the cell and its access point (a netpoint, or -1).
  ElementId wifi_link = kNoElement;
  int access_point = -1;

  // Torus, fat tree, dragonfly.
  std::shared_ptr<const TopologyRouting> topology;
  std::unordered_map<int, int> rank_of;  // host netpoint -> rank
};

std::uint64_t pair_key(int a, int b);

// Everything the importer learnt; SimgridRouting keeps it alive.
struct Network {
  std::vector<Element> elements;
  std::vector<Netpoint> netpoints;
  std::vector<Zone> zones;

  // Elements beyond this many throw std::length_error (the reader turns it
  // into an InputError): a few characters of topo_parameters can ask for a lot.
  std::size_t element_limit = std::numeric_limits<std::size_t>::max();

  ElementId add_element(Element element) {
    if (elements.size() >= element_limit) {
      throw std::length_error("the platform grows past " + std::to_string(element_limit) +
                              " nodes (hosts, routers and links)");
    }
    elements.push_back(std::move(element));
    return static_cast<ElementId>(elements.size() - 1);
  }
  ElementId add_link(std::string name, double bandwidth, double latency, PortModel ports) {
    return add_element({std::move(name), NodeKind::link, ports, 0, latency, bandwidth});
  }
  ElementId add_switch(std::string name) {
    return add_element({std::move(name), NodeKind::router, PortModel::unlimited, 0, 0, 0});
  }
};

// Edges of the graph, by element pair, with the latency a zone adds on top
// of the entered link's (Vivaldi distances); filled by the builders below.
struct EdgeSet {
  std::vector<std::pair<ElementId, ElementId>> pairs;
  std::vector<double> extra_latency;
  std::unordered_map<std::uint64_t, std::size_t> index;
  // Adds the edge once; false when it exists with another extra latency.
  bool add(ElementId from, ElementId to, double extra = 0);
  void add_path(const Path& path);
};

// The torus, fat tree or dragonfly laid out: its routing, and the graph edges
// (element pairs) its routes use. Builders add their links and switches to
// the network; they throw std::invalid_argument with a readable message for
// bad parameters (the XML reader adds the file and line).
struct TopologyLayout {
  std::shared_ptr<const TopologyRouting> routing;
  std::vector<std::pair<ElementId, ElementId>> edges;
};

// `hosts`: the cluster's host elements by rank; their count must match the
// topology's. The limit bounds the elements added (an InputError-worthy
// std::length_error beyond).
TopologyLayout build_torus(Network& network, const ClusterShape& shape, const std::vector<ElementId>& hosts);
TopologyLayout build_fat_tree(Network& network, const ClusterShape& shape, const std::vector<ElementId>& hosts);
TopologyLayout build_dragonfly(Network& network, const ClusterShape& shape,
                               const std::vector<ElementId>& hosts);
// How many hosts the topology parameters describe (for checking the radical).
std::size_t topology_host_count(std::string_view topology, const std::string& parameters);

// Collects the edges every route of the network may use.
EdgeSet collect_edges(const Network& network, const std::vector<TopologyLayout>& layouts, std::string_view source);

// Turns the network into a Platform: hosts first (in document order), then
// routers and switches, then links; edges from `edges`; routing attached.
Platform build_platform(std::shared_ptr<Network> network, const EdgeSet& edges, std::string_view source);

class SimgridRouting final : public PlatformRouting {
 public:
  // `node_of` maps elements to platform nodes; `edge_of` maps (node, node)
  // pairs to the edge joining them.
  SimgridRouting(std::shared_ptr<const Network> network, std::vector<ProcessorIndex> node_of,
                 std::unordered_map<std::uint64_t, std::size_t> edge_of);

  std::optional<Route> declared_route(ProcessorIndex from, ProcessorIndex to) const override;
  // Hosts of a star zone (a <cluster>) without bypass routes: their up
  // chain to the centre and down chain from it. The group is the zone and
  // the shared links of the up chain (a backbone), which a down chain drops.
  std::optional<HubRoute> hub_route(ProcessorIndex v) const override;

  // The element path of SimGrid's route between two netpoints (hosts or
  // routers); nullopt when SimGrid has none.
  std::optional<Path> netpoint_route(int source, int destination) const;

 private:
  // Appends SimGrid's route from `source` to `destination` to `out` (empty,
  // or ending at the source's element); false when there is none. Routes
  // with a router at one end (to and from gateways) are shared by many host
  // pairs and kept once computed; host-to-host routes are not (there are
  // hosts^2 of them).
  bool append_route(Trail& out, int source, int destination, int depth) const;
  bool compute_route(Trail& out, int source, int destination, int depth) const;
  // nullopt: no bypass route applies; else whether the bypassed route was appended.
  std::optional<bool> append_bypass_route(Trail& out, int zone, int source, int destination, int depth) const;
  std::optional<LocalRoute> local_route(int zone, int source, int destination, int depth) const;
  std::optional<LocalRoute> routed_zone_route(int zone, int source, int destination, int depth) const;
  // The trail of an element path built for a query; nullopt if a step has no edge.
  std::optional<Trail> trail_of(const Path& path) const;
  std::optional<std::size_t> edge_between(ProcessorIndex from, ProcessorIndex to) const;
  ProcessorIndex node(ElementId element) const { return node_of_[static_cast<std::size_t>(element)]; }

  std::shared_ptr<const Network> network_;
  mutable std::shared_mutex cache_mutex_;
  // Cached routes, indexed by their host end (few gateways per host) or, for
  // router-to-router routes, by their source: short lists scanned linearly.
  mutable std::vector<std::vector<std::pair<int, std::size_t>>> cache_from_host_;
  mutable std::vector<std::vector<std::pair<int, std::size_t>>> cache_to_host_;
  mutable std::vector<std::vector<std::pair<int, std::size_t>>> cache_between_routers_;
  mutable std::deque<std::optional<Trail>> cached_;  // stable addresses
  // The trails of every zone's declared and bypass routes, by zone and index.
  std::vector<std::vector<Trail>> route_trails_;
  std::vector<std::vector<Trail>> bypass_trails_;
  std::vector<ProcessorIndex> node_of_;
  std::vector<int> netpoint_of_node_;
  // The edges by tail node, sorted by head: offsets into heads_/edges_.
  std::vector<std::size_t> first_edge_;
  std::vector<ProcessorIndex> heads_;
  std::vector<std::size_t> edges_;
};

// Appends `segment` to `path`; they must meet (path's last element is the
// segment's first). Returns false when they do not.
bool append_path(Path& path, const Path& segment);

// Chain-of-routes search of Floyd and Dijkstra zones: the positions of the
// chain's members from `source` to `destination` (both included), or empty.
std::vector<int> shortest_chain(const Zone& zone, int source_position, int destination_position);

// Precomputes Zone::predecessors when the zone is small enough.
void precompute_chains(Zone& zone);

// Fills Zone::shared_up_sets of a star zone from its members' links.
void find_shared_up_sets(Zone& zone);

// The star zone path: up links of the source, the centre, the down links of
// the destination minus those already crossed (SimGrid drops duplicates).
Path star_path(const Zone& zone, ElementId source_element, const StarLinks* up_of, ElementId destination_element,
               const StarLinks* down_of);

// A star zone member's links, or null when it has none.
const StarLinks* star_links(const Zone& zone, int netpoint);

// The Vivaldi path from member a to member b: a's up links, then b's down
// links not crossed yet; the edge joining the two parts carries the distance.
struct VivaldiPath {
  Path path;
  std::size_t join = 0;  // the edge path[join] -> path[join + 1] carries the distance
  double latency = 0;
  int gateway_source = -1;
  int gateway_destination = -1;
};
// Empty when an end has no coordinates (or a child zone no gateway).
std::optional<VivaldiPath> vivaldi_path(const Network& network, const Zone& zone, int source, int destination);

}  // namespace hetcoll::simgrid
