// steady broadcast: the multi-tree optimum of a pipelined broadcast (the SSB
// linear program of Beaumont, Marchal, Robert 2004, eq. 2).
#include <iostream>
#include <sstream>

#include "cli_common.h"
#include "command_deadline.h"
#include "commands.h"
#include "option_table.h"
#include "hetcoll/core/error.h"
#include "hetcoll/report/steady_broadcast_json.h"
#include "hetcoll/report/steady_broadcast_text.h"
#include "hetcoll/steady/broadcast/steady_broadcast.h"

namespace hetcoll::cli {
namespace {

// The practical schedule's loss bound: at most 1% of the optimal throughput
// (Legrand, Marchal, Robert 2003 Prop. 4), as for steady scatter, gossip and reduce.
constexpr double kBroadcastPracticalLoss = 0.01;

struct SteadyBroadcastCommandOptions {
  PlatformOptions platform;
  std::string source, out, schedule_out;
  std::optional<double> slice_size, message_size;
  bool json = false, quiet = false, detail = false, exact = false;
  std::string time_limit;  // seconds or "none"; empty: none
};

int run_steady_broadcast(const SteadyBroadcastCommandOptions& options) {
  CommandDeadline deadline(steady_time_limit(options.time_limit), "steady broadcast");
  deadline.phase("reading the platform");
  Platform platform = load_platform_graph(options.platform);
  ProcessorIndex source = resolve_node(platform, options.source, "--source");
  if (!options.slice_size && !options.message_size && !platform.has_fixed_costs()) {
    throw InputError("--slice-size: the platform's edges give latency/bandwidth; give the slice size in bytes, or "
                     "--message-size BYTES to choose the slice size and between one tree and many");
  }
  if (options.message_size && platform.has_fixed_costs()) {
    throw InputError("--message-size: the platform's edges have fixed costs (no latency/bandwidth), so there are no "
                     "bytes to cut into slices");
  }
  SteadyBroadcastOptions request;
  request.slice_size = options.slice_size;
  request.message_size = options.message_size;
  // Text output: a practical schedule by default (as steady scatter, gossip
  // and reduce); the exact one with --exact or --json.
  if (!options.exact && !options.json) request.practical_loss = kBroadcastPracticalLoss;
  deadline.phase("the SSB LP, its exact re-solve and the multi-tree schedule");
  const SteadyBroadcastResult result = plan_steady_broadcast(platform, source, request);
  deadline.disarm();  // the outputs are written whole
  std::ostringstream json;
  write_steady_broadcast_json(json, platform, result);
  if (!options.out.empty()) write_file(options.out, json.str(), "--out");
  if (!options.schedule_out.empty()) {
    write_broadcast_schedule(options.schedule_out, result.schedule, platform, result.schedule_report.valid);
  }
  if (options.json) {
    std::cout << json.str();
  } else {
    SteadyBroadcastTextOptions text;
    text.brief = options.quiet;
    text.detail = options.detail;
    text.detail_request = "--detail";
    text.json_request = "--json";
    text.exact_request = "--exact";
    std::cout << steady_broadcast_summary(platform, result, text);
    if (result.latency_aware) std::cout << latency_aware_choice_text(*result.latency_aware);
  }
  return result.valid() ? 0 : static_cast<int>(ExitCode::internal_error);
}

}  // namespace

void add_steady_broadcast_command(CLI::App& app, int& result) {
  CLI::App* steady = nullptr;
  for (auto* command : app.get_subcommands({})) {
    if (command->get_name() == "steady") steady = command;
  }
  if (!steady) {
    steady = app.add_subcommand("steady", "Steady-state throughput of a long series of operations on a platform graph");
    steady->require_subcommand(1);
  }
  auto options = std::make_shared<SteadyBroadcastCommandOptions>();
  CLI::App* broadcast = steady->add_subcommand(
      "broadcast", "The best throughput of a pipelined broadcast using any number of trees: the SSB linear program "
                   "(Beaumont, Marchal, Robert 2004, eq. 2), exact, with a dual certificate");
  add_table_option(broadcast, "--platform", options->platform.platform_file);
  add_table_option(broadcast, "--times", options->platform.times);
  add_table_option(broadcast, "--source", options->source);
  add_byte_size_option(broadcast, "--slice-size", options->slice_size);
  add_byte_size_option(broadcast, "--message-size", options->message_size);
  add_table_flag(broadcast, "--json", options->json);
  add_table_option(broadcast, "--out", options->out);
  add_table_option(broadcast, "--schedule-out", options->schedule_out);
  add_table_flag(broadcast, "--quiet", options->quiet);
  add_table_flag(broadcast, "--exact", options->exact);
  broadcast->add_flag("--detail", options->detail,
                      "Also print every tree's edges and the slices per time unit on every used edge");
  add_steady_time_limit_option(broadcast, options->time_limit);
  broadcast->callback([&result, options] { result = run_steady_broadcast(*options); });
}

}  // namespace hetcoll::cli
