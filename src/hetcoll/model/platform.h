// The platform-graph model (Legrand, Marchal, Robert 2003 and Beaumont, Marchal, Robert 2004).
//
// A directed graph G = (V, E). An edge carries the time to send one message
// over it: a fixed `cost`, or an affine `latency + message_size / bandwidth`
// (SimGrid style, seconds and bytes/second). A node may have a compute
// `speed` (reduction operations per unit of time; absent = computing is free)
// and a `send_overhead` (multi-port model of Beaumont, Marchal, Robert 2004). Steady-state tools
// use the bidirectional one-port model: at most one send and one receive at a
// time per node, computation overlapped.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/cluster.h"

namespace hetcoll {

struct PlatformNode {
  std::string id;
  std::optional<double> speed;          // operations per unit of time
  std::optional<double> send_overhead;  // seconds per message sent (multi-port)
  // A router forwards messages but takes no part in collectives: it is never
  // a source, a target or a participant, and holds no data of its own.
  bool router = false;
};

struct PlatformEdge {
  ProcessorIndex from = kNoProcessor;
  ProcessorIndex to = kNoProcessor;
  std::optional<double> cost;       // time of one unit message
  std::optional<double> latency;    // seconds
  std::optional<double> bandwidth;  // bytes per second

  // The time of one message of `message_size` bytes: `cost` if given, else
  // latency + size / bandwidth. Throws InputError when the edge only has
  // latency/bandwidth and no message size was given.
  double message_time(std::optional<double> message_size) const;
};

class Platform {
 public:
  Platform() = default;
  // Validates ids (non-empty, unique), edge ends, and every number (positive
  // and finite; latency may be zero). `source_name` prefixes messages.
  Platform(std::vector<PlatformNode> nodes, std::vector<PlatformEdge> edges,
           std::string_view source_name = "platform");

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
  // The nodes that are not routers, in index order.
  std::vector<ProcessorIndex> participants() const;

 private:
  std::vector<PlatformNode> nodes_;
  std::vector<PlatformEdge> edges_;
  std::vector<std::vector<size_t>> out_;
  std::vector<std::vector<size_t>> in_;
  std::unordered_map<std::string, ProcessorIndex> index_of_;
};

}  // namespace hetcoll
