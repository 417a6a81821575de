#include "cli_common.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

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
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError(fmt::format("{}: cannot write \"{}\"", option, path));
  out << text;
  if (!out) throw InputError(fmt::format("{}: cannot write \"{}\"", option, path));
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
