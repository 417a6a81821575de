#include "visual_outputs.h"

#include "hetcoll/viz/gantt_svg.h"
#include "hetcoll/viz/tree_dot.h"
#include "hetcoll/viz/tree_svg.h"

namespace hetcoll::cli {

std::string gantt_picture(const MakespanPlan& plan, const Cluster& cluster) { return gantt_svg(plan, cluster); }

namespace {
bool is_svg(const std::string& path) { return path.size() >= 4 && path.compare(path.size() - 4, 4, ".svg") == 0; }
}  // namespace

std::string tree_picture(const MakespanPlan& plan, const Cluster& cluster, const std::string& path) {
  return is_svg(path) ? tree_svg(plan, cluster) : tree_dot(plan, cluster);
}

std::string gantt_picture(const MakespanPlan& plan, const GraphNetwork& network) { return gantt_svg(plan, network); }

std::string tree_picture(const MakespanPlan& plan, const GraphNetwork& network, const std::string& path) {
  return is_svg(path) ? tree_svg(plan, network) : tree_dot(plan, network);
}

}  // namespace hetcoll::cli
