// Draws the communication tree of a plan as SVG with a layered layout:
// one layer per hop from the root, children in message order, elbow edges.
#include "hetcoll/viz/tree_svg.h"

#include <algorithm>

#include "hetcoll/viz/tree_svg_internal.h"

#include "hetcoll/core/files.h"

namespace hetcoll {

namespace tree_internal {

std::string TreeWriter::draw() {
  svg::require_tree(plan_);
  phases_ = communication_tree(plan_, subject_.node_count);
  for (const auto& phase : phases_) panels_.push_back(lay_out(phase, options_.max_nodes));
  choose_time_scale();
  name_panels();
  measure_boxes();
  choose_direction();
  for (auto& panel : panels_) choose_columns_and_bands(panel);
  build_notes();
  compute_size();
  open_document();
  draw_header();
  for (const auto& panel : panels_) draw_panel(panel);
  out_.add_raw("</svg>\n");
  return out_.take();
}

}  // namespace tree_internal

using tree_internal::TreeSubject;
using tree_internal::TreeWriter;
using tree_internal::format_number;


std::string tree_svg(const MakespanPlan& plan, const Cluster& cluster, const TreeSvgOptions& options) {
  TreeSubject subject;
  subject.node_count = cluster.size();
  subject.id = [&cluster](ProcessorIndex p) { return std::string(cluster.id(p)); };
  subject.detail = [&cluster](ProcessorIndex p) { return "t=" + format_number(cluster.transmission_time(p)); };
  subject.headline_population = fmt::format("{} processor{}", cluster.size(), cluster.size() == 1 ? "" : "s");
  subject.time_floor = cluster.size() > 0 ? cluster.slowest_time() : 0;
  subject.counted = cluster.size();
  subject.time_unit = cluster.time_unit();
  return TreeWriter(plan, subject, options).draw();
}

std::string tree_svg(const MakespanPlan& plan, const GraphNetwork& network, const TreeSvgOptions& options) {
  const GraphPlanLabels labels = graph_plan_labels(plan, network);
  TreeSubject subject;
  subject.node_count = network.node_count();
  subject.id = [&network](ProcessorIndex p) { return network.platform().id(p); };
  subject.detail = labels.node_detail;
  subject.headline_population = labels.population;
  subject.transfer_class = labels.transfer_class;
  subject.route_text = labels.route_text;
  subject.class_names = labels.class_names;
  subject.counted = static_cast<ProcessorIndex>(network.participants().size());
  subject.nodes_word = "participant";
  const auto& participants = network.participants();
  const bool sites_shown = std::any_of(participants.begin(), participants.end(),
                                       [&](ProcessorIndex p) { return !labels.node_detail(p).empty(); });
  subject.detail_word = sites_shown ? "its site" : "";
  subject.time_unit = network.platform().time_unit();
  return TreeWriter(plan, subject, options).draw();
}

void write_tree_svg(const std::string& path, const MakespanPlan& plan, const Cluster& cluster, const TreeSvgOptions& options) {
  hetcoll::write_text_file(path, tree_svg(plan, cluster, options));
}

}  // namespace hetcoll
