// The platform-graph model (Legrand, Marchal, Robert 2003 and Beaumont, Marchal, Robert 2004).
//
// A directed graph G = (V, E). An edge carries the time to send one message
// over it: a fixed `cost`, or an affine `latency + message_size / bandwidth`
// (SimGrid style, seconds and bytes/second). A node may have a compute
// `speed` (reduction operations per unit of time; absent = computing is free)
// and a `send_overhead` (multi-port model of Beaumont, Marchal, Robert 2004).
// Tools use the bidirectional one-port model: at most one send and one
// receive at a time per node, computation overlapped.
//
// STABLE INTERFACE (planners, verify/, sim/, steady-state and pipeline code
// build on it; it only grows compatibly):
//   - PlatformNode: id, speed, send_overhead, router, kind, ports, site.
//   - PlatformEdge: from, to, cost (>= 0; 0 is a wire), latency, bandwidth.
//   - Platform: nodes(), edges(), out_edges(), in_edges(), edge_costs(),
//     participants(), find(), and the routing queries route(), routes_from(),
//     declared_route(), has_declared_routes(), route_time().
//   - with_participants() (participants.h).
// The platform graph model of an imported network (what nodes and edges a
// SimGrid file becomes) is described in docs/ALGORITHMS.md, "Platform graph
// model", and docs/FORMATS.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/cluster.h"

namespace hetcoll {

// What a node stands for. Only hosts can take part in a collective; routers
// and links are network elements that forward messages and hold no data.
enum class NodeKind {
  host,    // a processor (a participant unless `router` is set)
  router,  // a router or switch: forwards, adds no cost of its own
  link,    // a network link (SimGrid <link>): the edges entering it carry its
           // latency and bandwidth, the edges leaving it are free wires
};

// How many transfers may cross a node at once.
enum class PortModel {
  // Bidirectional one-port: one send and one receive at a time. Hosts, routers
  // written in JSON, and links whose bandwidth is shared (SimGrid SHARED, each
  // direction of a SPLITDUPLEX link, a Wi-Fi cell): serialising the transfers
  // that cross a link is how a one-port model says they share its bandwidth.
  one_port,
  // Any number at once, each at full speed: SimGrid FATPIPE links, SimGrid
  // routers, and the switches the importer adds (a cluster's crossbar).
  unlimited,
};

std::string_view to_string(NodeKind kind);
std::string_view to_string(PortModel ports);

struct PlatformNode {
  std::string id;
  std::optional<double> speed;          // operations per unit of time
  std::optional<double> send_overhead;  // seconds per message sent (multi-port)
  // A router forwards messages but takes no part in collectives: it is never
  // a source, a target or a participant, and holds no data of its own. Always
  // true for kind router and link; a host is a router when it is left out of
  // the participants (with_participants).
  bool router = false;
  NodeKind kind = NodeKind::host;
  PortModel ports = PortModel::one_port;
  // The site a host belongs to, as the file names it: the SimGrid zone just
  // below the root zone that holds it, or the JSON node's "site". Empty when
  // the file declares none (pictures and the hierarchical planner then find
  // sites by link cost).
  std::string site;

  // A one-port host (a participant), with an optional compute speed.
  static PlatformNode host(std::string id, std::optional<double> speed = std::nullopt) {
    PlatformNode node;
    node.id = std::move(id);
    node.speed = speed;
    return node;
  }
  // A one-port node that only forwards (router = true).
  static PlatformNode forwarder(std::string id) {
    PlatformNode node = host(std::move(id));
    node.router = true;
    return node;
  }
};

struct PlatformEdge {
  ProcessorIndex from = kNoProcessor;
  ProcessorIndex to = kNoProcessor;
  std::optional<double> cost;       // time of one unit message; 0 is a wire
  std::optional<double> latency;    // seconds
  std::optional<double> bandwidth;  // bytes per second

  // The time of one message of `message_size` bytes: `cost` if given, else
  // latency + size / bandwidth. Throws InputError when the edge only has
  // latency/bandwidth and no message size was given.
  double message_time(std::optional<double> message_size) const;

  // An edge with a fixed cost per message.
  static PlatformEdge with_cost(ProcessorIndex from, ProcessorIndex to, double cost) {
    PlatformEdge edge;
    edge.from = from;
    edge.to = to;
    edge.cost = cost;
    return edge;
  }
};

// A route: edge indices (into Platform::edges()) in travel order; each edge
// starts where the previous one ends.
using Route = std::vector<std::size_t>;

// A node's half routes through the hub of its group (PlatformRouting::hub_route).
struct HubRoute {
  std::uint64_t group = 0;  // equal for the nodes whose routes meet at the same hub
  Route up;                 // node -> hub (not empty)
  Route down;               // hub -> node (not empty)
};

// A platform's own routes, for pairs that it routes otherwise than by the
// cheapest path: SimGrid's routing of an imported file, or the "routes" of a
// JSON file. Immutable once built; shared between copies of a Platform.
class PlatformRouting {
 public:
  virtual ~PlatformRouting() = default;
  // The route the platform declares from `from` to `to` (from != to), or
  // nullopt when it declares none for this pair. Thread-safe.
  virtual std::optional<Route> declared_route(ProcessorIndex from, ProcessorIndex to) const = 0;
  // The pairs whose declared route a JSON file must list to keep them
  // (write_platform_json); an empty list when the routing cannot enumerate
  // them cheaply (then every pair of hosts is written).
  virtual std::vector<std::pair<ProcessorIndex, ProcessorIndex>> declared_pairs() const { return {}; }
  // Routes through a hub (a SimGrid <cluster>'s switch): nullopt, or the
  // node's half routes to and from the hub of its group, such that for any
  // two nodes a != b of the same group declared_route(a, b) is exactly
  // a's `up` followed by b's `down`. Lets callers time and store the routes
  // among k members of one group in O(k) instead of k^2 route queries.
  // The default declares no group. Thread-safe.
  virtual std::optional<HubRoute> hub_route(ProcessorIndex v) const {
    (void)v;
    return std::nullopt;
  }
};

class Platform {
 public:
  Platform() = default;
  // Validates ids (non-empty, unique), edge ends, and every number (positive
  // and finite; latency and cost may be zero), and that network elements
  // (kind router or link) are routers. `source_name` prefixes messages.
  // `routing` (optional) gives the platform's declared routes; it must refer
  // to these nodes and edges.
  Platform(std::vector<PlatformNode> nodes, std::vector<PlatformEdge> edges,
           std::string_view source_name = "platform", std::shared_ptr<const PlatformRouting> routing = nullptr);

  // The complete graph of a cluster: c(i, j) = t(i) for every i != j.
  static Platform from_cluster(const Cluster& cluster);

  ProcessorIndex size() const { return static_cast<ProcessorIndex>(nodes_.size()); }
  const std::vector<PlatformNode>& nodes() const { return nodes_; }
  const std::vector<PlatformEdge>& edges() const { return edges_; }
  const PlatformNode& node(ProcessorIndex v) const { return nodes_[static_cast<size_t>(v)]; }
  const std::string& id(ProcessorIndex v) const { return node(v).id; }
  std::optional<ProcessorIndex> find(std::string_view id_or_index) const;

  // Edge indices leaving / entering each node.
  const std::vector<size_t>& out_edges(ProcessorIndex v) const { return out_[static_cast<size_t>(v)]; }
  const std::vector<size_t>& in_edges(ProcessorIndex v) const { return in_[static_cast<size_t>(v)]; }

  // Per-edge message times for a message size (see PlatformEdge::message_time).
  std::vector<double> edge_costs(std::optional<double> message_size = std::nullopt) const;
  // True when every edge has a `cost` (no message size needed).
  bool has_fixed_costs() const;
  // The unit of `cost`, `send_overhead` and route times as the file declares
  // it ("units"), "s" for SimGrid files; empty when not declared. Edges with
  // latency and bandwidth always give seconds.
  const std::string& time_unit() const { return time_unit_; }
  Platform& set_time_unit(std::string unit) {
    time_unit_ = std::move(unit);
    return *this;
  }
  // The nodes that are not routers, in index order.
  std::vector<ProcessorIndex> participants() const;

  // ---- Routing ----------------------------------------------------------
  // The route a message from `from` to `to` follows: the platform's declared
  // route when it has one (SimGrid's routing, a JSON "routes" entry), else
  // the cheapest direct edge, else the cheapest path under `edge_costs`
  // (shortest_paths.h; ties resolved as documented there). Empty when
  // from == to; nullopt when `to` cannot be reached. Defined in
  // shortest_paths.cpp, beside the algorithm they fall back on.
  std::optional<Route> route(ProcessorIndex from, ProcessorIndex to, const std::vector<double>& edge_costs) const;
  // route(from, v, edge_costs) for every node v, with one shortest-path run.
  std::vector<std::optional<Route>> routes_from(ProcessorIndex from, const std::vector<double>& edge_costs) const;
  // The same for the listed targets only (result in the order of `targets`).
  std::vector<std::optional<Route>> routes_from(ProcessorIndex from, const std::vector<double>& edge_costs,
                                                const std::vector<ProcessorIndex>& targets) const;
  // Only the declared route (nullopt when the platform declares none).
  std::optional<Route> declared_route(ProcessorIndex from, ProcessorIndex to) const;
  // The routing's hub routes of `v` (PlatformRouting::hub_route); nullopt
  // without a routing.
  std::optional<HubRoute> hub_route(ProcessorIndex v) const;
  bool has_declared_routes() const { return routing_ != nullptr; }
  const std::shared_ptr<const PlatformRouting>& routing() const { return routing_; }

  // The time of one message of `message_size` bytes alone on `route`, cut
  // through as SimGrid times a flow: the sum of the fixed costs, plus the sum
  // of the latencies, plus message_size / the smallest bandwidth of the
  // route's latency/bandwidth edges. On a graph of fixed costs this is the
  // path's length; hop-by-hop (store-and-forward) forwarding instead costs
  // the sum of edge_costs() along the route. 0 for an empty route. Throws
  // InputError like PlatformEdge::message_time when a size is needed.
  double route_time(const Route& route, std::optional<double> message_size) const;
  // The same for the route `first` followed by `second` (either may be
  // empty), without building it; bit for bit route_time of the joined route.
  double route_time(std::span<const std::size_t> first, std::span<const std::size_t> second,
                    std::optional<double> message_size) const;

 private:
  std::vector<PlatformNode> nodes_;
  std::vector<PlatformEdge> edges_;
  std::vector<std::vector<size_t>> out_;
  std::vector<std::vector<size_t>> in_;
  std::unordered_map<std::string, ProcessorIndex> index_of_;
  std::string time_unit_;
  std::shared_ptr<const PlatformRouting> routing_;
};

// Declared routes listed one by one (JSON "routes"): a table keyed by pair.
class RouteTable final : public PlatformRouting {
 public:
  // Adds or replaces the route of a pair; the caller checks it is a path.
  void set(ProcessorIndex from, ProcessorIndex to, Route route);
  bool contains(ProcessorIndex from, ProcessorIndex to) const;
  std::optional<Route> declared_route(ProcessorIndex from, ProcessorIndex to) const override;
  std::vector<std::pair<ProcessorIndex, ProcessorIndex>> declared_pairs() const override;
  std::size_t size() const { return routes_.size(); }

 private:
  std::unordered_map<std::uint64_t, Route> routes_;
  std::vector<std::pair<ProcessorIndex, ProcessorIndex>> order_;  // insertion order, for writing
};

// Checks that `route` is a path from `from` to `to` in `platform`'s edges;
// returns a description of the first problem, or nullopt.
std::optional<std::string> route_problem(const Platform& platform, ProcessorIndex from, ProcessorIndex to,
                                         std::span<const std::size_t> route);

}  // namespace hetcoll
