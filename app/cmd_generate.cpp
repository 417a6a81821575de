// generate: random platform files.
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

#include "hetcoll/gen/cluster_generator.h"
#include "hetcoll/model/platform_io.h"

namespace hetcoll::cli {
namespace {

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

}  // namespace

void add_generate_command(CLI::App& app, int& result) {
  struct GenerateOptions {
    ClusterGeneratorOptions cluster;
    std::string out, class_times;
  };
  auto options = std::make_shared<GenerateOptions>();
  CLI::App* generate = app.add_subcommand("generate", "Generate a random platform file");
  generate->require_subcommand(1);
  CLI::App* cluster = generate->add_subcommand("cluster", "A k-class sender-speed cluster (papers' experiments)");
  cluster->add_option("--processors,-n", options->cluster.processors, "Number of processors (default 16)");
  cluster->add_option("--classes", options->cluster.classes, "Number of distinct times (default 3)");
  cluster->add_option("--min-time", options->cluster.min_time, "Fastest time (default 1)");
  cluster->add_option("--max-time", options->cluster.max_time, "Slowest time (default 4)");
  cluster->add_option("--class-times", options->class_times, "Explicit class times T,T,... (overrides)");
  cluster->add_option("--seed", options->cluster.seed, "Random seed (default 1)");
  cluster->add_option("--out", options->out, "Write to this file instead of stdout");
  cluster->callback([&result, options] {
    if (!options->class_times.empty()) {
      options->cluster.class_times = parse_times_list(options->class_times).transmission_times();
    }
    result = run_generate_cluster(options->cluster, options->out);
  });
}

}  // namespace hetcoll::cli
