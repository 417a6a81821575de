// simulate: run a plan file in the discrete-event simulator (src/hetcoll/sim/).
// Makespan plans (one operation, or K back to back) execute message by
// message on a cluster or a platform graph (sim/makespan_simulation.h);
// periodic (steady-state) plans run K operations with their start-up and
// clean-up phases (sim/periodic_simulator.h, built with HETCOLL_WITH_LP).
#include <cmath>
#include <iostream>

#include <fmt/format.h>

#include "cli_common.h"
#include "option_table.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "hetcoll/core/units.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/plan/program_plan_json.h"
#include "hetcoll/registry/program_plan_check.h"
#include "hetcoll/sim/makespan_simulation.h"
#if HETCOLL_WITH_LP
#include "hetcoll/plan/periodic_plan_json.h"
#include "hetcoll/report/periodic_plan_text.h"
#include "hetcoll/sim/periodic_simulator.h"
#endif

namespace hetcoll::cli {
namespace {

constexpr std::uint64_t kDefaultPeriodicOperations = 1000;

struct SimulateOptions {
  PlatformOptions platform;
  std::string plan_file;
  std::uint64_t operations = 1;  // default: 1 (makespan plans), kDefaultPeriodicOperations (periodic)
  bool operations_given = false;
  bool json = false;
};

#if HETCOLL_WITH_LP
int simulate_periodic(const SimulateOptions& options, const std::string& text) {
  const Platform platform = load_platform_graph(options.platform);
  const auto plan = parse_periodic_plan_json(text, platform, options.plan_file);
  PeriodicSimulationOptions simulation;
  simulation.operations = options.operations_given ? options.operations : kDefaultPeriodicOperations;
  simulation.message_size = options.platform.message_size;
  const auto result = simulate_periodic_plan(platform, plan, simulation);
  if (options.json) {
    std::cout << simulation_result_json(result) << "\n";
  } else {
    std::cout << fmt::format("{}: steady-state {} plan, throughput {}, period {}\n", options.plan_file,
                             to_string(plan.operation), periodic_rate_text(plan.throughput, platform),
                             period_text(plan.period, platform));
    if (result.finished) {
      std::cout << fmt::format("  {} ({} periods)\n", periodic_simulation_text(result, platform), result.periods);
      if (auto caveat = short_run_caveat(plan, simulation.operations)) {
        std::cout << "  note: " << *caveat
                  << (plan.exact_period || plan.period_limit
                          ? "; give more --operations"
                          : "; a plan made with --period-max T (or the text default of hetcoll steady) has a "
                            "practical period")
                  << "\n";
      }
    } else {
      std::cout << fmt::format("  STALLED: {} of {} operations completed after {} periods\n", result.completed,
                               result.operations, result.periods);
    }
  }
  return static_cast<int>(result.finished ? ExitCode::success : ExitCode::internal_error);
}
#endif

// The simulation holds every message of every operation at once.
void check_size(const MakespanPlan& plan, std::uint64_t operations) {
  constexpr double kMaxSimulatedMessages = 2e7;
  if (static_cast<double>(operations) * static_cast<double>(plan.transfers.size()) > kMaxSimulatedMessages) {
    throw InputError(fmt::format("--operations: {} operations of {} messages exceed the {:.0e} messages a simulation "
                                 "holds; use fewer operations",
                                 operations, plan.transfers.size(), kMaxSimulatedMessages));
  }
}

// The simulator executes the one-port models; an eager plan's sends overlap.
void refuse_eager(const MakespanPlan& plan, const std::string& plan_file) {
  if (plan.model != PlanModel::eager) return;
  throw InputError(fmt::format("{}: model: an eager plan cannot be simulated: the simulator runs the one-port models, "
                               "and an eager plan's sends overlap (hetcoll validate checks it in the eager model)",
                               plan_file));
}

int simulate_makespan(const SimulateOptions& options, const std::string& text) {
  LoadedPlatform loaded = load_platform(options.platform);
  MakespanPlan plan;
  MakespanSimulation result;
  std::string model_note;
  std::string unit;  // the platform's time unit, "" when it declares none
  SimulationOptions simulation;
  simulation.operations = static_cast<std::size_t>(options.operations);
  if (loaded.is_cluster()) {
    plan = parse_plan_json(text, loaded.cluster(), options.plan_file);
    refuse_eager(plan, options.plan_file);
    check_size(plan, options.operations);
    result = simulate(loaded.cluster(), plan, simulation);
    model_note = "sender-speed model (each message lasts its sender's time t)";
    unit = loaded.cluster().time_unit();
  } else {
    const Platform& platform = loaded.graph();
    plan = parse_plan_json(text, platform, options.plan_file);
    refuse_eager(plan, options.plan_file);
    check_size(plan, options.operations);
    GraphNetwork network(platform, graph_message_size(options.platform, platform, plan.message_size));
    unit = platform.time_unit();
    result = simulate(network, plan, simulation);
    model_note = plan.model == PlanModel::platform_graph
                     ? "platform graph (routes, exclusive links, bidirectional one-port)"
                     : "platform graph; the plan was made for the sender-speed view, its messages now take their "
                       "routes' real costs";
  }
  const std::size_t k = result.operations;
  if (options.json) {
    std::cout << fmt::format(
        "{{\"operation\": \"{}\", \"operations\": {}, \"planned_makespan\": {}, \"makespan\": {}, "
        "\"first_operation_makespan\": {}, \"time_per_operation\": {}, \"operation_completion\": [",
        to_string(plan.operation), k, std::isnan(plan.makespan) ? "null" : fmt::format("{}", plan.makespan),
        result.makespan, result.operation_completion.front(), result.makespan / static_cast<double>(k));
    for (std::size_t i = 0; i < k; ++i) std::cout << (i ? ", " : "") << fmt::format("{}", result.operation_completion[i]);
    std::cout << "]}\n";
    return 0;
  }
  std::cout << fmt::format("simulated {} plan {} ({} messages) on {}\n", to_string(plan.operation), options.plan_file,
                           plan.transfers.size(), loaded.source_name);
  std::cout << fmt::format("  model        {}\n", model_note);
  if (!std::isnan(plan.makespan)) std::cout << fmt::format("  planned      {}\n", time_text(plan.makespan, unit));
  std::cout << fmt::format("  simulated    {}{}\n", time_text(result.operation_completion.front(), unit),
                           std::isnan(plan.makespan) ? ""
                           : std::fabs(result.operation_completion.front() - plan.makespan) <=
                                   1e-9 * std::max(1.0, std::fabs(plan.makespan))
                               ? "   (as planned)"
                               : fmt::format("   ({:.4f} x planned)", result.operation_completion.front() / plan.makespan));
  if (k > 1) {
    std::cout << fmt::format("  {} operations back to back: {} in all, {} per operation ({:.4f} x one alone)\n",
                             k, time_text(result.makespan, unit), time_text(result.makespan / static_cast<double>(k), unit),
                             result.makespan / static_cast<double>(k) / result.operation_completion.front());
  }
  return 0;
}

// A program plan runs in the flow model (sim/program_simulation.h), the
// model its prediction was made in.
int simulate_program(const SimulateOptions& options, const std::string& text) {
  if (options.operations_given && options.operations != 1) {
    throw InputError("--operations: a program plan is simulated one call at a time (give 1 or leave it out)");
  }
  const Platform platform = load_platform_graph(options.platform);
  const ProgramPlan plan = parse_program_plan_json(text, platform, options.plan_file);
  const auto timing = predict_program_plan(platform, plan);
  if (!timing.completed()) {
    std::cerr << fmt::format("{}: the program does not complete in the flow model ({} ranks blocked for ever)\n",
                             options.plan_file, timing.stuck_ranks.size());
    return static_cast<int>(ExitCode::invalid_plan);
  }
  if (options.json) {
    std::cout << fmt::format("{{\"operation\": \"{}\", \"operations\": 1, \"planned_makespan\": {}, \"makespan\": {}, "
                             "\"first_operation_makespan\": {}, \"time_per_operation\": {}, \"operation_completion\": "
                             "[{}], \"model\": \"flow\", \"messages\": {}}}\n",
                             to_string(plan.operation), plan.predicted_seconds, timing.makespan, timing.makespan,
                             timing.makespan, timing.makespan, timing.messages);
    return 0;
  }
  std::cout << fmt::format("simulated {} program plan {} ({}, {} messages) on {}\n", to_string(plan.operation),
                           options.plan_file, plan.algorithm, timing.messages, options.platform.platform_file);
  std::cout << "  model        flow model (routes' latencies, links shared at their capacity, MPI's eager and "
               "rendezvous sends, as SimGrid SMPI runs them)\n";
  std::cout << fmt::format("  planned      {:.6g} s\n", plan.predicted_seconds);
  std::cout << fmt::format("  simulated    {:.6g} s{}\n", timing.makespan,
                           std::fabs(timing.makespan - plan.predicted_seconds) <= 1e-9 * std::max(1e-300, timing.makespan)
                               ? "   (as planned)"
                               : fmt::format("   ({:.4f} x planned)", timing.makespan / plan.predicted_seconds));
  return 0;
}

int run_simulate(const SimulateOptions& options) {
  if (options.operations == 0) throw InputError("--operations: must be at least 1");
  const std::string text = read_text_file(options.plan_file);
#if HETCOLL_WITH_LP
  if (looks_like_periodic_plan(text)) return simulate_periodic(options, text);
#endif
  if (looks_like_program_plan(text)) return simulate_program(options, text);
  return simulate_makespan(options, text);
}

}  // namespace

void add_simulate_command(CLI::App& app, int& result) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* command = app.add_subcommand(
      "simulate", "Run a plan file in the discrete-event simulator: a makespan plan message by message on its "
                  "platform (one operation, or K back to back), or K pipelined operations of a steady-state plan with "
                  "start-up and clean-up");
  add_platform_options(command, options->platform);
  add_table_option(command, "--plan", options->plan_file)->required();
  CLI::Option* operations = command->add_option(
      "--operations", options->operations,
      "K: how many operations to run. Makespan plans: K back to back, each following the previous one on every "
      "port and link (default 1). Steady-state plans: K pipelined operations (default 1000)");
  operations->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1000000000}));
  add_table_flag(command, "--json", options->json);
  command->footer(
      "Makespan plans: only the plan's structure is used (who sends what to whom, and the order of messages on each "
      "port and link); times come from the platform. On a graph a message lasts its route's cost; --message-size "
      "defaults to the plan's. Steady-state plans (with a \"period\") report the measured throughput against the "
      "plan's.");
  command->callback([&result, options, operations] {
    options->operations_given = operations->count() > 0;
    if (!options->operations_given) options->operations = 1;
    result = run_simulate(*options);
  });
}

}  // namespace hetcoll::cli
