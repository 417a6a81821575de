// steady scatter|gossip|reduce: optimal steady-state throughput of a long
// series of operations on a platform graph, its periodic one-port schedule,
// and the proof (Legrand, Marchal, Robert 2003). Parsing and printing only:
// the planners are in src/hetcoll/steady/, the checks in verify/.
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "cli_common.h"
#include "command_deadline.h"
#include "commands.h"
#include "option_table.h"
#include "hetcoll/core/error.h"
#include "hetcoll/model/participants.h"
#include "hetcoll/plan/periodic_plan_json.h"
#include "hetcoll/report/periodic_plan_text.h"
#include "hetcoll/sim/periodic_simulator.h"
#include "hetcoll/steady/steady_planner.h"
#include "hetcoll/verify/verify_periodic.h"

namespace hetcoll::cli {
namespace {

struct SteadyCommandOptions {
  PlatformOptions platform;
  std::string source;        // scatter
  std::string sources;       // gossip
  std::string targets;       // scatter, gossip
  std::string root;          // reduce
  std::string participants;  // every operation: the others become routers; reduce: also the order
  std::string formulation;
  std::string period_max;
  bool exact = false;
  bool whole_messages = false;
  std::string simplex;  // empty: dual (reduce: tree pricing)
  bool exact_solver = false;
  bool column_generation = false;
  bool full_lp = false;
  std::uint64_t simulate = 0;
  std::size_t slots = 12;
  bool json = false;
  bool quiet = false;
  std::string out_file;
  std::string time_limit;  // seconds or "none"; empty: none
};

// The practical period's loss bound: at most 1% of the optimal throughput
// (Legrand, Marchal, Robert 2003 Prop. 4).
constexpr double kPracticalLoss = 0.01;

SteadyOptions planner_options(const SteadyCommandOptions& options) {
  SteadyOptions result;
  result.message_size = options.platform.message_size;
  result.split_messages = !options.whole_messages;
  if (!options.formulation.empty()) {
    if (options.formulation == "per-type") {
      result.formulation = PersonalFormulation::per_type;
    } else if (options.formulation == "by-source") {
      result.formulation = PersonalFormulation::by_source;
    } else {
      throw InputError(fmt::format("--formulation: \"{}\" is not per-type or by-source", options.formulation));
    }
  }
  if (!options.period_max.empty()) {
    Rational value;
    if (!parse_rational(options.period_max, value) || value.get_den() != 1 || value < 1) {
      throw InputError(fmt::format("--period-max: \"{}\" is not a whole number >= 1", options.period_max));
    }
    result.period_max = value.get_num();
  } else if (!options.exact && !options.json) {
    // Text output: a practical period by default, the exact plan with --exact or --json.
    result.practical_loss = kPracticalLoss;
  }
  if (options.simplex == "primal") {
    result.lp.algorithm = lp::SimplexAlgorithm::primal;
  } else if (options.simplex == "presolve") {
    result.lp.algorithm = lp::SimplexAlgorithm::presolve;
  } else if (options.simplex == "barrier") {
    result.lp.algorithm = lp::SimplexAlgorithm::barrier;
  } else if (!options.simplex.empty() && options.simplex != "dual") {
    throw InputError(fmt::format("--simplex: \"{}\" is not dual, primal, presolve or barrier", options.simplex));
  }
  result.lp.exact_solver_only = options.exact_solver;
  // Naming a Clp method asks for the full LP, where it applies.
  result.personal_full_lp = options.full_lp || !options.simplex.empty();
  // Reduce: naming a Clp method asks for the full LP, where it applies.
  if (options.column_generation) {
    result.reduce_method = ReduceLpMethod::column_generation;
  } else if (options.full_lp || !options.simplex.empty()) {
    result.reduce_method = ReduceLpMethod::full;
  }
  return result;
}

int run_steady(SteadyOperation operation, const SteadyCommandOptions& options) {
  CommandDeadline deadline(steady_time_limit(options.time_limit), fmt::format("steady {}", to_string(operation)));
  deadline.phase("reading the platform");
  Platform platform = load_platform_graph(options.platform);
  if (!options.participants.empty()) {
    platform = with_participants(platform, split_list(options.participants, "--participants"), "--participants");
  }
  if (!options.platform.message_size && !platform.has_fixed_costs()) {
    throw InputError(fmt::format("{}: its edges give latency/bandwidth; add --message-size BYTES",
                                 options.platform.platform_file));
  }
  const auto steady = planner_options(options);
  deadline.phase("solving the LP exactly and building the periodic schedule");
  PeriodicPlan plan;
  switch (operation) {
    case SteadyOperation::scatter:
      plan = plan_steady_scatter(platform, resolve_node(platform, options.source, "--source"),
                                 options.targets.empty() ? std::vector<ProcessorIndex>{}
                                                         : resolve_node_list(platform, options.targets, "--targets"),
                                 steady);
      break;
    case SteadyOperation::gossip:
      plan = plan_steady_gossip(platform,
                                options.sources.empty() ? std::vector<ProcessorIndex>{}
                                                        : resolve_node_list(platform, options.sources, "--sources"),
                                options.targets.empty() ? std::vector<ProcessorIndex>{}
                                                        : resolve_node_list(platform, options.targets, "--targets"),
                                steady);
      break;
    case SteadyOperation::reduce: {
      auto participants = options.participants.empty()
                              ? std::vector<ProcessorIndex>{}
                              : resolve_node_list(platform, options.participants, "--participants");
      plan = plan_steady_reduce(platform, resolve_node(platform, options.root, "--root"), participants, steady);
      break;
    }
    case SteadyOperation::broadcast: throw InputError("steady broadcast: not handled here");
    case Operation::multicast:
    case Operation::allreduce:
    case Operation::allgather:
      throw InputError(fmt::format("{}: not a steady-state operation", to_string(operation)));
  }

  deadline.phase("verifying the plan");
  const auto report = verify_periodic_plan(platform, plan);
  if (!report.valid) {
    std::cerr << "hetcoll: internal error: the plan failed verification:\n" << report.summary();
    return static_cast<int>(ExitCode::internal_error);
  }
  std::optional<PeriodicSimulationResult> simulation;
  if (options.simulate > 0) {
    deadline.phase("simulating");
    PeriodicSimulationOptions simulation_options;
    simulation_options.operations = options.simulate;
    simulation = simulate_periodic_plan(platform, plan, simulation_options);
  }
  deadline.disarm();  // the outputs are written whole
  PeriodicPlanJsonOptions json_options;
  json_options.valid = report.valid;
  if (simulation) json_options.extra_fields.emplace_back("simulation", simulation_result_json(*simulation));
  if (!options.out_file.empty()) {
    std::ostringstream text;
    write_periodic_plan_json(text, plan, platform, json_options);
    write_file(options.out_file, text.str(), "--out");
  }
  if (options.json) {
    write_periodic_plan_json(std::cout, plan, platform, json_options);
    return 0;
  }
  PeriodicTextOptions text_options;
  text_options.exact = options.exact;
  std::cout << periodic_plan_summary(plan, platform, report, text_options);
  if (simulation) {
    std::cout << "  simulated    " << periodic_simulation_text(*simulation, platform) << "\n";
    if (auto caveat = short_run_caveat(plan, options.simulate)) {
      // Suggest only what was not asked for already.
      std::string advice;
      if (options.exact && options.period_max.empty()) {
        advice = "; without --exact the period is a practical one";
      } else if (plan.operations_per_period < 100'000'000) {
        advice = fmt::format("; simulate at least {} operations (10 periods)",
                             BigInteger(10 * plan.operations_per_period).get_str());
      }
      std::cout << "  note         " << *caveat << advice << "\n";
    }
  }
  if (!options.quiet) std::cout << "\n" << periodic_plan_schedule_text(plan, platform, options.slots, 6, text_options);
  if (!options.out_file.empty()) std::cout << fmt::format("plan written to {}\n", options.out_file);
  return 0;
}

void add_common_options(CLI::App* command, SteadyCommandOptions& options, bool personal) {
  add_table_option(command, "--platform", options.platform.platform_file);
  add_table_option(command, "--times", options.platform.times);
  add_byte_size_option(command, "--message-size", options.platform.message_size);
  if (personal) {
    add_table_option(command, "--participants", options.participants);
    add_table_flag(command, "--full-lp", options.full_lp);
    command->add_option("--formulation", options.formulation,
                        "LP: per-type (one commodity per source-target pair, the paper's) or by-source (one per "
                        "source: far smaller, same optimum). Default: by-source");
  }
  command->add_option("--period-max", options.period_max,
                      "Fixed period T (Prop. 4): round the paths/trees down to a period of T time units when the "
                      "exact period is longer; the throughput lost is printed (at most trees / T). Default: text "
                      "output picks T so that the loss is at most 1% of the optimum; --exact and --json keep the "
                      "exact period");
  add_table_flag(command, "--exact", options.exact);
  command->add_flag("--whole-messages", options.whole_messages,
                    "Never split a message across slots: the period is multiplied until every count is whole "
                    "(Fig. 4(b)); default: messages may be split (Fig. 4(a))");
  add_table_option(command, "--simplex", options.simplex);
  command->add_flag("--exact-solver", options.exact_solver,
                    "Solve with QSopt_ex (exact rational simplex) instead of Clp + exact basis re-solve");
  command->add_option("--simulate", options.simulate,
                      "Also simulate K operations (1 to 1000000000) with start-up and clean-up; print the measured "
                      "throughput")
      ->check(whole_number_in(1, 1000000000));
  command->add_option("--slots", options.slots, "How many slots of the period to print (0 to 1000000, default 12)")
      ->check(whole_number_in(0, 1000000));
  add_table_flag(command, "--json", options.json);
  add_table_option(command, "--out", options.out_file);
  add_table_flag(command, "--quiet", options.quiet);
  add_steady_time_limit_option(command, options.time_limit);
}

}  // namespace

void add_steady_commands(CLI::App& app, int& result) {
  CLI::App* steady = nullptr;
  for (auto* command : app.get_subcommands({})) {
    if (command->get_name() == "steady") steady = command;
  }
  if (!steady) steady = app.add_subcommand("steady");
  steady->description(
      "Steady state (scatter, gossip, reduce, broadcast): the best throughput of a long series of operations on a "
      "platform graph (bidirectional "
      "one-port), a periodic schedule that reaches it, and its proof (Legrand, Marchal, Robert 2003; Beaumont, "
      "Marchal, Robert 2004 for broadcast)");
  steady->require_subcommand(1);

  auto scatter_options = std::make_shared<SteadyCommandOptions>();
  CLI::App* scatter = steady->add_subcommand(
      "scatter", "Series of scatters: the source sends a distinct message to every target in each operation");
  add_common_options(scatter, *scatter_options, true);
  add_table_option(scatter, "--source", scatter_options->source);
  add_table_option(scatter, "--targets", scatter_options->targets);
  scatter->callback([&result, scatter_options] { result = run_steady(SteadyOperation::scatter, *scatter_options); });

  auto gossip_options = std::make_shared<SteadyCommandOptions>();
  CLI::App* gossip = steady->add_subcommand(
      "gossip", "Series of gossips (personalised all-to-all): every source sends a distinct message to every target");
  add_common_options(gossip, *gossip_options, true);
  gossip->add_option("--sources", gossip_options->sources, "Sources P,P,... (default: every participant)");
  add_table_option(gossip, "--targets", gossip_options->targets);
  gossip->callback([&result, gossip_options] { result = run_steady(SteadyOperation::gossip, *gossip_options); });

  auto reduce_options = std::make_shared<SteadyCommandOptions>();
  CLI::App* reduce = steady->add_subcommand(
      "reduce", "Series of reduces: the participants' values combined in order (associative operator) on the root");
  add_common_options(reduce, *reduce_options, false);
  add_table_option(reduce, "--root", reduce_options->root);
  add_table_option(reduce, "--participants", reduce_options->participants);
  auto* full_lp = add_table_flag(reduce, "--full-lp", reduce_options->full_lp);
  reduce->add_flag("--column-generation", reduce_options->column_generation,
                   "Solve the full LP by column generation: start from the flat reductions' columns, add the others "
                   "as their reduced costs ask; the exact check still prices every column, so the optimum and its "
                   "certificate are the full LP's. Slower than the default on the platforms measured")
      ->excludes(full_lp);
  reduce->callback([&result, reduce_options] { result = run_steady(SteadyOperation::reduce, *reduce_options); });
}

}  // namespace hetcoll::cli
