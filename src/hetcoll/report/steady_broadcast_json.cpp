#include "hetcoll/report/steady_broadcast_json.h"

#include <fmt/format.h>

#include "hetcoll/core/rational.h"
#include "hetcoll/plan/pipelined_plan_json.h"
#include "hetcoll/plan/plan_json.h"

namespace hetcoll {

void write_latency_aware_json(std::ostream& json, const LatencyAwareChoice& choice) {
  const auto& single = *choice.single_tree.makespan;
  const auto& multi = choice.multi_tree;
  json << "{\"message_size\": " << fmt::format("{}", choice.message_size)
       << ", \"choice\": \"" << (choice.multi_tree_chosen ? "multi-tree" : "single-tree") << "\""
       << ", \"chosen_trees\": " << choice.chosen_trees() << ", \"chosen\": " << json_quote(choice.chosen_name())
       << ",\n  \"single_tree\": {\"heuristic\": " << json_quote(choice.single_tree.algorithm)
       << ", \"slice_size\": " << fmt::format("{}", single.slice_size) << ", \"slices\": " << single.slices
       << ", \"period\": " << fmt::format("{}", single.period)
       << ", \"first_slice_time\": " << fmt::format("{}", single.first_slice)
       << ", \"predicted_makespan\": " << fmt::format("{}", single.makespan) << "}"
       << ",\n  \"multi_tree\": {\"slice_size\": " << fmt::format("{}", multi.slice_size)
       << ", \"slices\": " << multi.slices << ", \"slices_per_round\": " << multi.rounds.slices_per_round
       << ", \"trees_used\": " << multi.rounds.trees_used << ", \"tree_slices\": [";
  for (size_t i = 0; i < multi.rounds.tree_slices.size(); ++i) json << (i ? ", " : "") << multi.rounds.tree_slices[i];
  json << "], \"round_length\": " << fmt::format("{}", multi.rounds.round_length)
       << ", \"depth\": " << multi.rounds.depth << ", \"throughput\": " << fmt::format("{}", multi.rounds.throughput())
       << ", \"predicted_makespan\": " << fmt::format("{}", multi.makespan)
       << ", \"packing_slice_size\": " << fmt::format("{}", choice.packing_slice_size) << "}}";
}

void write_steady_broadcast_json(std::ostream& json, const Platform& platform, const SteadyBroadcastResult& result) {
  const SsbSolution& solution = result.optimum;
  const MultiTreePacking& packing = result.packing;
  json << "{\"operation\": \"broadcast\", \"algorithm\": \"ssb-lp\", \"source\": " << json_quote(platform.id(result.source))
       << ", \"slice_size\": " << (result.slice_size ? fmt::format("{}", *result.slice_size) : "null")
       << ", \"throughput\": \"" << to_string(solution.throughput) << "\", \"throughput_value\": "
       << fmt::format("{}", solution.throughput_value()) << ", \"valid\": " << (result.valid() ? "true" : "false")
       << ",\n \"lp\": {\"rows\": " << solution.lp_rows << ", \"columns\": " << solution.lp_columns
       << ", \"cuts\": " << solution.targets_in_lp << ", \"floating_rounds\": " << solution.floating_rounds
       << ", \"rounds\": " << solution.rounds
       << ", \"method\": " << json_quote(solution.lp_method) << ", \"seconds\": " << fmt::format("{}", solution.seconds)
       << "},\n \"edge_rates\": [";
  bool first = true;
  for (size_t e = 0; e < platform.edges().size(); ++e) {
    if (sgn(solution.edge_rates[e]) == 0) continue;
    const auto& edge = platform.edges()[e];
    json << (first ? "" : ",\n   ") << "{\"from\": " << json_quote(platform.id(edge.from))
         << ", \"to\": " << json_quote(platform.id(edge.to)) << ", \"rate\": \"" << to_string(solution.edge_rates[e])
         << "\"}";
    first = false;
  }
  json << "],\n \"multi_tree\": {\"reaches_optimum\": " << (packing.reaches_optimum ? "true" : "false")
       << (packing.reaches_optimum ? "" : ", \"shortfall\": " + json_quote(packing.shortfall))
       << ", \"search_trees\": " << packing.search_trees << ", \"generated_trees\": " << packing.generated_trees
       << ", \"tree_count\": " << packing.trees.size() << ", \"period\": \"" << to_string(result.schedule.period)
       << "\", \"matchings\": " << result.schedule.slots.size() << ", \"seconds\": " << fmt::format("{}", packing.seconds)
       << ",\n  \"trees\": [";
  for (size_t i = 0; i < packing.trees.size(); ++i) {
    json << (i ? ",\n   " : "") << "{\"weight\": \"" << to_string(packing.trees[i].weight) << "\", \"weight_value\": "
         << fmt::format("{}", to_double(packing.trees[i].weight)) << ", \"edges\": ";
    write_tree_edges_json(json, platform, packing.trees[i].tree);
    json << "}";
  }
  json << "]},\n \"certificate\": {\"formulation\": " << json_quote(solution.certificate.formulation)
       << ", \"bound\": \"" << to_string(solution.certificate.bound) << "\", \"duals\": [";
  for (size_t i = 0; i < solution.certificate.duals.size(); ++i) {
    const auto& dual = solution.certificate.duals[i];
    json << (i ? ", " : "") << "{\"row\": " << json_quote(dual.row.kind) << ", \"keys\": [";
    for (size_t k = 0; k < dual.row.keys.size(); ++k) json << (k ? ", " : "") << json_quote(dual.row.keys[k]);
    json << "], \"value\": \"" << to_string(dual.value) << "\"}";
  }
  json << "]}";
  if (result.latency_aware) {
    json << ",\n \"latency_aware\": ";
    write_latency_aware_json(json, *result.latency_aware);
  }
  json << "}\n";
}

}  // namespace hetcoll
