#include "cli_common.h"

#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/core/files.h"

namespace hetcoll::cli {

LoadedCluster load_cluster(const PlatformOptions& options) {
  if (options.platform_file.empty() == options.times.empty()) {
    throw InputError("give exactly one of --platform FILE and --times T,T,...");
  }
  if (!options.times.empty()) return {parse_times_list(options.times), {}};
  LoadedPlatform loaded = load_platform_file(options.platform_file);
  if (loaded.is_cluster()) return {std::get<Cluster>(std::move(loaded.model)), {}};
  if (!options.message_size && !loaded.graph().has_fixed_costs()) {
    throw InputError(fmt::format("{}: its edges give latency/bandwidth; add --message-size BYTES to turn them into "
                                 "transmission times",
                                 options.platform_file));
  }
  Cluster cluster = cluster_from_platform(loaded.graph(), options.message_size, options.platform_file);
  std::string size = options.message_size ? fmt::format("{} bytes", *options.message_size) : "unit messages";
  return {std::move(cluster),
          {fmt::format("{} is a platform graph: each node's transmission time is its slowest outgoing route "
                       "for {} (sender-speed view)",
                       options.platform_file, size)}};
}

ProcessorIndex resolve_processor(const Cluster& cluster, const std::string& name, const char* option,
                                 ProcessorIndex fallback) {
  if (name.empty()) return fallback;
  auto found = cluster.find(name);
  if (!found) {
    throw InputError(fmt::format("{}: no processor \"{}\" (give an id or an index 0..{})", option, name,
                                 cluster.size() - 1));
  }
  return *found;
}

std::vector<ProcessorIndex> resolve_processor_list(const Cluster& cluster, const std::string& list, const char* option) {
  std::vector<ProcessorIndex> result;
  for (const auto& item : split_list(list, option)) result.push_back(resolve_processor(cluster, item, option, kNoProcessor));
  return result;
}

void add_platform_options(CLI::App* command, PlatformOptions& options) {
  command->add_option("--platform", options.platform_file,
                      "Platform file: JSON (model cluster or graph) or SimGrid XML (.xml)");
  command->add_option("--times", options.times, "Inline cluster: transmission times T,T,... (processors p0, p1, ...)");
  command->add_option("--message-size", options.message_size,
                      "Message size in bytes, turning latency/bandwidth edges into costs")
      ->check(CLI::PositiveNumber);
}

void add_output_options(CLI::App* command, OutputOptions& options) {
  command->add_flag("--json", options.json, "Print the plan as JSON on stdout (docs/FORMATS.md)");
  command->add_option("--out", options.out_file, "Write the plan (JSON, with every transfer) to this file");
  command->add_option("--gantt", options.gantt_file, "Write a Gantt chart (SVG): one row per processor");
  command->add_option("--dot", options.dot_file,
                      "Write the communication tree: Graphviz DOT, or an SVG drawing when FILE ends in .svg");
  command->add_flag("--quiet", options.quiet, "Print only the summary, no tree and no progress");
}

ProgressCallback progress_printer(bool quiet) {
  if (quiet || !isatty(STDERR_FILENO)) return {};
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

std::vector<std::string> split_list(const std::string& list, const char* option) {
  std::vector<std::string> items;
  std::size_t position = 0;
  while (position <= list.size()) {
    std::size_t comma = list.find(',', position);
    if (comma == std::string::npos) comma = list.size();
    std::string item = list.substr(position, comma - position);
    if (item.empty()) throw InputError(fmt::format("{}: empty item in \"{}\"", option, list));
    items.push_back(std::move(item));
    position = comma + 1;
  }
  return items;
}

std::vector<ProcessorIndex> resolve_node_list(const Platform& platform, const std::string& list, const char* option) {
  std::vector<ProcessorIndex> nodes;
  for (const auto& item : split_list(list, option)) nodes.push_back(resolve_node(platform, item, option));
  return nodes;
}

void write_file(const std::string& path, const std::string& text, const char* option) {
  write_text_file(path, text, option);
}

void add_limit_options(CLI::App* command, LimitOptions& options) {
  command->add_option("--time-limit", options.time_limit,
                      fmt::format("Wall-clock limit in seconds for searches, DPs and the PTAS (default {:g}; \"none\" "
                                  "for no limit). A search stops at the limit and prints its best plan; a DP or the "
                                  "PTAS whose predicted time exceeds it refuses at once and prints the fallback plan "
                                  "(FNF or SNF). Either way the exit code is 4",
                                  kDefaultTimeLimitSeconds));
  command->add_option("--node-limit", options.node_limit,
                      "Stop exact searches after exactly N search nodes (a positive integer, default none) and "
                      "print the best plan so far (exit code 4); also under --algo auto");
}

SearchLimits parse_limits(const LimitOptions& options) {
  SearchLimits limits;
  limits.time_limit_seconds = kDefaultTimeLimitSeconds;
  if (!options.time_limit.empty()) {
    if (options.time_limit == "none") {
      limits.time_limit_seconds = std::numeric_limits<double>::infinity();
    } else {
      double seconds = 0;
      const char* begin = options.time_limit.data();
      const char* end = begin + options.time_limit.size();
      auto [stop, error] = std::from_chars(begin, end, seconds);
      if (error != std::errc() || stop != end || !std::isfinite(seconds) || !(seconds > 0)) {
        throw InputError(fmt::format("--time-limit: must be a positive number of seconds or \"none\", got \"{}\"",
                                     options.time_limit));
      }
      limits.time_limit_seconds = seconds;
    }
  }
  if (!options.node_limit.empty() && options.node_limit != "none") {
    std::uint64_t nodes = 0;
    const char* begin = options.node_limit.data();
    const char* end = begin + options.node_limit.size();
    auto [stop, error] = std::from_chars(begin, end, nodes);
    if (error == std::errc::result_out_of_range) {
      throw InputError(fmt::format("--node-limit: {} is too large (at most {}; \"none\" for no limit)",
                                   options.node_limit, kNoNodeLimit - 1));
    }
    if (error != std::errc() || stop != end || nodes == 0 || nodes == kNoNodeLimit) {
      throw InputError(fmt::format("--node-limit: must be a positive integer or \"none\", got \"{}\"",
                                   options.node_limit));
    }
    limits.node_limit = nodes;
  }
  return limits;
}

Platform load_platform_graph(const PlatformOptions& options) {
  if (!options.times.empty()) {
    if (!options.platform_file.empty()) throw InputError("--platform and --times: give only one");
    return Platform::from_cluster(parse_times_list(options.times));
  }
  if (options.platform_file.empty()) throw InputError("--platform: required (a graph JSON or SimGrid XML file)");
  auto loaded = load_platform_file(options.platform_file);
  if (loaded.is_cluster()) return Platform::from_cluster(loaded.cluster());
  return loaded.graph();
}

ProcessorIndex resolve_node(const Platform& platform, const std::string& name, const char* option) {
  if (name.empty()) {
    auto participants = platform.participants();
    if (participants.empty()) throw InputError(fmt::format("{}: the platform has only routers", option));
    return participants.front();
  }
  auto found = platform.find(name);
  if (!found) throw InputError(fmt::format("{}: no node \"{}\" in the platform", option, name));
  return *found;
}

}  // namespace hetcoll::cli
