#include "visual_outputs.h"

#include "hetcoll/viz/gantt_svg.h"
#include "hetcoll/viz/tree_dot.h"
#include "hetcoll/viz/tree_svg.h"

namespace hetcoll::cli {

std::string gantt_picture(const MakespanPlan& plan, const Cluster& cluster) { return gantt_svg(plan, cluster); }

std::string tree_picture(const MakespanPlan& plan, const Cluster& cluster, const std::string& path) {
  const bool svg = path.size() >= 4 && path.compare(path.size() - 4, 4, ".svg") == 0;
  return svg ? tree_svg(plan, cluster) : tree_dot(plan, cluster);
}

}  // namespace hetcoll::cli
