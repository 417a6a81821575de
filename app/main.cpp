// The hetcoll command: parses arguments, calls the library, prints results.
// No algorithm logic here (STYLE.md): planners, verification, pictures and
// experiments all live in src/hetcoll/.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli_common.h"
#include "hetcoll/core/error.h"
#include "hetcoll/experiments/experiment.h"
#include "hetcoll/gen/cluster_generator.h"
#include "hetcoll/makespan/registry.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/plan/plan_text.h"
#include "hetcoll/verify/verify.h"
#include "visual_outputs.h"

namespace hetcoll::cli {
namespace {

struct OutputOptions {
  bool json = false;
  std::string out_file;
  std::string gantt_file;
  std::string dot_file;
  bool quiet = false;
};

struct MakespanOptions {
  PlatformOptions platform;
  OutputOptions output;
  std::string processor;  // --source or --root
  std::string algorithm;
  std::string order;
  std::string targets;
  double time_limit = 0;
  std::uint64_t node_limit = 0;
  double eps = 0.5;
  double eps_prime = 0;
};

void add_platform_options(CLI::App* command, PlatformOptions& options) {
  command->add_option("--platform", options.platform_file,
                      "Platform file: JSON (model cluster or graph) or SimGrid XML (.xml)");
  command->add_option("--times", options.times, "Inline cluster: transmission times T,T,... (processors p0, p1, ...)");
  command->add_option("--message-size", options.message_size,
                      "Message size in bytes, turning latency/bandwidth edges into costs")
      ->check(CLI::PositiveNumber);
}

void add_output_options(CLI::App* command, OutputOptions& options) {
  command->add_flag("--json", options.json, "Print the plan as JSON on stdout (CONTRACT.md)");
  command->add_option("--out", options.out_file, "Write the plan (JSON, with every transfer) to this file");
  command->add_option("--gantt", options.gantt_file, "Write a Gantt chart (SVG): one row per processor");
  command->add_option("--dot", options.dot_file,
                      "Write the communication tree: Graphviz DOT, or an SVG drawing when FILE ends in .svg");
  command->add_flag("--quiet", options.quiet, "Print only the summary, no tree and no progress");
}

void write_outputs(const MakespanPlan& plan, const Cluster& cluster, const VerifyReport& report,
                   const OutputOptions& output) {
  if (!output.out_file.empty()) {
    std::ofstream file(output.out_file);
    if (!file) throw InputError(fmt::format("--out: cannot write \"{}\"", output.out_file));
    write_plan_json(file, plan, cluster, {report.valid, true});
  }
  if (!output.gantt_file.empty()) write_file(output.gantt_file, gantt_picture(plan, cluster), "--gantt");
  if (!output.dot_file.empty()) write_file(output.dot_file, tree_picture(plan, cluster, output.dot_file), "--dot");
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

ProgressCallback progress_printer(bool quiet) {
  if (quiet) return {};
  auto last = std::make_shared<std::chrono::steady_clock::time_point>(std::chrono::steady_clock::now());
  return [last](const SearchStats& stats, double best) {
    auto now = std::chrono::steady_clock::now();
    if (now - *last >= std::chrono::seconds(1)) {
      *last = now;
      std::cerr << fmt::format("  ... {} nodes, best makespan so far {:.6g}, {:.1f} s\n", stats.nodes, best,
                               stats.seconds);
    }
    return true;
  };
}

int run_makespan(Operation operation, const MakespanOptions& options) {
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
  if (options.time_limit > 0) request.time_limit_seconds = options.time_limit;
  if (options.node_limit > 0) request.node_limit = options.node_limit;
  request.eps = options.eps;
  if (options.eps_prime > 0) request.eps_prime = options.eps_prime;
  request.progress = progress_printer(options.output.quiet || options.output.json);
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
  return static_cast<int>(plan.limit_reached ? ExitCode::limit_reached : ExitCode::success);
}

CLI::App* add_makespan_command(CLI::App& app, const char* name, Operation operation, MakespanOptions& options,
                               const std::string& description, int& result) {
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
    if (algorithm.operation == operation) {
      algorithms += fmt::format("\n    {}{}: {}", algorithm.name, algorithm.is_default ? " (default)" : "",
                                algorithm.guarantee);
    }
  }
  command->add_option("--algo", options.algorithm, "Algorithm; `hetcoll algorithms` lists them all:" + algorithms);
  if (operation == Operation::reduce) {
    command->add_option("--order", options.order, "With --algo ep: the sender order P,P,... (all but the root)");
  }
  if (operation == Operation::multicast) {
    command->add_option("--targets", options.targets, "The processors that must receive: P,P,...")->required();
  }
  command->add_option("--eps", options.eps, "PTAS precision epsilon (default 0.5)")->check(CLI::PositiveNumber);
  command->add_option("--eps-prime", options.eps_prime, "PTAS fast/slow split epsilon' (default: --eps)")
      ->check(CLI::PositiveNumber);
  command->add_option("--time-limit", options.time_limit,
                      "Stop searches after S seconds and print the best plan so far (exit code 4)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--node-limit", options.node_limit, "Stop searches after N nodes (exit code 4)");
  add_output_options(command, options.output);
  command->callback([&result, operation, &options] { result = run_makespan(operation, options); });
  return command;
}

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

int run_algorithms(bool json) {
  if (json) {
    std::cout << "[";
    bool first = true;
    for (const auto& a : makespan_algorithms()) {
      std::cout << (first ? "\n " : ",\n ")
                << fmt::format("{{\"name\": {}, \"operation\": \"{}\", \"model\": \"cluster\", \"guarantee\": {}, "
                               "\"complexity\": {}, \"reference\": {}, \"default\": {}, \"summary\": {}}}",
                               json_quote(a.name), to_string(a.operation), json_quote(a.guarantee),
                               json_quote(a.complexity), json_quote(a.reference), a.is_default ? "true" : "false",
                               json_quote(a.summary));
      first = false;
    }
    std::cout << "\n]\n";
    return 0;
  }
  std::cout << "Makespan algorithms (sender-speed cluster model):\n";
  for (auto operation : {Operation::broadcast, Operation::multicast, Operation::reduce, Operation::allreduce}) {
    std::cout << fmt::format("\n{}\n", to_string(operation));
    for (const auto& a : makespan_algorithms()) {
      if (a.operation != operation) continue;
      std::cout << fmt::format("  {:<12}{}{}\n  {:<12}guarantee: {}\n  {:<12}time: {}\n  {:<12}reference: {}\n",
                               a.name, a.is_default ? "[default] " : "", a.summary, "", a.guarantee, "",
                               a.complexity, "", a.reference);
    }
  }
  if (!experiments().empty()) {
    std::cout << "\nExperiments (hetcoll experiment NAME):\n";
    for (const auto& e : experiments()) std::cout << fmt::format("  {:<16}{} ({})\n", e.name, e.description, e.reference);
  }
  return 0;
}

int run_experiment(const std::string& name, bool quick, const std::string& out_dir, std::uint64_t seed,
                   double time_limit) {
  const Experiment* experiment = find_experiment(name);
  if (!experiment) {
    std::string known;
    for (const auto& e : experiments()) known += (known.empty() ? "" : ", ") + e.name;
    throw InputError(fmt::format("experiment: unknown experiment \"{}\" (known: {})", name, known));
  }
  std::error_code error;
  std::filesystem::create_directories(out_dir, error);
  if (error) throw InputError(fmt::format("--out: cannot create directory \"{}\": {}", out_dir, error.message()));
  ExperimentOptions options;
  options.quick = quick;
  options.out_dir = out_dir;
  options.seed = seed;
  options.time_limit_seconds = time_limit;
  options.progress = [](std::string_view line) { std::cerr << "  " << line << "\n"; };
  std::cerr << fmt::format("experiment {}: {} ({}){}\n", experiment->name, experiment->description,
                           experiment->reference, quick ? " [quick]" : "");
  ExperimentResult result = experiment->run(options);
  std::cout << result.summary;
  if (!result.summary.empty() && result.summary.back() != '\n') std::cout << "\n";
  for (const auto& file : result.files) std::cout << "wrote " << file << "\n";
  return 0;
}

int run_generate_cluster(const ClusterGeneratorOptions& options, const std::string& out_file) {
  Cluster cluster = generate_cluster(options);
  if (out_file.empty()) {
    write_cluster_json(std::cout, cluster);
  } else {
    std::ostringstream text;
    write_cluster_json(text, cluster);
    write_file(out_file, text.str(), "--out");
    std::cout << fmt::format("wrote a {}-processor cluster to {}\n", cluster.size(), out_file);
  }
  return 0;
}

// seed 000 sec. 6.1: four fast Xeon 3.2 GHz and four slow Athlon MP 2 GHz
// processors on fast Ethernet; send times in proportion to the clocks.
Cluster demo_cluster() {
  return Cluster({"xeon0", "xeon1", "xeon2", "xeon3", "athlon0", "athlon1", "athlon2", "athlon3"},
                 {1.0, 1.0, 1.0, 1.0, 1.6, 1.6, 1.6, 1.6}, "demo cluster");
}

int run_demo(const std::string& out_dir) {
  Cluster cluster = demo_cluster();
  std::error_code error;
  std::filesystem::create_directories(out_dir, error);
  if (error) throw InputError(fmt::format("--out: cannot create directory \"{}\": {}", out_dir, error.message()));
  std::cout << "hetcoll demo — the 8-processor cluster of seed 000 sec. 6.1:\n"
               "  four fast processors (xeon0..3, t = 1.0 ms per message) and four slow ones\n"
               "  (athlon0..3, t = 1.6 ms). Planning the three collectives, checking every plan.\n\n";
  std::vector<std::string> written;
  for (auto operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
    MakespanRequest request;
    request.operation = operation;
    request.root = operation == Operation::allreduce ? kNoProcessor : 0;
    MakespanPlan plan = plan_makespan(cluster, request);
    VerifyReport report = verify(cluster, plan);
    std::cout << plan_summary(plan, cluster, report) << "\n" << tree_text(plan, cluster) << "\n";
    std::string path = (std::filesystem::path(out_dir) / fmt::format("{}-gantt.svg", to_string(operation))).string();
    write_file(path, gantt_picture(plan, cluster), "demo");
    written.push_back(path);
    if (!report.valid) {
      std::cerr << "internal error: a demo plan failed verification:\n" << report.summary();
      return 1;
    }
  }
  std::cout << "Gantt charts written to " << std::filesystem::absolute(out_dir).string() << "/:\n";
  for (const auto& path : written) std::cout << "  " << path << "\n";
  std::cout << "\nNext: hetcoll broadcast --times 1,1,2,3,3 --gantt g.svg   |   hetcoll algorithms   |   "
               "hetcoll --help\n";
  return 0;
}

}  // namespace
}  // namespace hetcoll::cli

int main(int argc, char** argv) {
  using namespace hetcoll;
  using namespace hetcoll::cli;
  CLI::App app{
      "hetcoll — plan, prove and check collective communications (broadcast, multicast, reduce, all-reduce) "
      "on heterogeneous clusters.\nEvery plan is verified against the communication model before it is printed.\n"
      "Exit codes: 0 success, 2 bad input, 3 no solution, 4 a limit was reached, 1 internal error.",
      "hetcoll"};
  app.require_subcommand(1);
  int result = 0;

  MakespanOptions broadcast_options, multicast_options, reduce_options, allreduce_options;
  add_makespan_command(app, "broadcast", Operation::broadcast, broadcast_options,
                       "One source sends a message to every processor (minimum makespan)", result);
  add_makespan_command(app, "multicast", Operation::multicast, multicast_options,
                       "One source sends a message to a group; other processors may help", result);
  add_makespan_command(app, "reduce", Operation::reduce, reduce_options,
                       "Combine every processor's value at a root (associative, commutative operator)", result);
  add_makespan_command(app, "allreduce", Operation::allreduce, allreduce_options,
                       "Combine every processor's value and give the result to all", result);

  PlatformOptions validate_platform;
  std::string validate_plan;
  bool validate_json = false;
  CLI::App* validate = app.add_subcommand("validate", "Check any plan file against the model (one-port, causality, "
                                                      "completeness, claimed numbers)");
  add_platform_options(validate, validate_platform);
  validate->add_option("--plan", validate_plan, "The plan JSON file")->required();
  validate->add_flag("--json", validate_json, "Print the verdict as JSON");
  validate->callback([&] { result = run_validate(validate_platform, validate_plan, validate_json); });

  bool algorithms_json = false;
  CLI::App* algorithms = app.add_subcommand("algorithms", "List the algorithms with their guarantees and references");
  algorithms->add_flag("--json", algorithms_json, "Print as JSON");
  algorithms->callback([&] { result = run_algorithms(algorithms_json); });

  std::string experiment_name, experiment_out = "results";
  bool experiment_quick = false;
  std::uint64_t experiment_seed = 1;
  double experiment_time_limit = 0;
  CLI::App* experiment = app.add_subcommand("experiment", "Reproduce a table or figure of the papers (CSV + SVG)");
  experiment->add_option("name", experiment_name, "Experiment name (see `hetcoll algorithms`)")->required();
  experiment->add_flag("--quick", experiment_quick, "A small version that runs in seconds");
  experiment->add_option("--out", experiment_out, "Directory for the CSV and SVG files (default: results)");
  experiment->add_option("--seed", experiment_seed, "Random seed (default 1)");
  experiment->add_option("--time-limit", experiment_time_limit, "Per-instance time limit in seconds");
  experiment->callback([&] {
    result = run_experiment(experiment_name, experiment_quick, experiment_out, experiment_seed, experiment_time_limit);
  });

  ClusterGeneratorOptions generator;
  std::string generate_out, class_times;
  CLI::App* generate = app.add_subcommand("generate", "Generate a random platform file");
  CLI::App* generate_cluster_command =
      generate->add_subcommand("cluster", "A k-class sender-speed cluster (seeds' experiments)");
  generate->require_subcommand(1);
  generate_cluster_command->add_option("--processors,-n", generator.processors, "Number of processors (default 16)");
  generate_cluster_command->add_option("--classes", generator.classes, "Number of distinct times (default 3)");
  generate_cluster_command->add_option("--min-time", generator.min_time, "Fastest time (default 1)");
  generate_cluster_command->add_option("--max-time", generator.max_time, "Slowest time (default 4)");
  generate_cluster_command->add_option("--class-times", class_times, "Explicit class times T,T,... (overrides)");
  generate_cluster_command->add_option("--seed", generator.seed, "Random seed (default 1)");
  generate_cluster_command->add_option("--out", generate_out, "Write to this file instead of stdout");
  generate_cluster_command->callback([&] {
    if (!class_times.empty()) generator.class_times = parse_times_list(class_times).transmission_times();
    result = run_generate_cluster(generator, generate_out);
  });

  std::string demo_out = "hetcoll-demo";
  CLI::App* demo = app.add_subcommand("demo", "Plan broadcast, reduce and all-reduce on a built-in 8-processor cluster");
  demo->add_option("--out", demo_out, "Directory for the Gantt charts (default: hetcoll-demo)");
  demo->callback([&] { result = run_demo(demo_out); });

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return static_cast<int>(ExitCode::bad_input);
  } catch (const InputError& e) {
    std::cerr << "hetcoll: " << e.what() << "\n";
    return static_cast<int>(ExitCode::bad_input);
  } catch (const NoSolutionError& e) {
    std::cerr << "hetcoll: no solution: " << e.what() << "\n";
    return static_cast<int>(ExitCode::no_solution);
  } catch (const std::exception& e) {
    std::cerr << "hetcoll: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::internal_error);
  }
  return result;
}
