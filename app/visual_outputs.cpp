#include "visual_outputs.h"

#include "hetcoll/core/error.h"
#include "hetcoll/viz/gantt_svg.h"
#include "hetcoll/viz/tree_dot.h"
#include "hetcoll/viz/tree_svg.h"

namespace hetcoll::cli {

std::string gantt_picture(const MakespanPlan& plan, const Cluster& cluster) { return gantt_svg(plan, cluster); }

namespace {
bool is_svg(const std::string& path) { return path.size() >= 4 && path.compare(path.size() - 4, 4, ".svg") == 0; }

// The drawings' complaints about the plan (viz/plan_caption.h require_tree)
// are about what --dot asked for.
template <typename Draw>
std::string drawn_for_dot(Draw draw) {
  try {
    return draw();
  } catch (const InputError& error) {
    if (error.parameter() != "plan") throw;
    throw InputError(std::string("--dot") + (error.what() + error.parameter().size()));
  }
}
}  // namespace

std::string tree_picture(const MakespanPlan& plan, const Cluster& cluster, const std::string& path) {
  return drawn_for_dot([&] { return is_svg(path) ? tree_svg(plan, cluster) : tree_dot(plan, cluster); });
}

std::string gantt_picture(const MakespanPlan& plan, const GraphNetwork& network) { return gantt_svg(plan, network); }

std::string tree_picture(const MakespanPlan& plan, const GraphNetwork& network, const std::string& path) {
  return drawn_for_dot([&] { return is_svg(path) ? tree_svg(plan, network) : tree_dot(plan, network); });
}

}  // namespace hetcoll::cli
