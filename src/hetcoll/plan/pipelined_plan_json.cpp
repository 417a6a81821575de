#include "hetcoll/plan/pipelined_plan_json.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "hetcoll/plan/plan_json.h"

namespace hetcoll {

void write_tree_edges_json(std::ostream& out, const Platform& platform, const BroadcastTree& tree) {
  out << "[";
  for (size_t i = 0; i < tree.edges.size(); ++i) {
    const auto& edge = tree.edges[i];
    out << (i ? ",\n   " : "") << "{\"from\": " << json_quote(platform.id(edge.from))
        << ", \"to\": " << json_quote(platform.id(edge.to));
    if (edge.route.size() > 1) {
      out << ", \"route\": [" << json_quote(platform.id(edge.from));
      for (auto e : edge.route) out << ", " << json_quote(platform.id(platform.edges()[e].to));
      out << "]";
    }
    out << "}";
  }
  out << "]";
}

void write_pipelined_tree_json(std::ostream& out, const Platform& platform, const PipelinedTreePlan& plan) {
  auto number = [](double value) { return fmt::format("{}", value); };
  const auto& evaluation = plan.evaluation;
  out << "{\"operation\": \"pipelined-broadcast\", \"heuristic\": " << json_quote(plan.algorithm)
      << ", \"reference\": " << json_quote(plan.heuristic_reference)
      << ", \"model\": \"" << port_model_name(plan.port_model) << "\""
      << ", \"source\": " << json_quote(platform.id(plan.source));
  out << ", \"slice_size\": " << (plan.slice_size ? number(*plan.slice_size) : "null");
  if (plan.slice_size_chosen) out << ", \"slice_size_chosen\": true";
  if (plan.slice_size_within_one_percent) out << ", \"slice_size_rule\": \"fewest slices within 1% (no latency)\"";
  out << ",\n \"throughput\": " << number(evaluation.throughput) << ", \"period\": " << number(evaluation.period)
      << ", \"bottleneck\": " << json_quote(platform.id(evaluation.bottleneck));
  if (plan.optimal_throughput) {
    out << ", \"optimal_throughput\": " << number(*plan.optimal_throughput)
        << ", \"ratio\": " << number(evaluation.throughput / *plan.optimal_throughput);
  } else {
    out << ", \"optimal_throughput\": null, \"ratio\": null";
  }
  if (plan.searched()) {
    out << ", \"optimal\": " << (plan.limit_reached() ? "false" : "true") << ", \"search_nodes\": " << plan.stats.nodes
        << ", \"status\": \"" << to_string(plan.status) << "\"";
  }
  if (plan.makespan) {
    const auto& m = *plan.makespan;
    out << ",\n \"message_size\": " << number(*plan.message_size) << ", \"slices\": " << m.slices
        << ", \"first_slice_time\": " << number(m.first_slice) << ", \"predicted_makespan\": " << number(m.makespan);
  }
  out << ", \"valid\": " << (plan.valid() ? "true" : "false");
  out << ",\n \"edges\": ";
  write_tree_edges_json(out, platform, plan.tree);
  out << ",\n \"trees\": [{\"weight\": " << number(evaluation.throughput) << ", \"edges\": ";
  write_tree_edges_json(out, platform, plan.tree);
  out << "}]}\n";
}

}  // namespace hetcoll
