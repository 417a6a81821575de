// Pipelined broadcast trees on a platform graph and their throughput
// (Beaumont, Marchal, Robert 2004, sec. 2-3): the message is cut into slices
// and every slice follows the same spanning tree from the source.
//
// A tree is a set of logical edges u -> v, each carried by a route: the
// physical platform edges of a path from u to v (one edge when u -> v is a
// platform edge; several for Alg. 4's routed transfers). Every route is
// charged on every physical edge it uses, once per use: a slice that crosses
// a link for two logical edges crosses it twice.
//
// Models (a slice of `slice_size` bytes takes c(e) on edge e):
//  * bidirectional one-port (sec. 3.1): node u's period is
//    max(sum of c(e) over the routed uses leaving u, sum over those entering
//    u); the tree's period is the largest node period.
//  * multi-port (sec. 3.2, eq. 1): node u's period is
//    max(d_out(u) x send_u, largest c(e) of a use leaving u), d_out(u) the
//    number of uses leaving u, and a link used k times is busy k x c(e);
//    send_u is the node's send_overhead or, absent, 0.8 x its fastest
//    outgoing edge (the paper's rule, Table 2).
// Throughput = 1 / period slices per time unit.
//
// A node whose `ports` is unlimited (a SimGrid router or switch) is not
// serialised in either model: its period is its busiest single link, in or
// out (uses x c(e)).
//
// Routers (PlatformNode::router) forward but need not receive: a tree must
// reach every participant; it may pass through routers.
//
// Stable interface (used by the heuristics, verify/, experiments and the
// CLI): BroadcastTree, TreeCosts, make_tree_costs, evaluate_tree.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/platform.h"

namespace hetcoll {

enum class BroadcastModel { one_port, multi_port };

std::string_view port_model_name(BroadcastModel model);  // "one-port", "multi-port"

struct RoutedTreeEdge {
  ProcessorIndex from = kNoProcessor;
  ProcessorIndex to = kNoProcessor;
  std::vector<std::size_t> route;  // platform edge indices, from -> to in order
};

struct BroadcastTree {
  ProcessorIndex source = kNoProcessor;
  std::vector<RoutedTreeEdge> edges;  // in the order the algorithm added them
};

// Per-slice times of every platform edge and the multi-port send overheads.
struct TreeCosts {
  BroadcastModel model = BroadcastModel::one_port;
  std::optional<double> slice_size;  // bytes; absent when every edge has a fixed cost
  std::vector<double> edge_time;     // per platform edge, one slice
  std::vector<double> send_time;     // per node, multi-port send overhead of one slice
  std::vector<char> unlimited_ports; // per node: PortModel::unlimited (not serialised)
};

// What a node's period is made of, over the routed uses of its edges.
struct NodeLoad {
  double out_sum = 0;       // summed slice times of uses leaving the node
  double out_longest = 0;   // busiest outgoing link (uses x c(e))
  int out_count = 0;        // uses leaving the node
  double in_sum = 0;        // summed slice times of uses entering it
  double in_longest = 0;    // busiest incoming link

  // One more use of an outgoing edge taking `time` (a link used once).
  NodeLoad with_send(double time) const {
    NodeLoad next = *this;
    next.out_sum += time;
    next.out_longest = out_longest > time ? out_longest : time;
    ++next.out_count;
    return next;
  }
};

// The node's period under costs.model (see above).
double node_period(const TreeCosts& costs, ProcessorIndex v, const NodeLoad& load);

// Throws InputError (naming `slice_size`) when the platform has
// latency/bandwidth edges and no slice size is given.
TreeCosts make_tree_costs(const Platform& platform, std::optional<double> slice_size, BroadcastModel model);

struct TreeEvaluation {
  double period = 0;       // time units per slice
  double throughput = 0;   // slices per time unit
  ProcessorIndex bottleneck = kNoProcessor;  // a node whose period is the tree's (lowest index)
  std::vector<double> node_period;           // per node
};

// The throughput of a tree under `costs.model` (see above). Does not check
// that the tree spans anything: verify/ does.
TreeEvaluation evaluate_tree(const Platform& platform, const BroadcastTree& tree, const TreeCosts& costs);

// A tree whose edges are all platform edges, from a parent edge per node
// (kNoEdge-free entries only), in the order given.
BroadcastTree tree_from_edges(ProcessorIndex source, const Platform& platform, const std::vector<std::size_t>& edges);

}  // namespace hetcoll
