#include "hetcoll/model/platform.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/cluster.h"

namespace hetcoll {

std::string_view to_string(NodeKind kind) {
  switch (kind) {
    case NodeKind::host:
      return "host";
    case NodeKind::router:
      return "router";
    case NodeKind::link:
      return "link";
  }
  return "host";
}

std::string_view to_string(PortModel ports) {
  return ports == PortModel::unlimited ? "unlimited" : "one-port";
}

double PlatformEdge::message_time(std::optional<double> message_size) const {
  if (cost) return *cost;
  if (!message_size) {
    throw InputError("message_size", "edges with latency/bandwidth need a message size in bytes to become costs");
  }
  return latency.value_or(0.0) + *message_size / *bandwidth;
}

namespace {
// The field name is built only when the value is bad: platforms have
// millions of edges.
template <typename FieldName>
void require_positive(std::optional<double> value, std::string_view source, FieldName&& field_name,
                      bool allow_zero = false) {
  if (!value) return;
  bool ok = std::isfinite(*value) && (allow_zero ? *value >= 0 : *value > 0);
  if (!ok) {
    throw InputError(fmt::format("{}: {}: must be a {} finite number, got {}", source, field_name(),
                                 allow_zero ? "non-negative" : "positive", *value));
  }
}

// Costs and latencies at most `largest` (core/ids.h, largest_accepted_time),
// and no positive value below `smallest` (the smallest accepted time for a
// cost or latency; the smallest normal double for a bandwidth, whose small
// values make large costs, checked with the message size in edge_costs).
template <typename FieldName>
void require_in_range(std::optional<double> value, double largest, double smallest, std::string_view source,
                      FieldName&& field_name, ProcessorIndex nodes, std::string_view where) {
  if (!value || *value == 0) return;
  if (*value > largest) {
    throw InputError(fmt::format("{}: {}: {} is too large for {} nodes: plans add up to 4 x {}^2 costs, beyond the "
                                 "largest double (1.8e308); give at most {:.3g} (rescale, e.g. to another unit){}",
                                 source, field_name(), *value, nodes, nodes, largest, where));
  }
  if (*value < smallest) {
    throw InputError(fmt::format("{}: {}: {} is too small: values below {:.2g} (subnormal, or with a subnormal "
                                 "tolerance) lose precision; rescale them, e.g. to another unit{}",
                                 source, field_name(), *value, smallest, where));
  }
}

std::uint64_t pair_key(ProcessorIndex from, ProcessorIndex to) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) | static_cast<std::uint32_t>(to);
}
}  // namespace

Platform::Platform(std::vector<PlatformNode> nodes, std::vector<PlatformEdge> edges, std::string_view source_name,
                   std::shared_ptr<const PlatformRouting> routing)
    : nodes_(std::move(nodes)), edges_(std::move(edges)), routing_(std::move(routing)) {
  if (nodes_.empty()) throw InputError(fmt::format("{}: nodes: the platform has no nodes", source_name));
  index_of_.reserve(nodes_.size());
  for (size_t v = 0; v < nodes_.size(); ++v) {
    const auto& node = nodes_[v];
    if (node.id.empty()) throw InputError(fmt::format("{}: nodes[{}].id: must not be empty", source_name, v));
    auto [it, inserted] = index_of_.emplace(node.id, static_cast<ProcessorIndex>(v));
    if (!inserted) {
      throw InputError(fmt::format("{}: nodes[{}].id: duplicate id \"{}\" (also nodes[{}])", source_name,
                                   v, node.id, it->second));
    }
    if (node.kind != NodeKind::host && !node.router) {
      throw InputError(fmt::format("{}: nodes[{}]: a {} is a network element and must be a router", source_name, v,
                                   to_string(node.kind)));
    }
    require_positive(node.speed, source_name, [&] { return fmt::format("nodes[{}].speed", v); });
    require_positive(node.send_overhead, source_name, [&] { return fmt::format("nodes[{}].send_overhead", v); }, true);
  }
  out_.assign(nodes_.size(), {});
  in_.assign(nodes_.size(), {});
  const auto n = static_cast<ProcessorIndex>(nodes_.size());
  const double largest = largest_accepted_time(static_cast<double>(n));
  for (size_t e = 0; e < edges_.size(); ++e) {
    const auto& edge = edges_[e];
    if (edge.from < 0 || edge.from >= n || edge.to < 0 || edge.to >= n) {
      throw InputError(fmt::format("{}: edges[{}]: names an unknown node", source_name, e));
    }
    if (edge.from == edge.to) {
      throw InputError(fmt::format("{}: edges[{}]: a node cannot send to itself ({})", source_name, e,
                                   nodes_[static_cast<size_t>(edge.from)].id));
    }
    require_positive(edge.cost, source_name, [&] { return fmt::format("edges[{}].cost", e); }, true);
    require_positive(edge.latency, source_name, [&] { return fmt::format("edges[{}].latency", e); }, true);
    require_positive(edge.bandwidth, source_name, [&] { return fmt::format("edges[{}].bandwidth", e); });
    // The edge's ends, named: a SimGrid file has no edge list to count in.
    const std::string where = fmt::format(" (the edge from \"{}\" to \"{}\")", nodes_[static_cast<size_t>(edge.from)].id,
                                          nodes_[static_cast<size_t>(edge.to)].id);
    require_in_range(edge.cost, largest, kSmallestTransmissionTime, source_name,
                     [&] { return fmt::format("edges[{}].cost", e); }, n, where);
    require_in_range(edge.latency, largest, kSmallestTransmissionTime, source_name,
                     [&] { return fmt::format("edges[{}].latency", e); }, n, where);
    require_in_range(edge.bandwidth, std::numeric_limits<double>::max(), std::numeric_limits<double>::min(),
                     source_name, [&] { return fmt::format("edges[{}].bandwidth", e); }, n, where);
    if (!edge.cost && !edge.bandwidth) {
      throw InputError(fmt::format("{}: edges[{}]: needs \"cost\", or \"bandwidth\" (and \"latency\")",
                                   source_name, e));
    }
    out_[static_cast<size_t>(edge.from)].push_back(e);
    in_[static_cast<size_t>(edge.to)].push_back(e);
  }
}

Platform Platform::from_cluster(const Cluster& cluster) {
  std::vector<PlatformNode> nodes;
  nodes.reserve(static_cast<size_t>(cluster.size()));
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) nodes.push_back({std::string(cluster.id(p)), std::nullopt, std::nullopt});
  std::vector<PlatformEdge> edges;
  for (ProcessorIndex from = 0; from < cluster.size(); ++from) {
    for (ProcessorIndex to = 0; to < cluster.size(); ++to) {
      if (from == to) continue;
      PlatformEdge edge;
      edge.from = from;
      edge.to = to;
      edge.cost = cluster.transmission_time(from);
      edges.push_back(edge);
    }
  }
  return Platform(std::move(nodes), std::move(edges), "cluster");
}

std::optional<ProcessorIndex> Platform::find(std::string_view id_or_index) const {
  if (auto it = index_of_.find(std::string(id_or_index)); it != index_of_.end()) return it->second;
  return parse_processor_index(id_or_index, nodes_.size());
}

std::vector<double> Platform::edge_costs(std::optional<double> message_size) const {
  if (message_size && !(std::isfinite(*message_size) && *message_size > 0)) {
    throw InputError("message_size", fmt::format("must be a positive finite number of bytes, got {}", *message_size));
  }
  std::vector<double> costs;
  costs.reserve(edges_.size());
  const double largest = largest_accepted_time(static_cast<double>(nodes_.size()));
  for (const auto& edge : edges_) {
    costs.push_back(edge.message_time(message_size));
    const double cost = costs.back();
    if (!edge.cost && (!(cost <= largest) || (cost != 0 && cost < kSmallestTransmissionTime))) {
      throw InputError("message_size",
                       fmt::format("{:g} bytes over the edge from \"{}\" to \"{}\" (latency {}, bandwidth {}) take {}: "
                                   "{}; give a message size or bandwidths within range",
                                   *message_size, nodes_[static_cast<size_t>(edge.from)].id,
                                   nodes_[static_cast<size_t>(edge.to)].id, edge.latency.value_or(0.0),
                                   *edge.bandwidth, cost,
                                   cost < kSmallestTransmissionTime
                                       ? fmt::format("below {:.2g}, where doubles lose precision",
                                                     kSmallestTransmissionTime)
                                       : fmt::format("beyond {:.3g}, the most {} nodes allow (plans add up to 4 x "
                                                     "{}^2 costs; the largest double is 1.8e308)",
                                                     largest, nodes_.size(), nodes_.size())));
    }
  }
  return costs;
}

bool Platform::has_fixed_costs() const {
  for (const auto& edge : edges_) {
    if (!edge.cost) return false;
  }
  return true;
}

std::vector<ProcessorIndex> Platform::participants() const {
  std::vector<ProcessorIndex> result;
  for (ProcessorIndex v = 0; v < size(); ++v) {
    if (!node(v).router) result.push_back(v);
  }
  return result;
}

// ---------------------------------------------------------------- routing ---


std::optional<Route> Platform::declared_route(ProcessorIndex from, ProcessorIndex to) const {
  if (!routing_ || from == to) return std::nullopt;
  return routing_->declared_route(from, to);
}

std::optional<HubRoute> Platform::hub_route(ProcessorIndex v) const {
  if (!routing_) return std::nullopt;
  return routing_->hub_route(v);
}

double Platform::route_time(const Route& route, std::optional<double> message_size) const {
  return route_time(std::span<const std::size_t>(route), std::span<const std::size_t>(), message_size);
}

double Platform::route_time(std::span<const std::size_t> first, std::span<const std::size_t> second,
                            std::optional<double> message_size) const {
  double fixed = 0, latency = 0;
  double narrowest = std::numeric_limits<double>::infinity();
  for (auto part : {first, second}) {
    for (std::size_t e : part) {
      const PlatformEdge& edge = edges_[e];
      if (edge.cost) {
        fixed += *edge.cost;
      } else {
        latency += edge.latency.value_or(0.0);
        narrowest = std::min(narrowest, *edge.bandwidth);
      }
    }
  }
  if (narrowest == std::numeric_limits<double>::infinity()) return fixed + latency;
  if (!message_size) {
    throw InputError("message_size", "edges with latency/bandwidth need a message size in bytes to become costs");
  }
  return fixed + latency + *message_size / narrowest;
}

void RouteTable::set(ProcessorIndex from, ProcessorIndex to, Route route) {
  auto [it, inserted] = routes_.insert_or_assign(pair_key(from, to), std::move(route));
  if (inserted) order_.emplace_back(from, to);
}

bool RouteTable::contains(ProcessorIndex from, ProcessorIndex to) const {
  return routes_.count(pair_key(from, to)) > 0;
}

std::optional<Route> RouteTable::declared_route(ProcessorIndex from, ProcessorIndex to) const {
  auto it = routes_.find(pair_key(from, to));
  if (it == routes_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::pair<ProcessorIndex, ProcessorIndex>> RouteTable::declared_pairs() const { return order_; }

std::optional<std::string> route_problem(const Platform& platform, ProcessorIndex from, ProcessorIndex to,
                                         std::span<const std::size_t> route) {
  ProcessorIndex at = from;
  for (std::size_t step = 0; step < route.size(); ++step) {
    std::size_t e = route[step];
    if (e >= platform.edges().size()) return fmt::format("step {} names no edge", step);
    const PlatformEdge& edge = platform.edges()[e];
    if (edge.from != at) {
      return fmt::format("step {} leaves \"{}\", not \"{}\" where the route is", step, platform.id(edge.from),
                         platform.id(at));
    }
    at = edge.to;
  }
  if (at != to) return fmt::format("the route ends at \"{}\", not at \"{}\"", platform.id(at), platform.id(to));
  return std::nullopt;
}

}  // namespace hetcoll
