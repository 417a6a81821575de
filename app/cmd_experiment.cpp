// experiment: reproduce a table or figure of the papers.
#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli_common.h"
#include "option_table.h"
#include "cli_parse_errors.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "hetcoll/core/limits.h"

#include "experiments/experiment.h"

namespace hetcoll::cli {
namespace {

// "--sizes 30,40": every item a whole number (an empty item is refused, as
// in every other comma-separated option).
std::vector<int> parse_rank_counts(const std::string& list) {
  std::vector<int> sizes;
  if (list.empty()) return sizes;
  for (const auto& item : split_list(list, "--sizes")) {
    int value = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (error != std::errc() || end != item.data() + item.size()) {
      throw InputError(fmt::format("--sizes: \"{}\" is not a whole number", item));
    }
    sizes.push_back(value);
  }
  return sizes;
}

int run_experiment(const std::string& name, bool quick, const std::string& out_dir, std::uint64_t seed,
                   double time_limit, const std::vector<int>& sizes, std::optional<unsigned> threads,
                   const std::string& operations) {
  const Experiment* experiment = find_experiment(name);
  if (!experiment) {
    std::vector<std::string> known;
    for (const auto& e : experiments()) known.push_back(e.name);
    std::string nearest = nearest_name(name, known);
    throw InputError(fmt::format("experiment: unknown experiment \"{}\"{}; `{} experiment --help` lists them", name,
                                 nearest.empty() ? "" : fmt::format(" (did you mean {}?)", nearest),
                                 invocation_name()));
  }
  if (!sizes.empty() && !experiment->takes_sizes) {
    throw InputError(fmt::format("--sizes: experiment {} has fixed sizes; only search-distinct and steady-scale take them",
                                 experiment->name));
  }
  if (threads && !experiment->takes_threads) {
    throw InputError(fmt::format("--threads: experiment {} does not take it; only search-distinct does",
                                 experiment->name));
  }
  if (!operations.empty() && !experiment->takes_threads && !experiment->takes_operations) {
    throw InputError(fmt::format("--operation: experiment {} does not take it; only search-distinct and "
                                 "steady-scale do",
                                 experiment->name));
  }
  if (threads && *threads > kMaxSearchThreads) {
    throw InputError(fmt::format("--threads: at most {} (0 = one per hardware thread), got {}", kMaxSearchThreads,
                                 *threads));
  }
  std::error_code error;
  std::filesystem::create_directories(out_dir, error);
  if (error) throw InputError(fmt::format("--out: cannot create directory \"{}\": {}", out_dir, error.message()));
  ExperimentOptions options;
  options.quick = quick;
  options.out_dir = out_dir;
  options.seed = seed;
  options.time_limit_seconds = time_limit;
  options.sizes = sizes;
  if (threads) options.threads = *threads;
  if (!operations.empty()) options.operations = split_list(operations, "--operation");
  options.progress = [](std::string_view line) { std::cerr << "  " << line << "\n"; };
  std::cerr << fmt::format("experiment {}: {} ({}){}\n", experiment->name, experiment->description,
                           experiment->reference, quick ? " [quick]" : "");
  ExperimentResult result = experiment->run(options);
  std::cout << result.summary;
  if (!result.summary.empty() && result.summary.back() != '\n') std::cout << "\n";
  for (const auto& file : result.files) std::cout << "wrote " << file << "\n";
  return 0;
}

}  // namespace

void add_experiment_command(CLI::App& app, int& result) {
  struct ExperimentCommandOptions {
    std::string name, out = "results";
    bool quick = false;
    std::uint64_t seed = 1;
    double time_limit = 0;
    std::string sizes;
    std::optional<unsigned> threads;
    std::string operation;
  };
  auto options = std::make_shared<ExperimentCommandOptions>();
  CLI::App* experiment = app.add_subcommand("experiment", "Reproduce a table or figure of the papers (CSV + SVG)");
  experiment->add_option("name", options->name, "Experiment name (listed below)")->required();
  experiment->footer([] {
    std::string list = "Experiments:\n";
    for (const auto& e : experiments()) {
      list += fmt::format("  {:<18}{} ({})\n", e.name, e.description, e.reference);
    }
    return list;
  });
  experiment->add_flag("--quick", options->quick, "A small version that runs in seconds");
  add_table_option(experiment, "--out", options->out);
  add_table_option(experiment, "--seed", options->seed);
  add_table_option(experiment, "--time-limit", options->time_limit);
  add_table_option(experiment, "--sizes", options->sizes);
  add_table_option(experiment, "--threads", options->threads);
  add_table_option(experiment, "--operation", options->operation);
  experiment->callback([&result, options] {
    result = run_experiment(options->name, options->quick, options->out, options->seed, options->time_limit,
                            parse_rank_counts(options->sizes), options->threads, options->operation);
  });
}

}  // namespace hetcoll::cli
