// Reading and writing platform files (docs/FORMATS.md "Platform files").
//
// A platform file is JSON with "model": "cluster" (sender-speed model) or
// "model": "graph" (platform graph), or a SimGrid XML platform (by the
// `.xml` extension or a leading '<'). `--times 1,1,2.5` builds an inline
// cluster. Every error is an InputError naming the file and the field, line
// or column.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>

#include "hetcoll/model/cluster.h"
#include "hetcoll/model/platform.h"

namespace hetcoll {

struct LoadedPlatform {
  std::variant<Cluster, Platform> model;
  std::string source_name;  // the file name, or "times" (a list of times)

  bool is_cluster() const { return std::holds_alternative<Cluster>(model); }
  const Cluster& cluster() const { return std::get<Cluster>(model); }
  const Platform& graph() const { return std::get<Platform>(model); }
};

// Parses a JSON platform document; `source_name` (a file name) prefixes errors.
LoadedPlatform parse_platform_json(std::string_view text, std::string_view source_name);

// Reads a file: SimGrid XML when it ends in .xml or starts with '<', else JSON.
LoadedPlatform load_platform_file(const std::string& path);

// "1,1,2.5,4" -> a cluster p0..p3. Whitespace around numbers is allowed.
// `parameter` names the list in errors (InputError::parameter(): "times",
// "class_times").
Cluster parse_times_list(std::string_view list, std::string_view parameter = "times");

// Writes the docs/FORMATS.md JSON form (ids, times / nodes, edges; every number
// printed so that it reads back exactly).
void write_cluster_json(std::ostream& out, const Cluster& cluster);
void write_platform_json(std::ostream& out, const Platform& platform);

// write_platform_json writes the declared routes of a platform whose routing
// cannot list them (SimGrid) for every ordered pair of hosts; above this many
// pairs it throws InputError instead.
inline constexpr std::size_t kMaxWrittenRoutes = 250'000;

// cluster_from_platform times every ordered pair of participants' route:
// above this many participants it throws InputError instead.
inline constexpr std::size_t kMaxSenderSpeedParticipants = 4096;

// The sender-speed view of a platform graph, for makespan planners: one
// processor per participant (Platform::participants(), in index order), whose
// transmission time t(p) is its slowest route to another participant,
// max_q Platform::route_time(route(p, q)), for a message of `message_size`
// bytes (an upper bound on any send of p when p sends alone). Routes are the
// platform's (declared, else direct edge, else cheapest path). Throws
// NoSolutionError (exit code 3) naming a pair that no route joins, InputError
// naming a pair whose route takes an infinite time, and above
// kMaxSenderSpeedParticipants participants. Cost: participants^2 routes.
Cluster cluster_from_platform(const Platform& platform, std::optional<double> message_size,
                              std::string_view source_name);

// Reads a whole file into a string; InputError if it cannot be read.
std::string read_text_file(const std::string& path);

}  // namespace hetcoll
