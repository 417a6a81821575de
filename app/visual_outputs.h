// Pictures for --gantt and --dot (thin wrappers over src/hetcoll/viz/).
#pragma once

#include <string>

#include "hetcoll/model/cluster.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll::cli {

std::string gantt_picture(const MakespanPlan& plan, const Cluster& cluster);
// DOT text, or an SVG drawing when `path` ends in ".svg".
std::string tree_picture(const MakespanPlan& plan, const Cluster& cluster, const std::string& path);
std::string gantt_picture(const MakespanPlan& plan, const GraphNetwork& network);
std::string tree_picture(const MakespanPlan& plan, const GraphNetwork& network, const std::string& path);

}  // namespace hetcoll::cli
