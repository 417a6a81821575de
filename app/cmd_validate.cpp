// validate: check a plan file against the model.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli_common.h"
#include "commands.h"
#include "hetcoll/core/error.h"

#include "hetcoll/plan/plan_json.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll::cli {
namespace {

int run_validate(const PlatformOptions& platform, const std::string& plan_file, bool json) {
  LoadedCluster loaded = load_cluster(platform);
  if (plan_file.empty()) throw InputError("--plan: required (a plan JSON file written by --out)");
  MakespanPlan plan = parse_plan_json(read_text_file(plan_file), loaded.cluster, plan_file);
  VerifyReport report = verify(loaded.cluster, plan);
  if (json) {
    std::cout << "{\"valid\": " << (report.valid ? "true" : "false") << ", \"operation\": \"" << to_string(plan.operation)
              << "\", \"makespan\": " << fmt::format("{}", report.measured_makespan)
              << ", \"violation_count\": " << report.violation_count << ", \"violations\": [";
    for (size_t i = 0; i < report.violations.size(); ++i) {
      std::cout << (i ? ", " : "") << json_quote(report.violations[i]);
    }
    std::cout << "]}\n";
  } else if (report.valid) {
    std::cout << fmt::format("{}: valid {} plan, {} messages, makespan {:.6g}\n", plan_file, to_string(plan.operation),
                             plan.transfers.size(), report.measured_makespan);
  } else {
    std::cout << fmt::format("{}: INVALID {} plan, {} violation(s):\n{}", plan_file, to_string(plan.operation),
                             report.violation_count, report.summary());
  }
  return static_cast<int>(report.valid ? ExitCode::success : ExitCode::bad_input);
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
                                                      "completeness, claimed numbers)");
  add_platform_options(validate, options->platform);
  validate->add_option("--plan", options->plan, "The plan JSON file")->required();
  validate->add_flag("--json", options->json, "Print the verdict as JSON");
  validate->callback([&result, options] { result = run_validate(options->platform, options->plan, options->json); });
}

}  // namespace hetcoll::cli
