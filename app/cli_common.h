// Shared pieces of the hetcoll command: loading the platform, resolving
// processor names, writing output files. Presentation only: every algorithm
// lives in the library.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hetcoll/model/cluster.h"
#include "hetcoll/model/platform_io.h"

namespace hetcoll::cli {

struct PlatformOptions {
  std::string platform_file;
  std::string times;
  std::optional<double> message_size;
};

struct LoadedCluster {
  Cluster cluster;
  std::vector<std::string> notes;  // e.g. how a graph was turned into a cluster
};

// From --platform or --times (exactly one). A graph platform (JSON graph or
// SimGrid XML) becomes its sender-speed view (model/platform_io.h).
LoadedCluster load_cluster(const PlatformOptions& options);

// --source / --root: id or index; empty = `fallback`.
ProcessorIndex resolve_processor(const Cluster& cluster, const std::string& name, const char* option,
                                 ProcessorIndex fallback);
std::vector<ProcessorIndex> resolve_processor_list(const Cluster& cluster, const std::string& list, const char* option);

// Writes text to a file, InputError naming the option and path on failure.
void write_file(const std::string& path, const std::string& text, const char* option);

}  // namespace hetcoll::cli
