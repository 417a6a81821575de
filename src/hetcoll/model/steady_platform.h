// The exact view of a platform graph that the steady-state linear programs
// use (Legrand, Marchal, Robert 2003 sec. 2; bidirectional one-port model).
//
// * c(e): the time of one message over edge e, as an exact rational (the
//   decimal the user wrote: core/rational.h), for `message_size` bytes on
//   latency/bandwidth edges.
// * Ports: a node of PortModel::one_port sends on one edge and receives on
//   one edge at a time — the port rows (2) and (3) of the paper; a node of
//   PortModel::unlimited (SimGrid FATPIPE links, SimGrid routers, switches)
//   has no port rows.
// * A *free* edge costs no port time: c(e) = 0 (a wire), or both ends have
//   unlimited ports. Free edges are fine unless a message can travel from
//   its source to its target on free edges only: then the throughput is
//   unbounded and the platform is rejected (InputError, naming the pair).
// * Computing: a participant with `speed` s takes 1/s per reduction task; a
//   node without `speed` computes for free (no compute row).
// * Routers (PlatformNode::router: routers, links, hosts left out of the
//   participants) forward messages but are never sources, targets or
//   participants, and never compute.
// * Parallel edges: of several edges from one node to another only the
//   cheapest (then the first) is used — the others occupy the same ports for
//   longer — so a transfer is named by its two ends.
// Linear programs route freely on the graph (any path, several paths at
// once), as the paper's model does; a platform's declared routes are not
// imposed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hetcoll/core/rational.h"
#include "hetcoll/model/platform.h"

namespace hetcoll {

struct SteadyPlatform {
  const Platform* platform = nullptr;
  std::optional<double> message_size;
  std::vector<Rational> cost;                         // per edge
  std::vector<char> one_port;                         // per node
  std::vector<std::optional<Rational>> compute_time;  // per node: 1/speed, nullopt = free
  std::vector<char> usable;                           // per edge: not a self-loop, not a dearer parallel edge

  ProcessorIndex size() const { return platform->size(); }
  bool free_edge(std::size_t edge) const;
  // The usable edge from -> to, if any.
  std::optional<std::size_t> edge_between(ProcessorIndex from, ProcessorIndex to) const;
  // Nodes reachable from `from` (all edges, or only free edges).
  std::vector<char> reachable_from(ProcessorIndex from, bool free_edges_only) const;
};

// Throws InputError when an edge needs a message size that was not given.
SteadyPlatform make_steady_platform(const Platform& platform, std::optional<double> message_size);

// Checks a node given as a source, target or participant (`role`): it must
// be a host that takes part (not a router or link). Throws InputError.
void require_participant(const Platform& platform, ProcessorIndex node, const std::string& role);

}  // namespace hetcoll
