// validate: check a plan file against the model.
#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli_common.h"
#include "option_table.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/core/wording.h"

#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/plan/program_plan_json.h"
#include "hetcoll/registry/program_plan_check.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/verify/verify.h"
#if HETCOLL_WITH_LP
#include "hetcoll/plan/periodic_plan_json.h"
#include "hetcoll/report/periodic_plan_text.h"
#include "hetcoll/verify/verify_periodic.h"
#endif

namespace hetcoll::cli {
namespace {

// The end of every validate --json line, whatever the plan's family:
// "violation_count": N, "violations": [...]}
std::string report_json_tail(const VerifyReport& report) {
  std::string text = fmt::format("\"violation_count\": {}, \"violations\": [", report.violation_count);
  for (std::size_t i = 0; i < report.violations.size(); ++i) text += (i ? ", " : "") + json_quote(report.violations[i]);
  return text + "]}\n";
}

#if HETCOLL_WITH_LP
// A steady-state plan (it has a "period"): checked against the platform graph.
int validate_periodic(const PlatformOptions& options, const std::string& plan_file, const std::string& text, bool json) {
  const Platform platform = load_platform_graph(options);
  const PeriodicPlan plan = parse_periodic_plan_json(text, platform, plan_file);
  const auto report = verify_periodic_plan(platform, plan, options.message_size);
  if (json) {
    std::cout << "{\"valid\": " << (report.valid ? "true" : "false") << ", \"operation\": \"" << to_string(plan.operation)
              << "\", \"throughput\": " << json_quote(to_string(plan.throughput))
              << ", \"certificate_checked\": " << (report.certificate_checked ? "true" : "false")
              << ", " << report_json_tail(report);
  } else if (report.valid) {
    std::cout << fmt::format("{}: valid steady-state {} plan, throughput {}, period {}, {} slots{}\n",
                             plan_file, to_string(plan.operation), periodic_rate_text(plan.throughput, platform),
                             period_text(plan.period, platform),
                             plan.slots.size(),
                             report.certificate_checked
                                 ? fmt::format("; bound {:.6g} proven by its certificate", to_double(plan.throughput_bound))
                                 : std::string("; no certificate"));
  } else {
    std::cout << fmt::format("{}: INVALID steady-state {} plan, {}:\n{}", plan_file, to_string(plan.operation),
                             count_of(report.violation_count, "violation"), report.summary());
  }
  return static_cast<int>(report.valid ? ExitCode::success : ExitCode::invalid_plan);
}
#endif

// A program plan (it has a "program"): its steps checked for the operation
// and its prediction recomputed on the platform (registry/program_plan_check.h).
int validate_program(const PlatformOptions& options, const std::string& plan_file, const std::string& text, bool json) {
  const Platform platform = load_platform_graph(options);
  const ProgramPlan plan = parse_program_plan_json(text, platform, plan_file);
  const ProgramPlanVerifyReport check = verify_program_plan(platform, plan);
  const VerifyReport& report = check;
  if (json) {
    std::cout << "{\"valid\": " << (report.valid ? "true" : "false") << ", \"operation\": \"" << to_string(plan.operation)
              << "\", \"algorithm\": " << json_quote(plan.algorithm)
              << ", \"predicted_seconds\": " << fmt::format("{}", report.measured_makespan)
              << ", \"symbolic_run\": " << (check.symbolic_run ? "true" : "false")
              << ", " << report_json_tail(report);
  } else if (report.valid) {
    std::cout << fmt::format("{}: valid {} program plan ({}), {} ranks, {} messages, predicted {:.6g} s in the flow "
                             "model{}\n",
                             plan_file, to_string(plan.operation), plan.algorithm, plan.participants.size(),
                             plan.program.message_count(), report.measured_makespan,
                             check.symbolic_run ? "" : "; the symbolic run was skipped (too large)");
  } else {
    std::cout << fmt::format("{}: INVALID {} program plan ({}), {}:\n{}", plan_file, to_string(plan.operation),
                             plan.algorithm, count_of(report.violation_count, "violation"), report.summary());
  }
  return static_cast<int>(report.valid ? ExitCode::success : ExitCode::invalid_plan);
}

// A sender-speed plan whose lower bound verify/ could not re-derive (above
// its closed forms, beyond its exact re-search): the bound is proven again
// from the platform by re-running the plan's algorithm, then the exact
// search, each within kRederiveSeconds; a bound neither run proves is refused.
constexpr double kRederiveSeconds = 3;

void rederive_lower_bound(const Cluster& cluster, const MakespanPlan& plan, VerifyReport& report) {
  if (!report.lower_bound_unproven) return;
  double proven = report.proven_lower_bound;
  std::string how = "its closed-form bounds";
  const double wanted = plan.lower_bound;
  auto enough = [&] { return proven >= wanted - tie_tolerance(wanted, proven, cluster.tolerance()); };
  for (std::string_view name : {std::string_view(plan.algorithm), std::string_view("optimal")}) {
    if (enough()) break;
    if (!find_makespan_algorithm(plan.operation, name)) continue;
    MakespanRequest request;
    request.operation = plan.operation;
    request.root = plan.root;
    request.targets = plan.targets;
    request.limits.time_limit_seconds = kRederiveSeconds;
    try {
      const MakespanPlan again = plan_makespan(cluster, request, name);
      if (again.lower_bound > proven) {
        proven = again.lower_bound;
        how = fmt::format("re-running {} ({} nodes, {})", again.algorithm, again.stats.nodes, to_string(again.status));
      }
    } catch (const InputError&) {
      // this algorithm does not take this request: the next one may
    }
  }
  if (!enough()) {
    report.add_violation(fmt::format("claims: the lower bound {} cannot be proven: validate re-derives {} ({})",
                                     wanted, proven, how));
  }
}

int run_validate(const PlatformOptions& platform, const std::string& plan_file, bool json) {
  if (plan_file.empty()) throw InputError("--plan: required (a plan JSON file written by --out)");
  const std::string text = read_text_file(plan_file);
#if HETCOLL_WITH_LP
  if (looks_like_periodic_plan(text)) return validate_periodic(platform, plan_file, text, json);
#endif
  if (looks_like_program_plan(text)) return validate_program(platform, plan_file, text, json);
  LoadedPlatform loaded = load_platform(platform);
  MakespanPlan plan;
  VerifyReport report;
  std::string model = "sender-speed model";
  if (loaded.is_cluster()) {
    // Read once, checked on the cluster itself (a million processors: no copy).
    plan = parse_plan_json(text, loaded.cluster(), plan_file);
    if (plan.model == PlanModel::eager) {
      throw InputError(fmt::format("{}: model: an eager plan is checked on the platform graph it was made for; {} is a "
                                   "cluster",
                                   plan_file, loaded.source_name));
    }
    report = verify(loaded.cluster(), plan);
    rederive_lower_bound(loaded.cluster(), plan, report);
  } else {
    plan = parse_plan_json(text, loaded.graph(), plan_file);
    if (plan.model == PlanModel::platform_graph || plan.model == PlanModel::eager) {
      GraphNetwork network(loaded.graph(), graph_message_size(platform, loaded.graph(), plan.message_size));
      report = verify(network, plan);
      model = plan.model == PlanModel::eager ? "eager model" : "platform graph";
    } else {
      // A sender-speed plan on a graph is checked in the graph's sender-speed view.
      PlatformOptions view_options = platform;
      if (!view_options.message_size) view_options.message_size = plan.message_size;
      LoadedCluster view = sender_speed_view(loaded, view_options);
      plan = parse_plan_json(text, view.cluster, plan_file);
      report = verify(view.cluster, plan);
      rederive_lower_bound(view.cluster, plan, report);
      model = "sender-speed view of the platform graph";
    }
  }
  if (json) {
    std::cout << "{\"valid\": " << (report.valid ? "true" : "false") << ", \"operation\": \"" << to_string(plan.operation)
              << "\", \"makespan\": " << fmt::format("{}", report.measured_makespan)
              << ", " << report_json_tail(report);
  } else if (report.valid) {
    // The model is named only for platform graphs, where there are two.
    std::cout << fmt::format("{}: valid {} plan, {} messages, makespan {:.6g}{}\n", plan_file,
                             to_string(plan.operation), plan.transfers.size(), report.measured_makespan,
                             loaded.is_cluster() ? std::string() : " (" + model + ")");
  } else {
    std::cout << fmt::format("{}: INVALID {} plan{}, {}:\n{}", plan_file, to_string(plan.operation),
                             loaded.is_cluster() ? std::string() : " (" + model + ")",
                             count_of(report.violation_count, "violation"), report.summary());
  }
  return static_cast<int>(report.valid ? ExitCode::success : ExitCode::invalid_plan);
}

}  // namespace

void add_validate_command(CLI::App& app, int& result) {
  struct ValidateOptions {
    PlatformOptions platform;
    std::string plan;
    bool json = false;
  };
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* validate = app.add_subcommand("validate", "Check any plan file against the model (one-port, causality, "
                                                      "completeness, claimed numbers). Exit 0: valid; 5: the plan "
                                                      "breaks the model; 2: a file could not be read");
  add_platform_options(validate, options->platform);
  add_table_option(validate, "--plan", options->plan)->required();
  add_table_flag(validate, "--json", options->json);
  validate->callback([&result, options] { result = run_validate(options->platform, options->plan, options->json); });
}

}  // namespace hetcoll::cli
