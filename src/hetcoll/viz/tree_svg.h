// The communication tree of a makespan plan drawn directly as SVG (no
// Graphviz needed).
//
// Layered layout: a node's layer is its hop count from the root, children
// are placed in the order of their messages (the j-th child of a broadcast
// sender is the j-th one it serves), each parent centred over its subtree.
// Boxes show the processor id, t and when it is ready (holds the message, or
// for a reduce all of its inputs); elbow edges carry the message interval.
// Broadcast edges (blue) point away from the root, reduce edges (orange)
// towards it; an all-reduce gives two panels, phase 1 above phase 2.
// Narrow trees grow downwards; wide ones grow to the right with one-line
// boxes so that they stay readable. Pictures that would not fit a screen
// are folded: the many children of a node (a star, a wide root) go with
// their subtrees into several framed columns, filled in message order; deep
// trees are wrapped into bands
// of levels. Large trees keep their first `max_nodes`
// processors in breadth-first order, mark cut subtrees with "+k" and say how
// many processors were left out.
#pragma once

#include <cstddef>
#include <string>

#include "hetcoll/model/cluster.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct TreeSvgOptions {
  enum class Direction { automatic, top_down, left_to_right };
  Direction direction = Direction::automatic;
  std::size_t max_nodes = 150;  // processors drawn per phase
  int max_top_down_width = 1400;  // automatic: wider top-down trees are drawn left to right
};

std::string tree_svg(const MakespanPlan& plan, const Cluster& cluster, const TreeSvgOptions& options = {});
// A plan on a platform graph: boxes say each participant's site, edges are
// coloured (and thicker) by the slowest link class on the message's route,
// tooltips give the route (viz/graph_plan_labels.h).
std::string tree_svg(const MakespanPlan& plan, const GraphNetwork& network, const TreeSvgOptions& options = {});

// Writes tree_svg() to `path` (throws std::runtime_error on I/O failure).
void write_tree_svg(const std::string& path, const MakespanPlan& plan, const Cluster& cluster,
                    const TreeSvgOptions& options = {});

}  // namespace hetcoll
