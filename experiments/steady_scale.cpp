// Experiment `steady-scale`: CPU time of the steady-state planners against
// the platform size — scatter, gossip, broadcast (SSB, multi-tree) and
// reduce (30 participants) on generated Tiers platforms (Doar 1996 as in
// Beaumont, Marchal, Robert 2004 sec. 5.1) from 30 nodes up. Every plan is
// exact (the library's exact period), carries its dual certificate and is
// checked by verify/ (the time includes the check). The default sizes are
// 30, 65, 130, 260 nodes; gossip runs above 130 only when --operation names
// it, reduce only with --sizes; any size is skipped for an operation when
// its previous time, scaled by (size ratio)^2, would pass the time limit
// (default 10 s).
// Output: steady-scale.csv and steady-scale.svg (log-log time vs nodes per
// operation, the legend giving the exponent fitted by least squares on the
// points above 10 ms). --operation runs only some of the four.
#include <sys/resource.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>

#include <fmt/format.h>

#include "experiments/experiments_list.h"
#include "hetcoll/core/error.h"
#include "hetcoll/gen/tiers_platform.h"
#include "hetcoll/steady/broadcast/steady_broadcast.h"
#include "hetcoll/steady/steady_planner.h"
#include "hetcoll/verify/verify_periodic.h"
#include "hetcoll/viz/line_plot_svg.h"

namespace hetcoll {

namespace {

constexpr double kMessageSize = 1e6;  // bytes: a message (scatter, gossip, reduce) or a broadcast slice
constexpr std::size_t kReduceParticipants = 30;

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

// Linux: writing 5 to /proc/self/clear_refs resets the peak resident set
// (VmHWM) to the current one, after malloc_trim has handed freed memory
// back, so each run's peak is about its own; elsewhere the process's peak.
void reset_peak_rss() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
  std::ofstream clear("/proc/self/clear_refs");
  if (clear) clear << "5";
}

double peak_rss_megabytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // kB
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// The paper's presets at 30 and 65 nodes; otherwise the 65-node preset with
// round(3 n / 65) MANs of 20 nodes each (5 + 3 LANs x 5) and the rest in
// the WAN (130 nodes: WAN 10, 6 MANs; 260: WAN 20, 12 MANs).
TiersPlatformOptions tiers_of_size(int nodes, std::uint64_t seed) {
  if (nodes > 5000) throw InputError("sizes", fmt::format("at most 5000 nodes, got {}", nodes));
  TiersPlatformOptions tiers;
  if (nodes == 30 || nodes == 65) {
    tiers = tiers_preset(nodes);
  } else {
    tiers = tiers_preset(65);
    tiers.mans = std::max(1, static_cast<int>(std::lround(3.0 * nodes / 65.0)));
    tiers.wan_nodes = nodes - tiers.mans * (tiers.man_nodes + tiers.lans_per_man * tiers.lan_nodes);
    if (tiers.wan_nodes < 2) throw InputError("sizes", fmt::format("{} nodes is too few for a Tiers platform", nodes));
  }
  tiers.seed = seed;
  return tiers;
}

struct Run {
  bool valid = false;
  bool optimal = false;
  std::string throughput;
  std::string failure;
};

Run check_plan(const Platform& platform, const PeriodicPlan& plan) {
  Run run;
  const auto report = verify_periodic_plan(platform, plan);
  run.valid = report.valid && report.certificate_checked;
  run.optimal = plan.optimal();
  run.throughput = fmt::format("{:.6g}", to_double(plan.throughput));
  if (!run.valid) run.failure = report.summary();
  return run;
}

Run run_operation(const std::string& operation, const Platform& platform) {
  const auto hosts = platform.participants();
  SteadyOptions options;
  options.message_size = kMessageSize;
  if (operation == "scatter") return check_plan(platform, plan_steady_scatter(platform, hosts.front(), {}, options));
  if (operation == "gossip") return check_plan(platform, plan_steady_gossip(platform, {}, {}, options));
  if (operation == "reduce") {
    std::vector<ProcessorIndex> participants(hosts.begin(),
                                             hosts.begin() + static_cast<std::ptrdiff_t>(std::min(hosts.size(), kReduceParticipants)));
    return check_plan(platform, plan_steady_reduce(platform, participants.front(), participants, options));
  }
  SteadyBroadcastOptions broadcast;
  broadcast.slice_size = kMessageSize;
  const auto result = plan_steady_broadcast(platform, hosts.front(), broadcast);
  Run run;
  run.valid = result.valid() && result.schedule_report.valid && result.schedule_report.certificate_checked;
  run.optimal = result.schedule.optimal();
  run.throughput = fmt::format("{:.6g}", to_double(result.schedule.throughput));
  run.failure = result.failure();
  return run;
}

// Least-squares slope of log(seconds) against log(nodes).
std::optional<double> fitted_exponent(const std::vector<double>& nodes, const std::vector<double>& seconds) {
  std::vector<std::pair<double, double>> points;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (seconds[i] >= 0.01) points.emplace_back(std::log(nodes[i]), std::log(seconds[i]));
  }
  if (points.size() < 2) return std::nullopt;
  double mean_x = 0, mean_y = 0;
  for (const auto& [x, y] : points) {
    mean_x += x;
    mean_y += y;
  }
  mean_x /= static_cast<double>(points.size());
  mean_y /= static_cast<double>(points.size());
  double sxy = 0, sxx = 0;
  for (const auto& [x, y] : points) {
    sxy += (x - mean_x) * (y - mean_y);
    sxx += (x - mean_x) * (x - mean_x);
  }
  if (sxx <= 0) return std::nullopt;
  return sxy / sxx;
}

ExperimentResult run_steady_scale(const ExperimentOptions& options) {
  std::vector<int> sizes = options.sizes;
  if (sizes.empty()) sizes = options.quick ? std::vector<int>{30, 65} : std::vector<int>{30, 65, 130, 260};
  const double limit = options.time_limit_seconds > 0 ? options.time_limit_seconds : (options.quick ? 2.0 : 10.0);
  const std::vector<std::string> all_operations = {"scatter", "gossip", "broadcast", "reduce"};
  for (const auto& operation : options.operations) {
    if (std::find(all_operations.begin(), all_operations.end(), operation) == all_operations.end()) {
      throw InputError("operation", fmt::format("\"{}\" is not scatter, gossip, broadcast or reduce", operation));
    }
  }
  std::vector<std::string> operations;
  for (const auto& operation : all_operations) {
    if (options.operations.empty() ||
        std::find(options.operations.begin(), options.operations.end(), operation) != options.operations.end()) {
      operations.push_back(operation);
    }
  }
  CsvTable table;
  table.columns = {"nodes", "edges", "operation", "cpu_seconds", "peak_rss_mb", "throughput", "optimal", "valid"};
  std::vector<PlotSeries> series(operations.size());
  std::vector<double> last_seconds(operations.size(), 0);
  std::vector<int> last_nodes(operations.size(), 0);
  std::string summary = "nodes  operation  CPU s      optimal  valid\n";
  bool all_valid = true;
  for (int nodes : sizes) {
    const Platform platform = generate_tiers_platform(tiers_of_size(nodes, options.seed));
    for (std::size_t k = 0; k < operations.size(); ++k) {
      const auto& operation = operations[k];
      // Gossip beyond 130 nodes (its master's exact re-solve may fall back to
      // QSopt_ex, slow and large there) only when --operation names it;
      // reduce beyond 130 only with --sizes.
      const bool asked = std::find(options.operations.begin(), options.operations.end(), operation) !=
                         options.operations.end();
      if (nodes > 130 && ((operation == "gossip" && !asked) || (operation == "reduce" && options.sizes.empty()))) {
        summary += fmt::format("{:>5}  {:<9}  not run: above 130 nodes only with {}\n", nodes, operation,
                               operation == "gossip" ? "--operation gossip" : "--sizes");
        continue;
      }
      const double ratio = last_nodes[k] > 0 ? static_cast<double>(nodes) / last_nodes[k] : 1.0;
      if (last_seconds[k] * ratio * ratio > limit) {
        summary += fmt::format("{:>5}  {:<9}  skipped: {:.2f} s at {} nodes, x {:.1f} for n^2 passes the limit {:.0f} s\n",
                               nodes, operation, last_seconds[k], last_nodes[k], ratio * ratio, limit);
        continue;
      }
      reset_peak_rss();
      const double start = cpu_seconds();
      const Run run = run_operation(operation, platform);
      const double seconds = cpu_seconds() - start;
      last_seconds[k] = seconds;
      last_nodes[k] = nodes;
      all_valid = all_valid && run.valid;
      table.rows.push_back({std::to_string(platform.size()), std::to_string(platform.edges().size()), operation,
                            fmt::format("{:.4f}", seconds), fmt::format("{:.0f}", peak_rss_megabytes()),
                            run.throughput, run.optimal ? "true" : "false", run.valid ? "true" : "false"});
      series[k].x.push_back(platform.size());
      series[k].y.push_back(seconds);
      summary += fmt::format("{:>5}  {:<9}  {:<9.4f}  {:<7}  {}{}\n", nodes, operation, seconds,
                             run.optimal ? "yes" : "no", run.valid ? "yes" : "NO", run.failure.empty() ? "" : ": " + run.failure);
      options.progress(fmt::format("{} nodes: {} in {:.3f} s CPU", nodes, operation, seconds));
    }
  }
  PlotSpec plot;
  plot.title = "Steady-state planners on Tiers platforms: CPU time (plan + exact certificate + verify)";
  plot.x_label = "nodes";
  plot.y_label = "CPU seconds";
  plot.log_x = plot.log_y = true;
  for (std::size_t k = 0; k < operations.size(); ++k) {
    series[k].name = operations[k] + (operations[k] == "reduce" ? " (30 participants)" : "");
    if (auto exponent = fitted_exponent(series[k].x, series[k].y)) {
      series[k].name += fmt::format(", n^{:.2f}", *exponent);
      summary += fmt::format("{}: time ~ n^{:.2f} (least squares over the points above 10 ms)\n", operations[k], *exponent);
    }
  }
  plot.series = std::move(series);
  if (!all_valid) summary += "SOME PLANS FAILED VERIFICATION\n";
  return write_table_and_plot(options, "steady-scale", table, plot, std::move(summary));
}

}  // namespace

void register_steady_scale_experiment(std::vector<Experiment>& list) {
  Experiment experiment{"steady-scale",
                        "CPU time of the steady-state scatter, gossip, broadcast and reduce planners (exact, "
                        "certified, verified) on Tiers platforms from 30 nodes up; --sizes for larger ones",
                        "Legrand, Marchal, Robert 2003; Beaumont, Marchal, Robert 2004 sec. 5.1 (platforms)",
                        run_steady_scale};
  experiment.takes_sizes = true;
  experiment.takes_operations = true;
  list.push_back(std::move(experiment));
}

}  // namespace hetcoll
