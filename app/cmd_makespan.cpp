// broadcast, multicast, reduce, allreduce: plan, verify, print.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli_common.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "hetcoll/core/files.h"
#include "hetcoll/makespan/registry.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/report/plan_text.h"
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
  std::optional<double> auto_budget;
};

// Options that would do nothing are refused before any work, so a user is
// never left believing they changed something.
void refuse_options_that_do_nothing(Operation operation, const MakespanOptions& options) {
  const std::string& algorithm = options.algorithm;
  if ((options.eps || options.eps_prime) && algorithm != "ptas") {
    throw InputError(fmt::format("{}: only the approximation scheme uses it; add --algo ptas (the algorithm is {})",
                                 options.eps ? "--eps" : "--eps-prime", algorithm.empty() ? "auto" : algorithm));
  }
  if (operation == Operation::reduce && !options.order.empty() && algorithm != "ep") {
    throw InputError(fmt::format("--order: only --algo ep follows a given sender order (the algorithm is {})",
                                 algorithm.empty() ? "auto" : algorithm));
  }
  if (options.auto_budget && !algorithm.empty() && algorithm != "auto") {
    throw InputError(fmt::format("--auto-budget: only --algo auto uses it (the algorithm is {}); give other "
                                 "algorithms --time-limit or --node-limit",
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

int run_makespan(Operation operation, const MakespanOptions& options) {
  refuse_options_that_do_nothing(operation, options);
  LoadedCluster loaded = load_cluster(options.platform);
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
  if (options.eps) request.eps = *options.eps;
  request.eps_prime = options.eps_prime;
  request.auto_budget.seconds = options.auto_budget;
  request.limits.progress = progress_printer(options.output.quiet || options.output.json);
  if (!options.output.quiet) {
    request.announce = [](std::string_view message) { std::cerr << "hetcoll: " << message << "\n"; };
  }

  MakespanPlan plan = plan_makespan(cluster, request, options.algorithm);
  plan.notes.insert(plan.notes.end(), loaded.notes.begin(), loaded.notes.end());
  VerifyReport report = verify(cluster, plan);
  write_outputs(plan, cluster, report, options.output);
  if (!report.valid) {
    std::cerr << "internal error: the planner's schedule failed verification:\n" << report.summary();
    return static_cast<int>(ExitCode::internal_error);
  }
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

CLI::App* add_makespan_command(CLI::App& app, const char* name, Operation operation, MakespanOptions& options,
                               const std::string& description, int& result,
                               std::shared_ptr<void> keep_alive) {
  CLI::App* command = app.add_subcommand(name, description);
  add_platform_options(command, options.platform);
  const bool is_reduce = operation == Operation::reduce || operation == Operation::allreduce;
  command->add_option(is_reduce ? "--root" : "--source", options.processor,
                      is_reduce ? (operation == Operation::allreduce
                                       ? "Root of the reduce phase (default: a fastest processor)"
                                       : "Destination of the reduction (id or index; default: the first)")
                                : "Source processor (id or index; default: the first)");
  std::string algorithms;
  for (const auto& algorithm : makespan_algorithms()) {
    if (algorithm.operation == operation && algorithm.model == CommunicationModel::sender_speed) {
      algorithms += fmt::format("\n    {}{}: {}", algorithm.name, algorithm.is_default ? " (default)" : "",
                                algorithm.guarantee.text);
    }
  }
  command->add_option("--algo", options.algorithm, "Algorithm; `hetcoll algorithms` lists them all:" + algorithms);
  if (operation == Operation::reduce) {
    command->add_option("--order", options.order, "With --algo ep: the sender order P,P,... (all but the root)");
  }
  if (operation == Operation::multicast) {
    command->add_option("--targets", options.targets, "The processors that must receive: P,P,...")->required();
  }
  if (operation == Operation::broadcast || operation == Operation::multicast) {
    command->add_option("--eps", options.eps, "With --algo ptas: the precision epsilon (default 0.5)")
        ->check(CLI::PositiveNumber);
    command->add_option("--eps-prime", options.eps_prime,
                        "With --algo ptas: the fast/slow split epsilon' (default: --eps)")
        ->check(CLI::PositiveNumber);
  }
  if (operation != Operation::multicast) {
    command->add_option("--auto-budget", options.auto_budget,
                        fmt::format("With --algo auto: seconds its exact search may take when the greedy plan is "
                                    "not proven optimal (default: {:g} x the greedy planner's time, at least {:g} "
                                    "ms). A stop there is auto's normal end (exit code 0), but where it stops "
                                    "depends on the machine and its load; --node-limit N instead searches exactly "
                                    "N nodes (the same plan everywhere; a stop there exits 4)",
                                    kAutoBudgetGreedyFactor, kAutoBudgetFloorSeconds * 1e3))
        ->check(CLI::PositiveNumber);
  }
  add_limit_options(command, options.limits);
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
