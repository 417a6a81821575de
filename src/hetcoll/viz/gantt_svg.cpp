// Draws a makespan plan as an SVG Gantt chart: a row per processor, a solid
// bar per send, a hatched bar per receive, the time axis, the makespan and
// the lower bound, and a legend.
#include "hetcoll/viz/gantt_svg.h"

#include "hetcoll/viz/gantt_svg_internal.h"

#include <fmt/format.h>

#include "hetcoll/core/files.h"
#include "hetcoll/model/eager_model.h"

namespace hetcoll {

namespace gantt_internal {

std::string GanttWriter::draw() {
  summary_ = options_.summary && (subject_.group_time || subject_.group_name) &&
             subject_.rows.size() > static_cast<std::size_t>(std::max(options_.max_rows, 1));
  scan_transfers();
  if (summary_ && subject_.group_time) {
    select_groups();
  } else if (summary_) {
    select_groups_by_name();
  } else {
    select_rows_and_transfers();
  }
  compute_layout();
  open_document();
  draw_header();
  draw_rows();
  draw_time_axis();
  draw_markers();
  if (summary_) {
    draw_summary();
  } else {
    draw_arrows();
    draw_bars();
  }
  out_.add_raw("</svg>\n");
  return out_.take();
}

}  // namespace gantt_internal

using gantt_internal::GanttSubject;
using gantt_internal::GanttWriter;
using gantt_internal::format_number;


std::string gantt_svg(const MakespanPlan& plan, const Cluster& cluster, const GanttOptions& options) {
  GanttSubject subject;
  subject.node_count = cluster.size();
  subject.rows.resize(static_cast<std::size_t>(cluster.size()));
  subject.row_of.resize(static_cast<std::size_t>(cluster.size()));
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    subject.rows[static_cast<std::size_t>(p)] = p;
    subject.row_of[static_cast<std::size_t>(p)] = static_cast<int>(p);
  }
  subject.id = [&cluster](ProcessorIndex p) { return std::string(cluster.id(p)); };
  subject.detail = [&cluster](ProcessorIndex p) { return "t=" + format_number(cluster.transmission_time(p)); };
  subject.headline_population = fmt::format("{} processor{}", cluster.size(), cluster.size() == 1 ? "" : "s");
  subject.time_unit = cluster.time_unit();
  subject.group_time = [&cluster](ProcessorIndex p) { return cluster.transmission_time(p); };
  return GanttWriter(plan, subject, options).draw();
}

std::string gantt_svg(const MakespanPlan& plan, const GraphNetwork& network, const GanttOptions& options) {
  const Platform& platform = network.platform();
  GraphPlanLabels labels = graph_plan_labels(plan, network);
  GanttSubject subject;
  subject.node_count = platform.size();
  subject.row_of.assign(static_cast<std::size_t>(platform.size()), -1);
  auto add_row = [&](ProcessorIndex v, bool network_row) {
    subject.row_of[static_cast<std::size_t>(v)] = static_cast<int>(subject.rows.size());
    subject.rows.push_back(v);
    subject.network_row.push_back(network_row ? 1 : 0);
  };
  for (auto v : network.participants()) add_row(v, false);
  // Rows for the one-port network nodes (links, routers) the messages cross,
  // busiest first (at most 12; a note counts the others): where the plan's
  // messages hold the network and wait for each other. Not for an
  // eager plan: its messages hold a link only for their occupancy (a
  // broadcast at the start of each transfer, a reduce at its end) and never
  // wait for each other in the network, so bars over whole transfers there
  // would show conflicts that the model does not have.
  std::vector<ProcessorIndex> shared;
  for (ProcessorIndex v = 0; v < platform.size() && plan.model != PlanModel::eager; ++v) {
    if (labels.crossings[static_cast<std::size_t>(v)] > 0) shared.push_back(v);
  }
  std::stable_sort(shared.begin(), shared.end(), [&](ProcessorIndex a, ProcessorIndex b) {
    return labels.crossings[static_cast<std::size_t>(a)] > labels.crossings[static_cast<std::size_t>(b)];
  });
  constexpr std::size_t kNetworkRows = 12;
  subject.network_nodes_crossed = shared.size();
  subject.unlimited_nodes_crossed = plan.model == PlanModel::eager ? 0 : labels.unlimited_crossed;
  if (shared.size() > kNetworkRows) {
    subject.network_nodes_left_out = shared.size() - kNetworkRows;
    subject.most_crossings_left_out = labels.crossings[static_cast<std::size_t>(shared[kNetworkRows])];
    shared.resize(kNetworkRows);
  }
  std::sort(shared.begin(), shared.end());
  for (auto v : shared) add_row(v, true);
  subject.id = [&platform](ProcessorIndex p) { return platform.id(p); };
  subject.detail = labels.node_detail;
  subject.headline_population = labels.population;
  subject.nodes_word = "nodes";
  subject.container_word = "platform";
  subject.time_unit = network.platform().time_unit();
  subject.transfer_class = std::move(labels.transfer_class);
  subject.crossed = std::move(labels.crossed);
  subject.route_text = std::move(labels.route_text);
  subject.class_names = std::move(labels.class_names);
  subject.group_name = subject.detail;
  if (plan.model == PlanModel::eager) {
    // Only the drawn transfers ask (one route search each).
    subject.occupancy_at_end = plan.operation == Operation::reduce;
    subject.occupancy = [&network](const Transfer& transfer) {
      if (!transfer.route.empty()) return eager_cost(network, transfer.route).occupancy;
      const auto route = network.route(transfer.from, transfer.to);
      return route && !route->empty() ? eager_cost(network, *route).occupancy : 0.0;
    };
  }
  return GanttWriter(plan, subject, options).draw();
}

void write_gantt_svg(const std::string& path, const MakespanPlan& plan, const Cluster& cluster, const GanttOptions& options) {
  hetcoll::write_text_file(path, gantt_svg(plan, cluster, options));
}

}  // namespace hetcoll
