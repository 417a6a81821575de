// tree: a pipelined broadcast along one spanning tree of a platform graph
// (Beaumont, Marchal, Robert 2004).
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "cli_common.h"
#include "command_deadline.h"
#include "hetcoll/core/units.h"
#include "commands.h"
#include "option_table.h"
#include "hetcoll/core/error.h"
#include "hetcoll/plan/pipelined_plan_json.h"
#include "hetcoll/plan/periodic_plan_json.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/report/broadcast_tree_text.h"
#include "hetcoll/steady/broadcast/multi_tree.h"
#include "hetcoll/steady/broadcast/steady_broadcast.h"
#include "hetcoll/verify/verify_periodic.h"
#include "hetcoll/steady/broadcast/tree_heuristics.h"
#include "hetcoll/steady/pipelined/pipelined_tree_plan.h"

namespace hetcoll::cli {

BroadcastModel parse_broadcast_model(const std::string& name) {
  if (name == "one-port") return BroadcastModel::one_port;
  if (name == "multi-port") return BroadcastModel::multi_port;
  throw InputError(fmt::format("--model: \"{}\" is not one-port or multi-port", name));
}

void write_broadcast_schedule(const std::string& path, const PeriodicPlan& schedule, const Platform& platform,
                              bool valid) {
  std::ostringstream text;
  PeriodicPlanJsonOptions json_options;
  json_options.valid = valid;
  write_periodic_plan_json(text, schedule, platform, json_options);
  write_file(path, text.str(), "--schedule-out");
}

namespace {

struct TreeCommandOptions {
  PlatformOptions platform;
  std::string source, heuristic, model = "one-port", out, schedule_out, dot;  // heuristic "": the registry's default
  std::optional<double> slice_size;
  bool json = false, quiet = false, skip_lp = false;
  LimitOptions limits;
};

void print_tree_summary(const Platform& platform, const PipelinedTreePlan& plan, bool quiet, bool lp_abandoned) {
  const auto& evaluation = plan.evaluation;
  std::cout << fmt::format("pipelined broadcast from {} along one tree ({}, {} model)\n", platform.id(plan.source),
                           plan.algorithm, port_model_name(plan.port_model));
  if (plan.slice_size) {
    std::cout << fmt::format(
        "slice size: {}{}\n", byte_size_text(*plan.slice_size),
        plan.slice_size_within_one_percent
            ? " (the links have no latency, so the predicted makespan only falls with smaller slices; chose the "
              "fewest slices within 1% of the finest slicing's makespan)"
        : plan.slice_size_chosen ? " (chosen to minimise the predicted makespan)"
                                 : "");
  }
  const std::string& unit = platform.time_unit();
  std::cout << fmt::format("period: {} per slice, throughput {:.6g} slices per {} (bottleneck {})\n",
                           time_text(evaluation.period, unit), evaluation.throughput, time_unit_name(unit, false),
                           platform.id(evaluation.bottleneck));
  if (plan.optimal_throughput) {
    if (plan.port_model == BroadcastModel::one_port) {
      std::cout << fmt::format("multi-tree optimum (SSB LP): {:.6g} slices per {}; this tree reaches {:.1f}% of it\n",
                               *plan.optimal_throughput, time_unit_name(unit, false), 100 * evaluation.throughput / *plan.optimal_throughput);
    } else {
      std::cout << fmt::format("one-port multi-tree optimum (SSB LP): {:.6g} slices per {}; this multi-port tree "
                               "reaches {:.1f}% of it (the LP is one-port: not a bound for the multi-port model)\n",
                               *plan.optimal_throughput, time_unit_name(unit, false), 100 * evaluation.throughput / *plan.optimal_throughput);
    }
  }
  if (lp_abandoned) {
    std::cout << "multi-tree optimum (SSB LP): not computed within the time limit (--time-limit; --skip-lp skips it)\n";
  }
  if (plan.searched()) {
    std::cout << (!plan.limit_reached() ? fmt::format("optimal single tree: proven ({} search nodes)\n", plan.stats.nodes)
                                        : fmt::format("search stopped ({}, {} nodes): best tree found, not proven "
                                                      "optimal\n",
                                                      to_string(plan.status), plan.stats.nodes));
  }
  if (plan.makespan) {
    const auto& m = *plan.makespan;
    std::cout << fmt::format("message of {} in {} slices: first slice {}, predicted makespan {}\n",
                             byte_size_text(*plan.message_size), m.slices, time_text(m.first_slice, unit),
                             time_text(m.makespan, unit));
  }
  std::cout << (plan.valid() ? "valid: spans every participant, period re-checked\n" : "INVALID:\n" + plan.verification.summary());
  if (quiet) return;
  std::cout << "tree (each host under the host that sends to it, with the links, routers or hosts its slices cross on the way):\n"
            << broadcast_tree_hosts_text(platform, plan.tree);
}

// The multi-tree optimum's values the tree command uses.
struct LpOptimum {
  double throughput = 0;
  std::vector<double> edge_rates;
};

LpOptimum solve_lp_optimum(const Platform& platform, ProcessorIndex source, std::optional<double> slice) {
  SteadyBroadcastOptions lp_only;
  lp_only.slice_size = slice;
  lp_only.stage = SteadyBroadcastStage::optimum;
  const SsbSolution optimum = plan_steady_broadcast(platform, source, lp_only).optimum;
  return {optimum.throughput_value(), optimum.edge_rate_values()};
}

int run_tree(const TreeCommandOptions& options) {
  if (!options.dot.empty() && picture_format(options.dot) != PictureFormat::other) {
    throw InputError(fmt::format("--dot: \"{}\": tree writes Graphviz DOT; give a .dot file and render it with "
                                 "dot -Tsvg FILE.dot -o tree.svg",
                                 options.dot));
  }
  // One limit for the whole command: the LP (which cannot stop on its own)
  // under the deadline, the search with the time left.
  const SearchLimits limits = parse_limits(options.limits);
  CommandDeadline deadline(limits.time_limit_seconds, "tree");
  deadline.phase("reading the platform");
  Platform platform = load_platform_graph(options.platform);
  PipelinedTreeRequest request;
  request.source = resolve_node(platform, options.source, "--source");
  request.heuristic = options.heuristic.empty()
                          ? default_planner(Operation::broadcast, CommunicationModel::pipelined)->name
                          : options.heuristic;
  request.model = parse_broadcast_model(options.model);
  request.slice_size = options.slice_size;
  request.message_size = options.platform.message_size;
  request.search_limits = limits;
  // Without --node-limit the search keeps its own bound (20,000,000 nodes).
  if (request.search_limits.node_limit == kNoNodeLimit) request.search_limits.node_limit = kDefaultTreeSearchNodeLimit;
  if (!request.slice_size && !request.message_size && !platform.has_fixed_costs()) {
    throw InputError("--slice-size: the platform's edges give latency/bandwidth; give --slice-size BYTES, or "
                     "--message-size BYTES to have the best slice size chosen");
  }
  const auto* heuristic = find_tree_heuristic(request.heuristic);
  const bool lp_needed = heuristic && heuristic->needs_lp;
  bool slice_within_one_percent = false;
  if (!options.skip_lp || lp_needed) {
    // The one-port multi-tree optimum is solved at the slice size the tree
    // will use (given, or chosen for the message).
    if (!request.slice_size && request.message_size && !platform.has_fixed_costs()) {
      deadline.phase("choosing the slice size");
      PipelinedTreeRequest probe = request;
      probe.heuristic = lp_needed ? "grow" : request.heuristic;
      probe.search_limits.time_limit_seconds = deadline.remaining_seconds();
      auto probed = plan_pipelined_tree(platform, probe);
      request.slice_size = probed.slice_size;
      slice_within_one_percent = probed.slice_size_within_one_percent;
    }
  }
  if (lp_needed) {  // the heuristic reads the LP's edge rates: no tree without it
    deadline.phase("the SSB LP and its exact re-solve");
    const LpOptimum optimum = solve_lp_optimum(platform, request.source, request.slice_size);
    request.optimal_throughput = optimum.throughput;
    request.lp_edge_rates = optimum.edge_rates;
  }
  deadline.phase("building the tree");
  // (The search stops a little before the limit, to leave time to
  // evaluate the tree and, when it is done early, for the LP below.)
  request.search_limits.time_limit_seconds = std::min(
      request.search_limits.time_limit_seconds, std::max(1e-3, 0.85 * deadline.remaining_seconds()));
  PipelinedTreePlan plan = plan_pipelined_tree(platform, request);
  bool lp_abandoned = false;
  if (!options.skip_lp && !lp_needed) {
    // The optimum only gives the tree's ratio: with the time left, on a
    // thread of its own (the LP cannot stop), else the tree without it.
    deadline.phase("the SSB LP and its exact re-solve");
    auto optimum = run_within<LpOptimum>(deadline.remaining_seconds(),
                                         [platform, source = request.source, slice = request.slice_size] {
                                           return solve_lp_optimum(platform, source, slice);
                                         });
    if (optimum) {
      plan.optimal_throughput = optimum->throughput;
    } else {
      lp_abandoned = true;
    }
  }
  deadline.disarm();  // the outputs are written whole
  plan.slice_size_chosen = !options.slice_size && request.message_size && !platform.has_fixed_costs();
  plan.slice_size_within_one_percent = plan.slice_size_within_one_percent || slice_within_one_percent;
  std::ostringstream json;
  write_pipelined_tree_json(json, platform, plan);
  if (!options.out.empty()) write_file(options.out, json.str(), "--out");
  if (!options.schedule_out.empty()) {
    if (request.model != BroadcastModel::one_port) {
      throw InputError("--schedule-out: periodic plans are one-port; drop --model multi-port");
    }
    auto times = make_tree_costs(platform, plan.slice_size, BroadcastModel::one_port).edge_time;
    PeriodicPlan schedule = single_tree_schedule(platform, plan.tree, times);
    if (!platform.has_fixed_costs()) schedule.message_size = plan.slice_size;
    if (plan.optimal_throughput) schedule.notes.push_back("single tree; the multi-tree optimum is in hetcoll steady broadcast");
    auto report = verify_periodic_plan(platform, schedule);
    write_broadcast_schedule(options.schedule_out, schedule, platform, report.valid);
    if (!report.valid) {
      std::cerr << "the tree's periodic schedule failed its check: " << report.summary() << "\n";
      return static_cast<int>(ExitCode::internal_error);
    }
  }
  if (!options.dot.empty()) {
    write_file(options.dot,
               broadcast_tree_hosts_dot(platform, plan.tree,
                                        fmt::format("Pipelined broadcast from {} along one tree ({}, {} model)",
                                                    platform.id(plan.source), plan.algorithm,
                                                    port_model_name(plan.port_model))),
               "--dot");
  }
  if (options.json) {
    std::cout << json.str();
  } else {
    print_tree_summary(platform, plan, options.quiet, lp_abandoned);
    if (!options.dot.empty()) std::cout << fmt::format("wrote tree to {}\n", options.dot);
  }
  if (!plan.valid()) return static_cast<int>(ExitCode::internal_error);
  if ((plan.searched() && plan.limit_reached()) || lp_abandoned) return static_cast<int>(ExitCode::limit_reached);
  return 0;
}

}  // namespace

void add_tree_command(CLI::App& app, int& result) {
  auto options = std::make_shared<TreeCommandOptions>();
  // The pipelined broadcast rows of the registry: the heuristics and the exact search.
  std::string names, default_name;
  for (const auto& row : planners()) {
    if (row.operation != Operation::broadcast || row.model != CommunicationModel::pipelined) continue;
    names += fmt::format("\n  {:16} {} ({})", row.name, row.summary, row.reference);
    if (row.is_default) default_name = row.name;
  }
  CLI::App* tree = app.add_subcommand(
      "tree", "Pipelined broadcast along one spanning tree: the slices of a long message follow the same tree; "
              "prints the tree, its period and throughput (Beaumont, Marchal, Robert 2004)");
  add_table_option(tree, "--platform", options->platform.platform_file);
  add_table_option(tree, "--times", options->platform.times);
  add_table_option(tree, "--source", options->source);
  tree->add_option("--heuristic", options->heuristic, "How to build the tree (default " + default_name + "):" + names);
  tree->add_option("--model", options->model,
                   "one-port (default: a node sends one slice and receives one at a time) or multi-port "
                   "(sends overlap; each costs the node's send_overhead)");
  add_byte_size_option(tree, "--slice-size", options->slice_size);
  add_byte_size_option(tree, "--message-size", options->platform.message_size);
  add_table_flag(tree, "--json", options->json);
  add_table_option(tree, "--out", options->out);
  add_table_option(tree, "--schedule-out", options->schedule_out);
  add_table_option(tree, "--dot", options->dot);
  add_table_flag(tree, "--quiet", options->quiet);
  add_limit_options(tree, options->limits);
  tree->add_flag("--skip-lp", options->skip_lp,
                 "Do not solve the SSB linear program (no optimal_throughput / ratio; not for lp-prune, lp-grow)");
  tree->callback([&result, options] { result = run_tree(*options); });
}

}  // namespace hetcoll::cli
