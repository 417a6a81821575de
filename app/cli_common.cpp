#include "cli_common.h"

#include <fstream>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll::cli {

LoadedCluster load_cluster(const PlatformOptions& options) {
  if (options.platform_file.empty() == options.times.empty()) {
    throw InputError("give exactly one of --platform FILE and --times T,T,...");
  }
  if (!options.times.empty()) return {parse_times_list(options.times), {}};
  LoadedPlatform loaded = load_platform_file(options.platform_file);
  if (loaded.is_cluster()) return {loaded.cluster(), {}};
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
  size_t position = 0;
  while (position <= list.size()) {
    size_t comma = list.find(',', position);
    if (comma == std::string::npos) comma = list.size();
    std::string item = list.substr(position, comma - position);
    if (item.empty()) throw InputError(fmt::format("{}: empty item in \"{}\"", option, list));
    result.push_back(resolve_processor(cluster, item, option, kNoProcessor));
    position = comma + 1;
  }
  return result;
}

void write_file(const std::string& path, const std::string& text, const char* option) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw InputError(fmt::format("{}: cannot write \"{}\"", option, path));
  out << text;
  if (!out) throw InputError(fmt::format("{}: cannot write \"{}\"", option, path));
}

}  // namespace hetcoll::cli
