// steady broadcast: the multi-tree optimum of a pipelined broadcast (the SSB
// linear program of Beaumont, Marchal, Robert 2004, eq. 2).
#include <algorithm>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "cli_common.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/steady/pipelined/latency_aware.h"
#include "hetcoll/steady/broadcast/multi_tree.h"
#include "hetcoll/steady/broadcast/ssb_lp.h"
#include "hetcoll/plan/pipelined_plan_json.h"
#include "hetcoll/verify/verify_periodic.h"

namespace hetcoll::cli {
namespace {

struct SteadyBroadcastOptions {
  PlatformOptions platform;
  std::string source, out, schedule_out;
  std::optional<double> slice_size, message_size;
  bool json = false, quiet = false, detail = false;
};

// An exact number as text: the fraction when it is short enough to read.
std::string readable_exact(const Rational& value) {
  std::string exact = to_string(value);
  if (exact.size() <= 24) return fmt::format("{} = {:.6g}", exact, to_double(value));
  return fmt::format("{:.6g} (exact fraction of {} characters in --json)", to_double(value), exact.size());
}

// The default human output is a summary; the trees' edges and the edge rates
// come with --detail (a 65-node platform has ~10 trees of 64 edges each).
void print_steady_broadcast_summary(const Platform& platform, ProcessorIndex source, const std::vector<double>& times,
                                    const SsbSolution& solution, const MultiTreePacking& packing,
                                    const PeriodicPlan& schedule, const std::string& failure,
                                    const SteadyBroadcastOptions& options) {
  std::cout << fmt::format("pipelined broadcast from {}: multi-tree optimum (SSB LP, one-port)\n", platform.id(source));
  std::cout << fmt::format("throughput: {} slices per time unit (period {:.6g} per slice)\n",
                           readable_exact(solution.throughput), 1 / solution.throughput_value());
  std::cout << fmt::format("proof: dual certificate with {} cut rows, checked exactly; every target receives TP by "
                           "max-flow under the edge rates: {}\n",
                           solution.targets_in_lp, failure.empty() ? "valid" : "INVALID: " + failure);
  std::cout << fmt::format("LP: {} rows x {} columns, {} floating rounds of cut generation then {} exact solve{}, {}, "
                           "{:.3f} s\n",
                           solution.lp_rows, solution.lp_columns, solution.floating_rounds, solution.rounds,
                           solution.rounds == 1 ? "" : "s", solution.lp_method, solution.seconds);
  std::string period = to_string(schedule.period);
  std::cout << fmt::format("multi-tree schedule: {} trees, weights sum to {:.6g} = {} of the LP bound ({}); "
                           "one period of {} time units in {} one-port matchings, built in {:.3f} s\n",
                           packing.trees.size(), to_double(packing.total_weight),
                           sgn(solution.throughput)
                               ? fmt::format("{:.{}f}%", 100 * to_double(packing.total_weight / solution.throughput),
                                             packing.reaches_optimum ? 4 : 10)
                               : "100%",
                           packing.reaches_optimum ? "exactly the optimum" : "SHORT of the optimum",
                           period.size() > 300 ? fmt::format("an integer of {} digits", period.size())
                           : period.size() > 15 ? fmt::format("{:.6g} (an integer of {} digits)", to_double(schedule.period),
                                                              period.size())
                                              : period,
                           schedule.slots.size(), packing.seconds);
  if (options.quiet) return;
  std::vector<const WeightedBroadcastTree*> by_weight;
  for (const auto& tree : packing.trees) by_weight.push_back(&tree);
  std::stable_sort(by_weight.begin(), by_weight.end(),
                   [](const auto* a, const auto* b) { return a->weight > b->weight; });
  std::string weights;
  for (size_t i = 0; i < by_weight.size() && i < 8; ++i) {
    weights += fmt::format("{}{:.4g}", i ? ", " : "", to_double(by_weight[i]->weight));
  }
  if (by_weight.size() > 8) weights += fmt::format(", ... ({} more)", by_weight.size() - 8);
  std::cout << fmt::format("tree weights (slices per time unit, heaviest first): {}\n", weights);
  // Port utilisation: the fraction of time each port is busy at the optimum
  // (rates x slice times); the LP's one-port rows cap it at 100%.
  struct PortUse {
    ProcessorIndex node;
    const char* direction;
    double busy;
  };
  std::vector<double> sending(static_cast<size_t>(platform.size()), 0.0), receiving(sending);
  for (size_t e = 0; e < platform.edges().size(); ++e) {
    double busy = to_double(solution.edge_rates[e]) * times[e];
    sending[static_cast<size_t>(platform.edges()[e].from)] += busy;
    receiving[static_cast<size_t>(platform.edges()[e].to)] += busy;
  }
  std::vector<PortUse> ports;
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    if (platform.node(v).ports == PortModel::unlimited) continue;
    ports.push_back({v, "send", sending[static_cast<size_t>(v)]});
    ports.push_back({v, "receive", receiving[static_cast<size_t>(v)]});
  }
  std::stable_sort(ports.begin(), ports.end(), [](const PortUse& a, const PortUse& b) { return a.busy > b.busy; });
  size_t saturated = static_cast<size_t>(
      std::count_if(ports.begin(), ports.end(), [](const PortUse& p) { return p.busy > 1 - 1e-9; }));
  std::cout << fmt::format("busiest ports ({} saturated, busy 100% of the time):", saturated);
  for (size_t i = 0; i < ports.size() && i < 6; ++i) {
    std::cout << fmt::format("{} {} {} {:.1f}%", i ? "," : "", platform.id(ports[i].node), ports[i].direction,
                             100 * ports[i].busy);
  }
  std::cout << "\n";
  if (!options.detail) {
    std::cout << "(every tree's edges and every edge's rate: --detail, or --json)\n";
    return;
  }
  for (size_t i = 0; i < packing.trees.size(); ++i) {
    std::cout << fmt::format("  tree {}: weight {:.6g}:", i, to_double(packing.trees[i].weight));
    for (const auto& edge : packing.trees[i].tree.edges) {
      std::cout << " " << platform.id(edge.from) << "->" << platform.id(edge.to);
    }
    std::cout << "\n";
  }
  std::cout << "slices per time unit on each used edge:\n";
  for (size_t e = 0; e < platform.edges().size(); ++e) {
    if (sgn(solution.edge_rates[e]) == 0) continue;
    const auto& edge = platform.edges()[e];
    std::cout << fmt::format("  {} -> {}: {:.6g}\n", platform.id(edge.from), platform.id(edge.to),
                             to_double(solution.edge_rates[e]));
  }
}

void write_latency_aware_json(std::ostream& json, const LatencyAwareChoice& choice) {
  const auto& single = *choice.single_tree.makespan;
  const auto& multi = choice.multi_tree;
  json << ",\n \"latency_aware\": {\"message_size\": " << fmt::format("{}", choice.message_size)
       << ", \"choice\": \"" << (choice.multi_tree_chosen ? "multi-tree" : "single-tree") << "\""
       << ", \"chosen_trees\": " << choice.chosen_trees() << ", \"chosen\": " << json_quote(choice.chosen_name())
       << ",\n  \"single_tree\": {\"heuristic\": " << json_quote(choice.single_tree.heuristic)
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

void print_latency_aware_choice(const LatencyAwareChoice& choice) {
  const auto& single = *choice.single_tree.makespan;
  const auto& multi = choice.multi_tree;
  std::cout << fmt::format("message of {:.6g} bytes, predicted makespans (start-up + steady state):\n",
                           choice.message_size);
  std::cout << fmt::format("  one tree ({}): {:.6g} (slices of {:.6g} bytes x {}, period {:.6g}, first slice "
                           "{:.6g})\n",
                           choice.single_tree.heuristic, single.makespan, single.slice_size, single.slices,
                           single.period, single.first_slice);
  if (multi.rounds.trees_used == 1) {
    std::cout << fmt::format("  multi-tree packing, its heaviest tree alone (fewer slices than it takes to use "
                             "two trees well): {:.6g} (slices of {:.6g} bytes x {}, period {:.6g})\n",
                             multi.makespan, multi.slice_size, multi.slices,
                             multi.rounds.round_length / multi.rounds.slices_per_round);
  } else {
    std::cout << fmt::format("  multi-tree: {:.6g} (slices of {:.6g} bytes x {}, rounds of {} slices over {} of the "
                             "{} trees, each round {:.6g}, depth {} rounds, {:.6g} slices per time unit)\n",
                             multi.makespan, multi.slice_size, multi.slices, multi.rounds.slices_per_round,
                             multi.rounds.trees_used, choice.packing.trees.size(), multi.rounds.round_length,
                             multi.rounds.depth, multi.rounds.throughput());
  }
  double gain = choice.single_tree.makespan->makespan / multi.makespan;
  std::cout << (choice.multi_tree_chosen
                    ? fmt::format("choice: {}, {:.3g}x faster than the {} tree\n", choice.chosen_name(), gain,
                                  choice.single_tree.heuristic)
                    : fmt::format("choice: {}; the multi-tree schedule's start-up costs more than its "
                                  "throughput gains ({:.3g}x the one tree's makespan)\n",
                                  choice.chosen_name(), 1 / gain));
}

int run_steady_broadcast(const SteadyBroadcastOptions& options) {
  Platform platform = load_platform_graph(options.platform);
  ProcessorIndex source = resolve_node(platform, options.source, "--source");
  if (!options.slice_size && !options.message_size && !platform.has_fixed_costs()) {
    throw InputError("--slice-size: the platform's edges give latency/bandwidth; give the slice size in bytes, or "
                     "--message-size BYTES to choose the slice size and between one tree and many");
  }
  if (options.message_size && platform.has_fixed_costs()) {
    throw InputError("--message-size: the platform's edges have fixed costs (no latency/bandwidth), so there are no "
                     "bytes to cut into slices");
  }
  std::optional<LatencyAwareChoice> choice;
  std::optional<double> slice_size = options.slice_size;
  SsbSolution solution;
  MultiTreePacking packing;
  if (options.message_size) {
    LatencyAwareOptions latency_options;
    latency_options.slice_size = options.slice_size;
    choice = choose_broadcast_schedule(platform, source, *options.message_size, latency_options);
    slice_size = choice->packing_slice_size;
    solution = choice->optimum;
    packing = choice->packing;
  }
  auto times = make_tree_costs(platform, slice_size, BroadcastModel::one_port).edge_time;
  if (!choice) {
    solution = solve_ssb(platform, source, times);
    packing = pack_broadcast_trees(platform, source, times, solution);
  }
  PeriodicPlan schedule = multi_tree_schedule(platform, source, times, solution, packing);
  if (!platform.has_fixed_costs()) schedule.message_size = slice_size;
  // The verifier re-derives the certificate and runs the exact max-flows
  // (check_ssb_solution) when the trees reach the bound; otherwise the LP's
  // own rates are checked here. Once is enough: on dense 50-node platforms
  // the check against the full flow program takes seconds.
  PeriodicVerifyReport schedule_report = verify_periodic_plan(platform, schedule);
  std::string failure;
  if (!schedule_report.certificate_checked) failure = check_ssb_solution(platform, source, times, solution);
  if (!packing.reaches_optimum) failure += (failure.empty() ? "" : "; ") + std::string("the tree packing fell short: ") + packing.shortfall;
  if (!schedule_report.valid) failure += (failure.empty() ? "" : "; ") + schedule_report.summary();
  std::ostringstream json;
  json << "{\"operation\": \"broadcast\", \"algorithm\": \"ssb-lp\", \"source\": " << json_quote(platform.id(source))
       << ", \"slice_size\": " << (slice_size ? fmt::format("{}", *slice_size) : "null")
       << ", \"throughput\": \"" << to_string(solution.throughput) << "\", \"throughput_value\": "
       << fmt::format("{}", solution.throughput_value()) << ", \"valid\": " << (failure.empty() ? "true" : "false")
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
       << ", \"tree_count\": " << packing.trees.size() << ", \"period\": \"" << to_string(schedule.period)
       << "\", \"matchings\": " << schedule.slots.size() << ", \"seconds\": " << fmt::format("{}", packing.seconds)
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
  if (choice) write_latency_aware_json(json, *choice);
  json << "}\n";
  if (!options.out.empty()) write_file(options.out, json.str(), "--out");
  if (!options.schedule_out.empty()) {
    write_broadcast_schedule(options.schedule_out, schedule, platform, schedule_report.valid);
  }
  if (options.json) {
    std::cout << json.str();
  } else {
    print_steady_broadcast_summary(platform, source, times, solution, packing, schedule, failure, options);
    if (choice) print_latency_aware_choice(*choice);
  }
  return failure.empty() ? 0 : static_cast<int>(ExitCode::internal_error);
}

}  // namespace

void add_steady_broadcast_command(CLI::App& app, int& result) {
  CLI::App* steady = nullptr;
  for (auto* command : app.get_subcommands({})) {
    if (command->get_name() == "steady") steady = command;
  }
  if (!steady) {
    steady = app.add_subcommand("steady", "Steady-state throughput of a long series of operations on a platform graph");
    steady->require_subcommand(1);
  }
  auto options = std::make_shared<SteadyBroadcastOptions>();
  CLI::App* broadcast = steady->add_subcommand(
      "broadcast", "The best throughput of a pipelined broadcast using any number of trees: the SSB linear program "
                   "(Beaumont, Marchal, Robert 2004, eq. 2), exact, with a dual certificate");
  broadcast->add_option("--platform", options->platform.platform_file, "Platform graph: JSON or SimGrid XML (.xml)");
  broadcast->add_option("--times", options->platform.times, "Inline cluster T,T,... (the complete graph)");
  broadcast->add_option("--source", options->source, "Source node, id or index (default: the first participant)");
  broadcast->add_option("--slice-size", options->slice_size,
                        "Slice size in bytes (needed when edges give latency/bandwidth)")
      ->check(positive_finite_number());
  broadcast->add_option("--message-size", options->message_size,
                        "Whole message in bytes (latency/bandwidth platforms): predicts the makespan of one tree and "
                        "of the multi-tree schedule dealt out in rounds, chooses the slice size and the faster one")
      ->check(positive_finite_number());
  broadcast->add_flag("--json", options->json, "Print the result as JSON (docs/FORMATS.md)");
  broadcast->add_option("--out", options->out, "Write the JSON to this file");
  broadcast->add_option("--schedule-out", options->schedule_out,
                        "Write the multi-tree schedule as a periodic plan (the steady-state plan JSON that "
                        "hetcoll validate and hetcoll simulate read)");
  broadcast->add_flag("--quiet", options->quiet, "Throughput, proof and schedule size only");
  broadcast->add_flag("--detail", options->detail,
                      "Also print every tree's edges and the slices per time unit on every used edge");
  broadcast->callback([&result, options] { result = run_steady_broadcast(*options); });
}

}  // namespace hetcoll::cli
