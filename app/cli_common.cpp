#include "cli_common.h"
#include "option_table.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/core/files.h"
#include "hetcoll/core/units.h"
#include "hetcoll/model/element_names.h"
#include "hetcoll/hetcoll.h"

namespace hetcoll::cli {

LoadedCluster load_cluster(const PlatformOptions& options) { return sender_speed_view(load_platform(options), options); }

LoadedCluster sender_speed_view(LoadedPlatform&& loaded, const PlatformOptions& options) {
  // A million-processor cluster is about 50 MB: moved, not copied.
  if (loaded.is_cluster()) return {std::get<Cluster>(std::move(loaded.model)), {}};
  return sender_speed_view(static_cast<const LoadedPlatform&>(loaded), options);
}

LoadedCluster sender_speed_view(const LoadedPlatform& loaded, const PlatformOptions& options) {
  if (loaded.is_cluster()) return {loaded.cluster(), {}};
  graph_message_size(options, loaded.graph());
  Cluster cluster = cluster_from_platform(loaded.graph(), options.message_size, options.platform_file);
  std::string size = options.message_size ? fmt::format("{} bytes", *options.message_size) : "unit messages";
  return {std::move(cluster),
          {fmt::format("{} is a platform graph seen in its sender-speed view: each participant's transmission time "
                       "is its slowest route to another participant for {}",
                       options.platform_file, size)}};
}

LoadedPlatform load_platform(const PlatformOptions& options) {
  if (options.platform_file.empty() == options.times.empty()) {
    throw InputError("give exactly one of --platform FILE and --times T,T,...");
  }
  if (!options.times.empty()) {
    if (options.message_size) {
      throw InputError("--message-size: --times gives the transmission times themselves; a message size would change "
                       "nothing (it turns the latency and bandwidth of a platform graph into times)");
    }
    return {parse_times_list(options.times), "--times"};
  }
  LoadedPlatform loaded = load_platform_file(options.platform_file);
  if (loaded.is_cluster() && options.message_size) {
    throw InputError(fmt::format("--message-size: {} is a cluster (one transmission time per processor); a message "
                                 "size would change nothing (it turns the latency and bandwidth of a platform "
                                 "graph into times)",
                                 options.platform_file));
  }
  if (!loaded.is_cluster() && options.message_size && loaded.graph().has_fixed_costs()) {
    throw InputError(fmt::format("--message-size: every edge of {} gives a fixed cost; a message size would change "
                                 "nothing (it applies to edges with latency and bandwidth)",
                                 options.platform_file));
  }
  return loaded;
}

std::optional<double> graph_message_size(const PlatformOptions& options, const Platform& platform,
                                         std::optional<double> plan_message_size) {
  std::optional<double> size = options.message_size ? options.message_size : plan_message_size;
  if (!size && !platform.has_fixed_costs()) {
    throw InputError(fmt::format("{}: its edges give latency/bandwidth; add --message-size BYTES to turn them into "
                                 "transmission times",
                                 options.platform_file));
  }
  return size;
}

ProcessorIndex resolve_processor(const Cluster& cluster, const std::string& name, const char* option,
                                 ProcessorIndex fallback) {
  if (name.empty()) return fallback;
  return ProcessorRef(name).resolve(cluster, option);
}

std::vector<ProcessorIndex> resolve_processor_list(const Cluster& cluster, const std::string& list, const char* option) {
  std::vector<ProcessorIndex> result;
  for (const auto& item : split_list(list, option)) result.push_back(resolve_processor(cluster, item, option, kNoProcessor));
  return result;
}

CLI::Validator whole_number_in(long long smallest, long long largest) {
  return CLI::Validator(
      [smallest, largest](std::string& text) -> std::string {
        long long value = 0;
        const char* begin = text.data();
        const char* end = begin + text.size();
        auto [stop, error] = std::from_chars(begin, end, value);
        if (error != std::errc() || stop != end || value < smallest || value > largest) {
          return fmt::format("must be a whole number from {} to {}, got \"{}\"", smallest, largest, text);
        }
        return std::string();
      },
      fmt::format("INT in [{} - {}]", smallest, largest));
}

CLI::Validator positive_finite_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double value = 0;
        const char* begin = text.data();
        const char* end = begin + text.size();
        auto [stop, error] = std::from_chars(begin, end, value);
        if (error != std::errc() || stop != end || !std::isfinite(value) || !(value > 0)) {
          return fmt::format("must be a positive finite number, got \"{}\"", text);
        }
        return std::string();
      },
      "POSITIVE");
}

void add_platform_options(CLI::App* command, PlatformOptions& options) {
  add_table_option(command, "--platform", options.platform_file);
  add_table_option(command, "--times", options.times);
  add_byte_size_option(command, "--message-size", options.message_size);
}

CLI::Option* add_byte_size_option(CLI::App* command, const std::string& name, std::optional<double>& value) {
  CLI::Validator bytes(
      [](std::string& text) -> std::string {
        const auto size = parse_byte_size(text);
        // A plain number that is not positive and finite (0, -1, nan, inf,
        // 1e999) is named as such; other text is not a size at all.
        char* end = nullptr;
        const double plain = std::strtod(text.c_str(), &end);
        const bool is_number = !text.empty() && end != nullptr && *end == '\0';
        if ((size && !(*size > 0 && std::isfinite(*size))) || (!size && is_number) ||
            (is_number && !(plain > 0 && std::isfinite(plain)))) {
          return fmt::format("must be a positive finite number, got \"{}\"", text);
        }
        if (!size) {
          return fmt::format("\"{}\" is not a size in bytes (write e.g. 1e6, 1MB = 10^6 bytes, 4KiB = 4096 bytes)",
                             text);
        }
        text = fmt::format("{:.17g}", *size);
        return {};
      },
      "");  // the option table names the value (BYTES)
  CLI::Option* option = command->add_option(
      name, value, option_help(name, command, "; in bytes, or with a unit: 1e6, 1MB = 10^6, 4KiB = 4096 (B, kB/KB, MB, GB, KiB, MiB, GiB)"));
  option->transform(bytes);
  apply_table_definition(option, name, command);
  return option;
}

void add_output_options(CLI::App* command, OutputOptions& options) {
  add_table_flag(command, "--json", options.json);
  add_table_option(command, "--out", options.out_file);
  add_table_option(command, "--gantt", options.gantt_file);
  add_table_option(command, "--dot", options.dot_file);
  add_table_flag(command, "--quiet", options.quiet);
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
  add_table_option(command, "--time-limit", options.time_limit);
  add_table_option(command, "--node-limit", options.node_limit);
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
  return resolve_host(platform, name, option);
}

namespace {

bool ends_with(const std::string& text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string lower_case(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// rsvg-convert on the PATH, or "".
std::string find_svg_converter() {
  const char* path = std::getenv("PATH");
  std::string directories = path ? path : "";
  size_t position = 0;
  while (position <= directories.size()) {
    size_t colon = directories.find(':', position);
    if (colon == std::string::npos) colon = directories.size();
    std::filesystem::path candidate = std::filesystem::path(directories.substr(position, colon - position)) / "rsvg-convert";
    std::error_code error;
    if (colon > position && std::filesystem::is_regular_file(candidate, error)) return candidate.string();
    position = colon + 1;
  }
  return "";
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string& stored_invocation_name() {
  static std::string name = "hetcoll";
  return name;
}

}  // namespace

PictureFormat picture_format(const std::string& path) {
  const std::string lower = lower_case(path);
  if (ends_with(lower, ".svg")) return PictureFormat::svg;
  if (ends_with(lower, ".png")) return PictureFormat::png;
  if (ends_with(lower, ".pdf")) return PictureFormat::pdf;
  return PictureFormat::other;
}

void check_picture_path(const std::string& path, const char* option, bool other_allowed) {
  if (path.empty()) return;
  const PictureFormat format = picture_format(path);
  if (format == PictureFormat::other && !other_allowed) {
    throw InputError(fmt::format("{}: \"{}\": give a file ending in .svg, .png or .pdf", option, path));
  }
  if ((format == PictureFormat::png || format == PictureFormat::pdf) && find_svg_converter().empty()) {
    throw InputError(fmt::format("{}: writing \"{}\" needs rsvg-convert (Debian package librsvg2-bin), which is "
                                 "not installed; write an .svg instead",
                                 option, path));
  }
}

void write_picture(const std::string& path, const std::string& svg, const char* option) {
  const PictureFormat format = picture_format(path);
  if (format != PictureFormat::png && format != PictureFormat::pdf) {
    write_file(path, svg, option);
    return;
  }
  check_picture_path(path, option);
  // rsvg-convert writes a temporary file next to `path`, renamed when it
  // succeeded (core/files.h): a failed or killed run leaves no partial picture.
  replace_file_with(
      path,
      [&](const std::string& temporary) {
        const std::string svg_path = temporary + ".svg";
        write_file(svg_path, svg, option);
        const std::string command =
            fmt::format("{} -f {} -b white -o {} {} 2>&1", shell_quote(find_svg_converter()),
                        format == PictureFormat::png ? "png" : "pdf", shell_quote(temporary), shell_quote(svg_path));
        std::string output;
        int status = -1;
        if (FILE* pipe = popen(command.c_str(), "r")) {
          char buffer[256];
          while (fgets(buffer, sizeof buffer, pipe)) output += buffer;
          status = pclose(pipe);
        }
        std::error_code ignored;
        std::filesystem::remove(svg_path, ignored);
        if (status != 0) {
          throw InputError(fmt::format("{}: rsvg-convert could not write \"{}\": {}", option, path,
                                       output.empty() ? "it failed" : output));
        }
      },
      option);
}

void set_invocation_name(const std::string& argv0) {
  const char* from_script = std::getenv("HETCOLL_INVOKED_AS");
  stored_invocation_name() = from_script && *from_script ? from_script : argv0;
}

const std::string& invocation_name() { return stored_invocation_name(); }

std::string command_line_message(const InputError& error) {
  const std::string& parameter = error.parameter();
  const std::string message = error.what();
  if (parameter.empty() || message.rfind(parameter + ": ", 0) != 0) return message;
  // Parameters whose flag is not the parameter's name with dashes.
  static const std::pair<std::string_view, std::string_view> renamed[] = {
      {"algorithm", "--algo"},
      {"time_limit_seconds", "--time-limit"},
      {"operations", "--operation"},
      {"min_time", "--min-time/--max-time"},
      {"max_time", "--min-time/--max-time"},
  };
  std::string flag;
  for (const auto& [name, option] : renamed) {
    if (name == parameter) flag = option;
  }
  if (flag.empty()) {
    flag = "--" + parameter;
    std::replace(flag.begin(), flag.end(), '_', '-');
  }
  return flag + message.substr(parameter.size());
}

}  // namespace hetcoll::cli
