// broadcast, multicast, reduce, allreduce: plan, verify, print.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli_common.h"
#include "option_table.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "hetcoll/core/files.h"
#include "hetcoll/registry/default_plan.h"
#include "hetcoll/registry/graph_registry.h"
#include "hetcoll/registry/program_plan_check.h"
#include "hetcoll/makespan/graph/sender_speed_view.h"
#include "hetcoll/makespan/sender_speed/auto_select.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/plan/program_plan_json.h"
#include "hetcoll/report/plan_text.h"
#include "hetcoll/report/program_plan_text.h"
#include "hetcoll/verify/verify.h"
#include "visual_outputs.h"

namespace hetcoll::cli {
namespace {

struct MakespanOptions {
  PlatformOptions platform;
  OutputOptions output;
  std::string processor;  // --source or --root
  std::string algorithm;
  std::string order;
  std::string targets;
  LimitOptions limits;
  std::optional<double> eps;
  std::optional<double> eps_prime;
  std::string view;  // graph platforms: "graph" (default), "sender-speed" or "eager"
  std::optional<double> auto_budget;
  std::optional<unsigned> threads;  // --threads (broadcast, multicast)
  std::optional<std::size_t> element_bytes;  // --element-bytes (the default plan's programs)
};

// The registry row --algo names for (operation, model), or the default row
// without --algo; nullptr for a name the model does not know.
const PlannerEntry* chosen_row(Operation operation, CommunicationModel model, const std::string& algorithm) {
  return algorithm.empty() ? default_planner(operation, model) : find_planner(operation, model, algorithm);
}

// What the chosen row accepts (nothing for an unknown name: the name itself
// is refused later, with the known ones listed).
PlannerCapabilities capabilities_of(const PlannerEntry* row) { return row ? row->capabilities : PlannerCapabilities{}; }

std::string name_of(const PlannerEntry* row, const std::string& algorithm) {
  return row ? row->name : algorithm;
}

// The --algo values of the rows of (operation, model) that take an option,
// e.g. "--algo ptas" or "--algo optimal, or auto when it searches" (a
// selector's `selector_note`).
std::string rows_taking(Operation operation, CommunicationModel model, bool PlannerCapabilities::*capability,
                        std::string_view selector_note = "") {
  std::string names;
  for (const auto& row : planners()) {
    if (row.operation != operation || row.model != model || !(row.capabilities.*capability)) continue;
    names += (names.empty() ? "--algo " : ", or ") + row.name;
    if (row.is_selector) names += selector_note;
  }
  return names.empty() ? std::string("no algorithm") : names;
}

// Options that would do nothing are refused before any work, so a user is
// never left believing they changed something. --eps, --order, --auto-budget
// and --threads are options of sender-speed rows; each is checked against
// the capabilities of the row --algo chooses.
void refuse_options_that_do_nothing(Operation operation, const MakespanOptions& options) {
  constexpr auto sender_speed = CommunicationModel::sender_speed;
  const PlannerEntry* row = chosen_row(operation, sender_speed, options.algorithm);
  const PlannerCapabilities can = capabilities_of(row);
  const std::string algorithm = name_of(row, options.algorithm);
  if ((options.eps || options.eps_prime) && !can.eps) {
    throw InputError(fmt::format("{}: only the approximation scheme uses it; add {} (the algorithm is {})",
                                 options.eps ? "--eps" : "--eps-prime",
                                 rows_taking(operation, sender_speed, &PlannerCapabilities::eps), algorithm));
  }
  if (!options.order.empty() && !can.order) {
    throw InputError(fmt::format("--order: only {} follows a given sender order (the algorithm is {})",
                                 rows_taking(operation, sender_speed, &PlannerCapabilities::order), algorithm));
  }
  if (options.auto_budget && !can.auto_budget) {
    throw InputError(fmt::format("--auto-budget: only {} uses it (the algorithm is {}){}",
                                 rows_taking(operation, sender_speed, &PlannerCapabilities::auto_budget), algorithm,
                                 !row        ? std::string()
                                 : can.limits ? fmt::format("; give --algo {} --time-limit or --node-limit", algorithm)
                                              : fmt::format("; --algo {} runs no search to budget", algorithm)));
  }
  if (options.threads && !can.threads) {
    throw InputError(fmt::format("--threads: only the exact search ({}) runs on several threads (the algorithm is {})",
                                 rows_taking(operation, sender_speed, &PlannerCapabilities::threads, " when it searches"),
                                 algorithm));
  }
  check_picture_path(options.output.gantt_file, "--gantt");
  check_picture_path(options.output.dot_file, "--dot", /*other_allowed=*/true);
}

void write_outputs(const MakespanPlan& plan, const Cluster& cluster, const VerifyReport& report,
                   const OutputOptions& output) {
  if (!output.out_file.empty()) {
    write_file_with(output.out_file,
                    [&](std::ostream& out) { write_plan_json(out, plan, cluster, {report.valid, true}); }, "--out");
  }
  if (!output.gantt_file.empty()) write_picture(output.gantt_file, gantt_picture(plan, cluster), "--gantt");
  if (!output.dot_file.empty()) {
    if (picture_format(output.dot_file) == PictureFormat::other) {
      write_file(output.dot_file, tree_picture(plan, cluster, output.dot_file), "--dot");
    } else {
      write_picture(output.dot_file, tree_picture(plan, cluster, ".svg"), "--dot");
    }
  }
  if (output.json) {
    std::ios::sync_with_stdio(false);
    write_plan_json(std::cout, plan, cluster, {report.valid, true});
  } else {
    std::cout << plan_summary(plan, cluster, report);
    if (!output.quiet) std::cout << "\n" << tree_text(plan, cluster);
    for (const auto& [flag, path] : {std::pair{"plan", output.out_file}, std::pair{"Gantt chart", output.gantt_file},
                                     std::pair{"tree", output.dot_file}}) {
      if (!path.empty()) std::cout << fmt::format("wrote {} to {}\n", flag, path);
    }
  }
}

// Exit 4 (with a line on stderr saying why) when a limit stopped the search
// or the algorithm refused to run; else 0.
int exit_code_of(const MakespanPlan& plan) {
  if (plan.limit_reached()) {
    std::cerr << fmt::format("hetcoll: {}; exit code 4\n",
                             plan.status == SearchStatus::refused
                                 ? "the algorithm refused to run (see the note): the fallback plan was printed"
                                 : fmt::format("stopped ({}): the best plan found so far was printed",
                                               to_string(plan.status)));
    return static_cast<int>(ExitCode::limit_reached);
  }
  return static_cast<int>(ExitCode::success);
}

void write_graph_outputs(const MakespanPlan& plan, const GraphNetwork& network, const VerifyReport& report,
                         const OutputOptions& output) {
  const Platform& platform = network.platform();
  if (!output.out_file.empty()) {
    write_file_with(output.out_file,
                    [&](std::ostream& out) { write_plan_json(out, plan, platform, {report.valid, true}); }, "--out");
  }
  if (!output.gantt_file.empty()) write_picture(output.gantt_file, gantt_picture(plan, network), "--gantt");
  if (!output.dot_file.empty()) {
    if (picture_format(output.dot_file) == PictureFormat::other) {
      write_file(output.dot_file, tree_picture(plan, network, output.dot_file), "--dot");
    } else {
      write_picture(output.dot_file, tree_picture(plan, network, ".svg"), "--dot");
    }
  }
  if (output.json) {
    std::ios::sync_with_stdio(false);
    write_plan_json(std::cout, plan, platform, {report.valid, true});
  } else {
    std::cout << plan_summary(plan, network, report);
    if (!output.quiet) std::cout << "\n" << tree_text(plan, network);
    for (const auto& [flag, path] : {std::pair{"plan", output.out_file}, std::pair{"Gantt chart", output.gantt_file},
                                     std::pair{"tree", output.dot_file}}) {
      if (!path.empty()) std::cout << fmt::format("wrote {} to {}\n", flag, path);
    }
  }
}

// Verifies a graph or eager plan, writes what was asked; an invalid plan is
// the planner's bug (exit code internal_error).
int verify_and_write_graph_plan(const MakespanPlan& plan, const GraphNetwork& network, const OutputOptions& output) {
  VerifyReport report = verify(network, plan);
  write_graph_outputs(plan, network, report, output);
  if (!report.valid) {
    std::cerr << "internal error: the planner's schedule failed verification:\n" << report.summary();
    return static_cast<int>(ExitCode::internal_error);
  }
  return exit_code_of(plan);
}

// The default plan when a program won (registry/default_plan.h): verified,
// written as a program plan; a tree picture does not apply.
int verify_and_write_program_plan(const DefaultPlan& chosen, const GraphNetwork& network, const OutputOptions& output) {
  const ProgramPlan& plan = *chosen.program;
  const Platform& platform = network.platform();
  for (const auto& [flag, path] : {std::pair{"--dot", output.dot_file}, std::pair{"--gantt", output.gantt_file}}) {
    if (path.empty()) continue;
    throw InputError(fmt::format("{}: the default plan for this call is a program ({}, predicted {:.6g} s), not a tree "
                                 "of whole messages: it has no tree or Gantt picture. Give --algo auto (or another "
                                 "tree planner) for a tree, or drop {} (--out/--json write the program plan)",
                                 flag, plan.algorithm, plan.predicted_seconds, flag));
  }
  const ProgramPlanVerifyReport check = verify_program_plan(platform, plan);
  const VerifyReport& report = check;
  if (!output.out_file.empty()) {
    write_file_with(output.out_file,
                    [&](std::ostream& out) { write_program_plan_json(out, plan, platform, report.valid); }, "--out");
  }
  if (output.json) {
    std::ios::sync_with_stdio(false);
    write_program_plan_json(std::cout, plan, platform, report.valid);
  } else {
    std::cout << program_plan_summary(plan, platform, check, &chosen);
    if (!output.out_file.empty()) std::cout << fmt::format("wrote plan to {}\n", output.out_file);
  }
  if (!report.valid) {
    std::cerr << "internal error: the chosen program failed verification:\n" << report.summary();
    return static_cast<int>(ExitCode::internal_error);
  }
  return static_cast<int>(ExitCode::success);
}

// On a platform graph: the graph planners (registry/graph_registry.h).
int run_graph_makespan(Operation operation, const MakespanOptions& options, const LoadedPlatform& loaded) {
  const Platform& platform = loaded.graph();
  GraphNetwork network(platform, graph_message_size(options.platform, platform));
  MakespanRequest request;
  request.operation = operation;
  const bool is_reduce = operation == Operation::reduce || operation == Operation::allreduce;
  if (!options.processor.empty()) {
    request.root = resolve_node(platform, options.processor, is_reduce ? "--root" : "--source");
  }
  if (operation == Operation::multicast) {
    if (options.targets.empty()) throw InputError("--targets: required for multicast (P,P,...)");
    request.targets = resolve_node_list(platform, options.targets, "--targets");
  }
  const PlannerCapabilities can =
      capabilities_of(chosen_row(operation, CommunicationModel::platform_graph, options.algorithm));
  if (!options.order.empty() && !can.order) {
    throw InputError(fmt::format("--order: only for {}, a sender-speed planner (--view sender-speed)",
                                 rows_taking(operation, CommunicationModel::sender_speed, &PlannerCapabilities::order)));
  }
  if (options.auto_budget && !can.auto_budget) {
    // The graph planners' exact search runs under --time-limit/--node-limit only.
    throw InputError(fmt::format("--auto-budget: sender-speed {} only (add --view sender-speed); on a platform graph "
                                 "the exact search is bounded by --time-limit and --node-limit",
                                 rows_taking(operation, CommunicationModel::sender_speed,
                                             &PlannerCapabilities::auto_budget)));
  }
  request.limits = parse_limits(options.limits);
  request.limits.progress = progress_printer(options.output.quiet || options.output.json);
  if (!options.algorithm.empty() && !find_graph_makespan_algorithm(options.algorithm)) {
    std::string known;
    for (const auto& a : graph_makespan_algorithms()) known += (known.empty() ? "" : ", ") + a.name;
    bool sender_speed_name = false;
    for (const auto& a : makespan_algorithms()) sender_speed_name = sender_speed_name || a.name == options.algorithm;
    if (sender_speed_name) {
      throw InputError(fmt::format("--algo {}: a sender-speed algorithm; on a platform graph add --view sender-speed "
                                   "to use it (its claims then hold for that view only), or pick a graph planner: {}",
                                   options.algorithm, known));
    }
    throw InputError(fmt::format("--algo: unknown graph planner \"{}\" (known: {})", options.algorithm, known));
  }
  // Without --algo, the registry's default graph row ("predicted"; the
  // library's plan_graph_makespan defaults to "auto", what the MPI runtime runs).
  const std::string algorithm = options.algorithm.empty()
                                    ? default_planner(operation, CommunicationModel::platform_graph)->name
                                    : options.algorithm;
  // "predicted" where the flow model applies weighs programs too
  // (registry/default_plan.h): MPI's algorithms, split and site programs.
  const bool weighs_programs = algorithm == "predicted" && flow_prediction_applies(network, operation);
  if (options.element_bytes && !weighs_programs) {
    throw InputError("--element-bytes: only the default plan (--algo predicted) on a platform with latencies and "
                     "bandwidths and a --message-size builds programs over elements; other plans move whole messages");
  }
  if (weighs_programs) {
    const DefaultPlan chosen = plan_default(network, request, options.element_bytes.value_or(1));
    if (chosen.program) return verify_and_write_program_plan(chosen, network, options.output);
    return verify_and_write_graph_plan(chosen.whole_message.plan, network, options.output);
  }
  return verify_and_write_graph_plan(plan_graph_makespan(network, request, algorithm), network, options.output);
}

// --view eager: the eager model's broadcast and reduce planners
// (makespan/eager/eager_broadcast.h, eager_reduce.h).
int run_eager(Operation operation, const MakespanOptions& options, const LoadedPlatform& loaded) {
  const Platform& platform = loaded.graph();
  const PlannerEntry* row = chosen_row(operation, CommunicationModel::eager, options.algorithm);
  if (!row) {
    std::string known;
    for (const auto& other : planners()) {
      if (other.operation == operation && other.model == CommunicationModel::eager) {
        known += (known.empty() ? "" : ", ") + other.name;
      }
    }
    throw InputError(fmt::format("--algo: the eager model's planners are {}, got \"{}\"", known, options.algorithm));
  }
  if (options.auto_budget && !row->capabilities.auto_budget) {
    throw InputError("--auto-budget: --view eager runs no exact search; it has no budget");
  }
  if ((!options.limits.time_limit.empty() || !options.limits.node_limit.empty()) && !row->capabilities.limits) {
    throw InputError(fmt::format("{}: --view eager runs no search; its planners finish in O(n^3 log n) at most",
                                 options.limits.time_limit.empty() ? "--node-limit" : "--time-limit"));
  }
  GraphNetwork network(platform, graph_message_size(options.platform, platform));
  MakespanRequest request;
  request.operation = operation;
  request.root = resolve_node(platform, options.processor, operation == Operation::reduce ? "--root" : "--source");
  return verify_and_write_graph_plan(row->run_on_graph(network, request), network, options.output);
}

int run_makespan(Operation operation, const MakespanOptions& options) {
  refuse_options_that_do_nothing(operation, options);
  if (!options.view.empty() && options.view != "graph" && options.view != "sender-speed" && options.view != "eager") {
    throw InputError(
        fmt::format("--view: must be \"graph\", \"sender-speed\" or \"eager\", got \"{}\"", options.view));
  }
  if (options.view == "eager" && !default_planner(operation, CommunicationModel::eager)) {
    throw InputError(fmt::format("--view eager: the eager model plans broadcasts and reduces only (hetcoll broadcast, "
                                 "hetcoll reduce), not a {}",
                                 to_string(operation)));
  }
  LoadedPlatform platform = load_platform(options.platform);
  if (platform.is_cluster() && (options.view == "graph" || options.view == "eager")) {
    throw InputError(fmt::format("--view {}: this platform is a cluster (one time per processor); --view applies to "
                                 "platform graphs",
                                 options.view));
  }
  if (options.threads && (options.view == "eager" || (!platform.is_cluster() && options.view != "sender-speed"))) {
    throw InputError("--threads: only the sender-speed exact search runs on several threads (a cluster, or a platform "
                     "graph with --view sender-speed)");
  }
  if (options.view == "eager") return run_eager(operation, options, platform);
  if (!platform.is_cluster() && options.view != "sender-speed") return run_graph_makespan(operation, options, platform);
  const bool view_of_graph = !platform.is_cluster();
  LoadedCluster loaded = sender_speed_view(std::move(platform), options.platform);
  const Cluster& cluster = loaded.cluster;
  MakespanRequest request;
  request.operation = operation;
  const char* processor_option =
      (operation == Operation::reduce || operation == Operation::allreduce) ? "--root" : "--source";
  request.root = resolve_processor(cluster, options.processor, processor_option,
                                   operation == Operation::allreduce ? kNoProcessor : 0);
  if (operation == Operation::multicast) {
    if (options.targets.empty()) throw InputError("--targets: required for multicast (P,P,...)");
    request.targets = resolve_processor_list(cluster, options.targets, "--targets");
  }
  if (!options.order.empty()) request.order = resolve_processor_list(cluster, options.order, "--order");
  request.limits = parse_limits(options.limits);
  if (options.threads) request.limits.threads = *options.threads;  // validated by the registry
  if (options.eps) request.eps = *options.eps;
  request.eps_prime = options.eps_prime;
  request.auto_budget.seconds = options.auto_budget;
  request.limits.progress = progress_printer(options.output.quiet || options.output.json);
  if (!options.output.quiet) {
    request.announce = [](std::string_view message) { std::cerr << "hetcoll: " << message << "\n"; };
  }

  MakespanPlan plan = plan_makespan(cluster, request, options.algorithm);
  plan.notes.insert(plan.notes.end(), loaded.notes.begin(), loaded.notes.end());
  if (view_of_graph) {
    qualify_for_view(plan, options.platform.platform_file);
    plan.message_size = options.platform.message_size;  // so that simulate and validate can reuse it
  }
  VerifyReport report = verify(cluster, plan);
  write_outputs(plan, cluster, report, options.output);
  if (!report.valid) {
    std::cerr << "internal error: the planner's schedule failed verification:\n" << report.summary();
    return static_cast<int>(ExitCode::internal_error);
  }
  return exit_code_of(plan);
}

CLI::App* add_makespan_command(CLI::App& app, const char* name, Operation operation, MakespanOptions& options,
                               const std::string& description, int& result,
                               std::shared_ptr<void> keep_alive) {
  CLI::App* command = app.add_subcommand(name, description);
  add_platform_options(command, options.platform);
  command->add_option("--view", options.view,
                      "On a platform graph: \"graph\" (default) plans on the graph itself (routes, one-port nodes; without --algo, the plan predicted fastest in the flow model, eager trees included, or a program of MPI's or hetcoll's algorithms when one is predicted faster by more than 2 %: --algo predicted); "
                      "\"sender-speed\" collapses it to one time per node (each node's slowest route) and uses the "
                      "sender-speed algorithms, whose claims then hold for that view only; \"eager\" (broadcast and reduce) "
                      "plans for eager MPI sends: a broadcast node sends to all its children without waiting, its link "
                      "carrying one message at a time (size / bandwidth) while latencies overlap; a reduce node "
                      "sends once, its link receiving one message at a time; --algo auto, flat, binomial or 4-nomial");
  const bool is_reduce = operation == Operation::reduce || operation == Operation::allreduce;
  add_table_option(command, is_reduce ? "--root" : "--source", options.processor);
  // Every row of the registry for this operation, by model.
  std::string algorithms;
  const auto list = [&](CommunicationModel model, const char* heading) {
    bool any = false;
    for (const auto& row : planners()) {
      if (row.operation != operation || row.model != model) continue;
      if (!any) algorithms += heading;
      any = true;
      algorithms += fmt::format("\n    {}{}: {}", row.name, row.is_default ? " (default)" : "",
                                model == CommunicationModel::eager ? row.summary : row.guarantee.text);
    }
  };
  list(CommunicationModel::sender_speed, "\n  on a cluster (or --view sender-speed):");
  list(CommunicationModel::platform_graph, "\n  on a platform graph:");
  list(CommunicationModel::eager, "\n  with --view eager (a platform graph):");
  command->add_option("--algo", options.algorithm, "Algorithm; `hetcoll algorithms` lists them all:" + algorithms);
  if (operation == Operation::reduce) {
    command->add_option("--order", options.order, "With --algo ep: the sender order P,P,... (all but the root)");
  }
  if (operation == Operation::multicast) {
    add_table_option(command, "--targets", options.targets)->required();
  }
  if (operation == Operation::broadcast || operation == Operation::multicast) {
    command->add_option("--eps", options.eps, "With --algo ptas: the precision epsilon (default 0.5)")
        ->check(positive_finite_number());
    command->add_option("--eps-prime", options.eps_prime,
                        "With --algo ptas: the fast/slow split epsilon' (default: --eps)")
        ->check(positive_finite_number());
  }
  if (operation != Operation::multicast) {
    command->add_option("--auto-budget", options.auto_budget,
                        fmt::format("With --algo auto: seconds its exact search may take when the greedy plan is "
                                    "not proven optimal (default: {:g} x the greedy planner's time, at least {:g} "
                                    "ms). A stop there is auto's normal end (exit code 0), but where it stops "
                                    "depends on the machine and its load; --node-limit N instead searches exactly "
                                    "N nodes (the same plan everywhere; a stop there exits 4)",
                                    kAutoBudgetGreedyFactor, kAutoBudgetFloorSeconds * 1e3))
        ->check(positive_finite_number());
  }
  if (operation != Operation::multicast) {
    command->add_option("--element-bytes", options.element_bytes,
                        "With the default plan (--algo predicted) on a platform with latencies and bandwidths: bytes "
                        "per element of the message (default 1; 4 for MPI_INT). A program plan (MPI's scatter + "
                        "all-gather, Rabenseifner, hetcoll's split plans) cuts the message at element boundaries, "
                        "so --message-size must be a whole number of elements")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20));
  }
  add_limit_options(command, options.limits);
  if (operation == Operation::broadcast || operation == Operation::multicast) {
    add_table_option(command, "--threads", options.threads);
  }
  add_output_options(command, options.output);
  command->callback([&result, operation, &options, keep_alive] { result = run_makespan(operation, options); });
  return command;
}

}  // namespace

void add_makespan_commands(CLI::App& app, int& result) {
  struct AllOptions {
    MakespanOptions broadcast, multicast, reduce, allreduce;
  };
  auto options = std::make_shared<AllOptions>();
  add_makespan_command(app, "broadcast", Operation::broadcast, options->broadcast,
                       "One source sends a message to every processor (minimum makespan)", result, options);
  add_makespan_command(app, "multicast", Operation::multicast, options->multicast,
                       "One source sends a message to a group; other processors may help", result, options);
  add_makespan_command(app, "reduce", Operation::reduce, options->reduce,
                       "Combine every processor's value at a root (associative, commutative operator)", result, options);
  add_makespan_command(app, "allreduce", Operation::allreduce, options->allreduce,
                       "Combine every processor's value and give the result to all", result, options);
}

}  // namespace hetcoll::cli
