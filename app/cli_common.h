// Shared pieces of the hetcoll command: loading the platform, resolving
// processor names, writing output files. Presentation only: every algorithm
// lives in the library.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "hetcoll/core/error.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/model/cluster.h"
#include "hetcoll/model/platform_io.h"

namespace hetcoll::cli {

// Checks on an option's text, before CLI11 converts it (so "-5" is not
// wrapped into a huge unsigned number, and "nan" is not a positive number):
// the message names the value, e.g. `--simulate: must be a whole number from
// 1 to 10000000, got "-5"`.
CLI::Validator whole_number_in(long long smallest, long long largest);
CLI::Validator positive_finite_number();

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

// From --platform or --times (exactly one), as written: a cluster or a graph.
LoadedPlatform load_platform(const PlatformOptions& options);

// A loaded platform as a cluster: itself, or a graph's sender-speed view.
LoadedCluster sender_speed_view(const LoadedPlatform& loaded, const PlatformOptions& options);
// The same, taking the cluster out of `loaded` instead of copying it.
LoadedCluster sender_speed_view(LoadedPlatform&& loaded, const PlatformOptions& options);

// The message size for a graph: --message-size, else `plan_message_size` (a
// plan file's), else none; InputError when the graph's edges need one.
std::optional<double> graph_message_size(const PlatformOptions& options, const Platform& platform,
                                         std::optional<double> plan_message_size = std::nullopt);

// --source / --root: id or index; empty = `fallback`.
ProcessorIndex resolve_processor(const Cluster& cluster, const std::string& name, const char* option,
                                 ProcessorIndex fallback);
std::vector<ProcessorIndex> resolve_processor_list(const Cluster& cluster, const std::string& list, const char* option);

// --platform, --times, --message-size.
void add_platform_options(CLI::App* command, PlatformOptions& options);

// A byte-size option (--message-size, --slice-size): "1e6", "1MB" (10^6),
// "4KiB" (4096), ... (core/units.h); anything else, or 0, is refused naming
// the option (exit code 2). Its help comes from the option table
// (option_table.h).
CLI::Option* add_byte_size_option(CLI::App* command, const std::string& name, std::optional<double>& value);

struct OutputOptions {
  bool json = false;
  std::string out_file;
  std::string gantt_file;
  std::string dot_file;
  bool quiet = false;
};

// --json, --out, --gantt, --dot, --quiet.
void add_output_options(CLI::App* command, OutputOptions& options);

// Prints search progress on stderr about once a second when stderr is a
// terminal (nothing when quiet or redirected).
ProgressCallback progress_printer(bool quiet);

// A platform graph from --platform (a cluster file becomes its complete
// graph) or --times; for the graph commands (tree, steady).
Platform load_platform_graph(const PlatformOptions& options);
// A node by id or index; empty = the first participant. `option` names the flag.
ProcessorIndex resolve_node(const Platform& platform, const std::string& name, const char* option);
// "a,b,c" -> nodes (ids or indices); InputError naming `option`.
std::vector<ProcessorIndex> resolve_node_list(const Platform& platform, const std::string& list, const char* option);
// Splits "a,b,c" into its items; InputError naming `option` for an empty item.
std::vector<std::string> split_list(const std::string& list, const char* option);

// Writes text to a file, InputError naming the option and path on failure
// (the file is flushed and closed before success is claimed).
void write_file(const std::string& path, const std::string& text, const char* option);

// --time-limit and --node-limit, as given on the command line.
struct LimitOptions {
  std::string time_limit;  // seconds, or "none"; empty = kDefaultTimeLimitSeconds
  std::string node_limit;  // a positive integer, or "none"; empty = none
};

// Searches, DPs and the PTAS stop (or refuse to start) after this many
// seconds unless --time-limit says otherwise.
inline constexpr double kDefaultTimeLimitSeconds = 60;

// --time-limit, --node-limit.
void add_limit_options(CLI::App* command, LimitOptions& options);

// The SearchLimits they give; InputError naming the option for zero,
// negative, non-numeric or out-of-range values.
SearchLimits parse_limits(const LimitOptions& options);
// Pictures are drawn as SVG. A path ending in .png or .pdf is converted with
// rsvg-convert (Debian package librsvg2-bin) when it is installed.
enum class PictureFormat { svg, png, pdf, other };
PictureFormat picture_format(const std::string& path);
// Called before any work: InputError naming `option` when `path` asks for a
// format this machine cannot write (.png/.pdf without rsvg-convert), or for
// an extension other than .svg/.png/.pdf when `other_allowed` is false.
void check_picture_path(const std::string& path, const char* option, bool other_allowed = false);
// Writes `svg` to `path`, converted to PNG or PDF when the path asks for it.
void write_picture(const std::string& path, const std::string& svg, const char* option);

// The message of a library InputError as the command line says it: the
// parameter it names becomes the flag that sets it ("eps_prime: ..." ->
// "--eps-prime: ..."); messages about files are kept as they are.
std::string command_line_message(const InputError& error);

// How the user started hetcoll, for commands printed as suggestions:
// $HETCOLL_INVOKED_AS (scripts/hetcoll sets it to its own path as typed),
// else argv[0] ("hetcoll" when found on the PATH).
void set_invocation_name(const std::string& argv0);
const std::string& invocation_name();

}  // namespace hetcoll::cli
