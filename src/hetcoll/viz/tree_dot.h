// The communication tree of a makespan plan as Graphviz DOT text
// (render with `dot -Tsvg tree.dot -o tree.svg`).
//
// Nodes show the processor id, its transmission time t and when it is
// ready (holds the message, or for a reduce all of its inputs); edges show
// the interval of the message. The root is drawn on top, children left to
// right in the order of their messages (ordering=out). Broadcast edges
// point away from the root (blue); reduce edges point towards it (orange,
// drawn with dir=back so the root stays on top). An all-reduce gives two
// clusters side by side, phase 1 (reduce) and phase 2 (broadcast).
// Large trees keep their first `max_nodes` processors in breadth-first
// order; a "+k more" node marks each cut subtree and the graph label says
// how many processors were left out.
#pragma once

#include <cstddef>
#include <string>

#include "hetcoll/model/cluster.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct TreeDotOptions {
  std::size_t max_nodes = 1000;  // processors drawn per phase
};

std::string tree_dot(const MakespanPlan& plan, const Cluster& cluster, const TreeDotOptions& options = {});
// A plan on a platform graph: nodes show their site, edges are coloured by
// the slowest link class of the message's route (tooltips: the route).
std::string tree_dot(const MakespanPlan& plan, const GraphNetwork& network, const TreeDotOptions& options = {});

// Writes tree_dot() to `path` (throws std::runtime_error on I/O failure).
void write_tree_dot(const std::string& path, const MakespanPlan& plan, const Cluster& cluster,
                    const TreeDotOptions& options = {});

}  // namespace hetcoll
