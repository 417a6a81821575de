// The communication model of one operation on a platform graph: what a
// transfer costs, which route it takes, which ports it holds. Planners
// (makespan/graph/), the verifier (verify/verify_graph.cpp) and the
// simulator (sim/) all read the model from here, so they agree on it by
// construction; none of them decides it. docs/ALGORITHMS.md "Planning on the
// platform graph" states it for users.
//
// STABLE INTERFACE: GraphNetwork, RouteFinder, RouteMatrix, OnePortRule.
//
// The model:
//  * Participants are the nodes that are not routers (platform.h). Only
//    participants send, receive, hold or combine data; routers and links
//    forward inside routes and hold nothing.
//  * A transfer u -> v follows the platform's route from u to v
//    (Platform::route: its declared route, else the cheapest direct edge,
//    else the cheapest path) and lasts the route's time (Platform::route_time:
//    cut through, as SimGrid times one flow alone: fixed costs and latencies
//    add up, the narrowest bandwidth sets the rate). The message moves as one
//    circuit: contention-free except at the ports below; no store-and-forward
//    delay inside the network.
//  * Ports (the platform's per-node PortModel): a one-port node has a send
//    port and a receive port, each serving one transfer at a time; an
//    unlimited node (SimGrid routers, FATPIPE links, crossbar switches)
//    serves any number. A transfer holds, for its whole duration, its
//    sender's send port, its receiver's receive port, and both ports of every
//    one-port node it crosses (a shared link or a one-port router: this is
//    how the model makes two transfers over one WAN link wait for each
//    other). Bidirectional one-port (Legrand, Marchal, Robert 2003 sec. 2;
//    Beaumont, Marchal, Robert 2004 sec. 2.3, after Bhat, Raghavendra,
//    Prasanna 2003): a node may send and receive at once. The unidirectional
//    rule (one communication at a time, sending or receiving) is the
//    sender-speed cluster model's; Platform::from_cluster with
//    OnePortRule::unidirectional is exactly that model, which the tests use
//    to cross-check the graph planners against the cluster ones.
//  * Computation: combining one received partial result into a node's value
//    takes 1 / speed (free when the node gives no speed). A node combines its
//    inputs one at a time, in arrival order, as early as possible, overlapped
//    with its communications; it sends its combined value after its last
//    combine, and a reduce ends when the root's last combine ends.
// What the model does not capture: bandwidth sharing (transfers never share
// a one-port node, they wait; they share unlimited ones at full speed),
// store-and-forward delays, multi-port sends (send_overhead).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/platform.h"

namespace hetcoll {

enum class OnePortRule : std::uint8_t {
  bidirectional,   // a one-port node sends one and receives one at a time (platform graphs)
  unidirectional,  // one communication at a time (the sender-speed cluster rule)
};

inline constexpr double kNoRoute = std::numeric_limits<double>::infinity();

// A port: resource id 2 v (v's send port) or 2 v + 1 (its receive port; the
// same id as the send port under OnePortRule::unidirectional).
using PortId = std::uint32_t;

// The platform's routes (Platform::route) for many pairs at once. One finder
// serves many searches: its work arrays are reused and reset sparsely, and a
// shortest-path search stops once the targets asked for are settled, so a
// search costs only the part of the graph it needs. It gives exactly
// Platform::route's answer (tests/graph_model_test.cpp checks it): the
// shortest-path tie rule of shortest_paths.h does not depend on when the
// search stops.
class RouteFinder {
 public:
  RouteFinder(const Platform& platform, const std::vector<double>& edge_costs);

  // Routes from `source` to each of `targets` (same order): nullopt when
  // there is none; empty when the target is the source.
  std::vector<std::optional<Route>> routes_from(ProcessorIndex source, std::span<const ProcessorIndex> targets);

 private:
  const Platform& platform_;
  const std::vector<double>& edge_costs_;
  std::vector<double> distance_;
  std::vector<std::size_t> parent_edge_;
  std::vector<std::uint8_t> mark_;  // bit 0: wanted by this search, bit 1: settled
  std::vector<ProcessorIndex> touched_;
};

// The model of one operation on one platform for one message size.
// Holds a reference to the platform, which must outlive it.
class GraphNetwork {
 public:
  // Throws InputError when an edge needs a message size that is not given.
  GraphNetwork(const Platform& platform, std::optional<double> message_size,
               OnePortRule rule = OnePortRule::bidirectional);

  const Platform& platform() const { return *platform_; }
  std::optional<double> message_size() const { return message_size_; }
  OnePortRule one_port_rule() const { return rule_; }
  ProcessorIndex node_count() const { return platform_->size(); }

  const std::vector<double>& edge_costs() const { return edge_costs_; }
  // The time of one message on a route (Platform::route_time); kNoRoute for
  // an empty route.
  double route_time(std::span<const std::size_t> route) const;

  const std::vector<ProcessorIndex>& participants() const { return participants_; }
  bool is_participant(ProcessorIndex v) const { return !platform_->node(v).router; }

  // The platform's route from `from` to `to` (one search; use a RouteFinder
  // or a RouteMatrix for many).
  std::optional<Route> route(ProcessorIndex from, ProcessorIndex to) const;
  RouteFinder route_finder() const { return RouteFinder(*platform_, edge_costs_); }

  // Ports (see PortId). `held_ports` appends the ports a transfer from -> to
  // over `route` holds for its whole duration (none of an unlimited node).
  std::size_t port_count() const { return 2 * static_cast<std::size_t>(platform_->size()); }
  PortId send_port(ProcessorIndex v) const { return 2 * static_cast<PortId>(v); }
  PortId receive_port(ProcessorIndex v) const {
    return 2 * static_cast<PortId>(v) + (rule_ == OnePortRule::unidirectional ? 0 : 1);
  }
  bool one_port(ProcessorIndex v) const { return platform_->node(v).ports == PortModel::one_port; }
  void held_ports(ProcessorIndex from, ProcessorIndex to, std::span<const std::size_t> route,
                  std::vector<PortId>& out) const;
  // "a sends", "b receives", "sw forwards" (for messages).
  std::string describe_port(PortId port) const;

  // Time of one combine at v: 1 / speed, or 0 when v has no speed.
  double combine_time(ProcessorIndex v) const;
  bool has_computation() const { return has_computation_; }

  // Every transfer lasts at least max(smallest_send_cost, smallest_receive_cost):
  // a route's time is at least the message time of each of its edges, and its
  // first edge leaves a participant, its last enters one (lower bounds).
  double smallest_send_cost() const { return smallest_send_cost_; }
  double smallest_receive_cost() const { return smallest_receive_cost_; }
  double smallest_out_cost(ProcessorIndex v) const;
  double smallest_in_cost(ProcessorIndex v) const;
  // True when every participant is one-port (the doubling bounds need it).
  bool all_participants_one_port() const { return all_one_port_; }

  // Tolerance for comparing times on this platform (core/ids.h rule, relative
  // to the cheapest edge that costs anything).
  double tolerance() const { return time_tolerance(smallest_edge_cost_, smallest_edge_cost_); }

 private:
  const Platform* platform_;
  std::optional<double> message_size_;
  OnePortRule rule_;
  std::vector<double> edge_costs_;
  std::vector<ProcessorIndex> participants_;
  bool has_computation_ = false;
  bool all_one_port_ = true;
  double smallest_edge_cost_ = kNoRoute;
  double smallest_send_cost_ = kNoRoute;
  double smallest_receive_cost_ = kNoRoute;
};

// Routes between every ordered pair of a set of participants ("members"),
// stored flat: member i to member j is entry i * size + j, with the route's
// time, its edges and the ports it holds. Built with one route search per
// member: O(k · search) for k members, O(k² · route length) space.
// When every member's routes go through one hub (Platform::hub_route, e.g.
// the hosts of one SimGrid <cluster>), a route is the sender's half followed
// by the receiver's: the matrix then asks k hub routes instead of k² routes
// and keeps O(k) halves (O(k²) for the times only); route_parts() and
// port_parts() give the two halves, edges() and ports() join them on first
// use.
// The general matrix refuses (LimitError) when its routes would take more
// than kMaxRouteTableBytes (estimate_route_table: a path of 1,000 hosts
// holds 3.3e8 hops, about 5 GB), instead of failing to allocate.
// `reversed` describes the time-reversed problem used to plan reduces: entry
// i -> j then stands for the platform's transfer j -> i (its time, edges and
// ports), so a broadcast planned on the reversed matrix maps back onto the
// platform's own routes and ports exactly.
// What a RouteMatrix of `members` would hold, estimated from the routes of
// up to 16 members spread over the list (exact for k <= 16; a sampled mean
// otherwise): hops (edges over all k^2 routes), bytes, and the seconds
// building it takes at kRouteTableBytesPerSecond.
struct RouteTableEstimate {
  double hops = 0;
  double bytes = 0;
  double seconds = 0;
  bool through_hub = false;  // kept as halves through a hub: O(k) routes, no estimate needed
};
RouteTableEstimate estimate_route_table(const GraphNetwork& network, const std::vector<ProcessorIndex>& members);
inline constexpr double kMaxRouteTableBytes = 1024.0 * 1024 * 1024;
// A conservative rate of writing a route table (routes, ports, page faults).
inline constexpr double kRouteTableBytesPerSecond = 250e6;

class RouteMatrix {
 public:
  RouteMatrix() = default;
  RouteMatrix(const GraphNetwork& network, std::vector<ProcessorIndex> members, bool reversed = false);

  std::size_t size() const { return members_.size(); }
  const std::vector<ProcessorIndex>& members() const { return members_; }
  ProcessorIndex member(std::size_t i) const { return members_[i]; }
  bool reversed() const { return reversed_; }
  // True when the routes are kept as halves through a hub (see above).
  bool through_hub() const { return hub_; }

  double cost(std::size_t from, std::size_t to) const { return cost_[from * members_.size() + to]; }
  // True when every pair of distinct members has a route and all of them
  // take the same time (bit for bit): a cluster behind one switch.
  bool uniform_cost() const { return uniform_; }
  bool connected(std::size_t from, std::size_t to) const { return cost(from, to) < kNoRoute; }
  // The platform edges of the route, in travel order (when reversed(): of
  // the platform's route member(to) -> member(from)).
  std::span<const std::size_t> edges(std::size_t from, std::size_t to) const;
  // The ports the transfer holds (reversed(): the platform transfer's).
  std::span<const PortId> ports(std::size_t from, std::size_t to) const;

  // The same in at most two contiguous parts, without joining: the route
  // is `first` followed by `second`; the transfer holds the ports of both
  // (as a set: not in the order of ports()). On a through_hub() matrix the
  // first part of port_parts depends on `from` only and the second on `to`
  // only; otherwise the first part holds them all.
  template <class T>
  struct Parts {
    std::span<const T> first, second;
    std::size_t size() const { return first.size() + second.size(); }
  };
  Parts<std::size_t> route_parts(std::size_t from, std::size_t to) const;
  Parts<PortId> port_parts(std::size_t from, std::size_t to) const;

  // The member index of a node, or npos.
  std::size_t index_of(ProcessorIndex node) const;
  static constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();

 private:
  void join() const;

  std::vector<ProcessorIndex> members_;
  bool reversed_ = false;
  bool hub_ = false;
  bool uniform_ = false;
  std::vector<double> cost_;
  // Routes per pair (built by the constructor, or by join() for a hub matrix).
  mutable std::unique_ptr<std::once_flag> joined_;
  // Per entry (k*k): where its route and ports start in the pools, and how
  // many there are (entries are written row by row of the platform's
  // transfers, which is column by column of a reversed matrix).
  mutable std::vector<std::uint64_t> edge_begin_, port_begin_;
  mutable std::vector<std::uint32_t> edge_count_, port_count_;
  mutable std::vector<std::size_t> edge_pool_;
  mutable std::vector<PortId> port_pool_;
  // Through a hub, per member: its route to the hub and the ports a sender
  // holds on it (its send port first when one-port), its route from the hub
  // and the ports a receiver holds on it (its receive port first).
  std::vector<Route> up_, down_;
  std::vector<std::vector<PortId>> out_ports_, in_ports_;
  std::vector<char> sends_first_, receives_first_;
  std::vector<std::pair<ProcessorIndex, std::size_t>> index_;  // sorted (node, member index)
};

}  // namespace hetcoll
