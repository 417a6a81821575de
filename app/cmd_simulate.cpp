// simulate: run a plan in the discrete-event simulator (src/hetcoll/sim/).
// Periodic (steady-state) plans run K operations with their start-up and
// clean-up phases. Other plan kinds plug in at `run_simulate` below.
#include <iostream>

#include <fmt/format.h>

#include "cli_common.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "hetcoll/plan/periodic_plan_json.h"
#include "hetcoll/sim/periodic_simulator.h"

namespace hetcoll::cli {
namespace {

struct SimulateOptions {
  PlatformOptions platform;
  std::string plan_file;
  std::uint64_t operations = 1000;
  bool json = false;
};

int simulate_periodic(const SimulateOptions& options, const std::string& text) {
  const Platform platform = load_platform_graph(options.platform);
  const auto plan = parse_periodic_plan_json(text, platform, options.plan_file);
  PeriodicSimulationOptions simulation;
  simulation.operations = options.operations;
  simulation.message_size = options.platform.message_size;
  const auto result = simulate_periodic_plan(platform, plan, simulation);
  if (options.json) {
    std::cout << simulation_result_json(result) << "\n";
  } else {
    std::cout << fmt::format("{}: steady-state {} plan, throughput {} ({:.6g}) per time unit, period {}\n",
                             options.plan_file, to_string(plan.operation), to_string(plan.throughput),
                             to_double(plan.throughput), plan.period.get_str());
    if (result.finished) {
      std::cout << fmt::format(
          "  {} operations completed at time {:.6g} ({} periods): {:.6g} per time unit = {:.4f} x the plan's "
          "throughput\n  start-up: the first operation completed at {:.6g}\n",
          result.completed, to_double(result.makespan), result.periods, to_double(result.measured_throughput),
          result.ratio, to_double(result.first_completion));
      if (auto caveat = short_run_caveat(plan, options.operations)) {
        std::cout << "  note: " << *caveat << "; plan with --period-max T for a practical period\n";
      }
    } else {
      std::cout << fmt::format("  STALLED: {} of {} operations completed after {} periods\n", result.completed,
                               result.operations, result.periods);
    }
  }
  return static_cast<int>(result.finished ? ExitCode::success : ExitCode::internal_error);
}

int run_simulate(const SimulateOptions& options) {
  if (options.operations == 0) throw InputError("--operations: must be at least 1");
  const std::string text = read_text_file(options.plan_file);
  if (looks_like_periodic_plan(text)) return simulate_periodic(options, text);
  throw InputError(fmt::format("{}: not a steady-state plan (no \"period\"); only periodic plans are simulated",
                               options.plan_file));
}

}  // namespace

void add_simulate_command(CLI::App& app, int& result) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* simulate = app.add_subcommand(
      "simulate", "Run a plan in the discrete-event simulator: K pipelined operations of a steady-state plan, with "
                  "start-up and clean-up; reports the measured throughput against the plan's");
  add_platform_options(simulate, options->platform);
  simulate->add_option("--plan", options->plan_file, "The plan JSON file (written by --out)")->required();
  simulate->add_option("--operations", options->operations, "K: how many operations to run (default 1000)");
  simulate->add_flag("--json", options->json, "Print the result as JSON");
  simulate->callback([&result, options] { result = run_simulate(*options); });
}

}  // namespace hetcoll::cli
