// Experiment `bcast-crossover` — when do many trees beat one? For a message
// of M bytes on Tiers platforms with latencies, the predicted makespan of
// the best single tree (improve, best slice size) against the multi-tree
// schedule dealt out in rounds (latency_aware.h: best slice size and round
// size), from 1 kB to 100 GB. Small messages are dominated by start-up, where
// one tree (or R = 1: the heaviest tree) wins; large ones by throughput,
// where the multi-tree schedule approaches the LP optimum.
//
// Set-up: the 65-node Tiers preset (30 with --quick) with latencies WAN 1 ms,
// MAN 100 us, LAN 10 us, source wan0; 3 platforms (1 with --quick), 2 message
// sizes per decade (1 per decade with --quick).
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "experiments/experiments_list.h"
#include "hetcoll/gen/tiers_platform.h"
#include "hetcoll/steady/broadcast/steady_broadcast.h"
#include "hetcoll/steady/pipelined/latency_aware.h"
#include "hetcoll/viz/line_plot_svg.h"

namespace hetcoll {
namespace {

ExperimentResult run_bcast_crossover(const ExperimentOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const int nodes = options.quick ? 30 : 65;
  const int platforms = options.quick ? 1 : 3;
  const int per_decade = options.quick ? 1 : 2;
  std::vector<double> sizes;
  for (int i = 3 * per_decade; i <= 11 * per_decade; ++i) sizes.push_back(std::pow(10.0, double(i) / per_decade));

  CsvTable table;
  table.columns = {"platform_seed", "nodes", "message_bytes", "single_makespan_s", "single_slice_bytes",
                   "single_slices", "multi_makespan_s", "multi_slice_bytes", "multi_slices", "slices_per_round",
                   "trees_used", "trees_packed", "multi_throughput", "choice", "single_over_multi"};
  std::vector<double> ratio_sum(sizes.size(), 0.0), single_rate(sizes.size(), 0.0), multi_rate(sizes.size(), 0.0),
      trees_used(sizes.size(), 0.0);
  int crossovers = 0;
  std::string crossover_text;
  for (int p = 0; p < platforms; ++p) {
    auto tiers = tiers_preset(nodes);
    tiers.seed = options.seed + static_cast<std::uint64_t>(p);
    tiers.wan_latency = 1e-3;
    tiers.man_latency = 1e-4;
    tiers.lan_latency = 1e-5;
    Platform platform = generate_tiers_platform(tiers);
    double first_multi = NAN;
    for (size_t i = 0; i < sizes.size(); ++i) {
      SteadyBroadcastOptions steady;
      steady.message_size = sizes[i];
      steady.stage = SteadyBroadcastStage::packing;
      const LatencyAwareChoice choice = *plan_steady_broadcast(platform, 0, steady).latency_aware;
      const auto& single = *choice.single_tree.makespan;
      const auto& multi = choice.multi_tree;
      double ratio = single.makespan / multi.makespan;
      ratio_sum[i] += ratio;
      single_rate[i] += sizes[i] / single.makespan;
      multi_rate[i] += sizes[i] / multi.makespan;
      trees_used[i] += multi.rounds.trees_used;
      if (choice.chosen_trees() > 1 && std::isnan(first_multi)) first_multi = sizes[i];
      table.rows.push_back({std::to_string(tiers.seed), std::to_string(nodes), fmt::format("{}", sizes[i]),
                            fmt::format("{}", single.makespan), fmt::format("{}", single.slice_size),
                            std::to_string(single.slices), fmt::format("{}", multi.makespan),
                            fmt::format("{}", multi.slice_size), std::to_string(multi.slices),
                            std::to_string(multi.rounds.slices_per_round), std::to_string(multi.rounds.trees_used),
                            std::to_string(choice.packing.trees.size()), fmt::format("{}", multi.rounds.throughput()),
                            choice.chosen_name(), fmt::format("{}", ratio)});
      options.progress(fmt::format("platform {}/{}, {:.0e} bytes: one tree {:.4g} s, multi-tree {:.4g} s ({} of {} "
                                   "trees, rounds of {}), {:.1f} s",
                                   p + 1, platforms, sizes[i], single.makespan, multi.makespan,
                                   multi.rounds.trees_used, choice.packing.trees.size(),
                                   multi.rounds.slices_per_round,
                                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()));
    }
    if (!std::isnan(first_multi)) ++crossovers;
    crossover_text += fmt::format("  platform seed {}: multi-tree chosen from {}\n", tiers.seed,
                                  std::isnan(first_multi) ? std::string("no size tried")
                                                          : fmt::format("{:.0e} bytes", first_multi));
  }
  std::string base = options.out_dir + "/bcast-crossover";
  table.write(base + ".csv");
  PlotSeries ratio_series{"one tree / multi-tree", sizes, {}};
  PlotSeries even{"crossover (1)", {sizes.front(), sizes.back()}, {1.0, 1.0}, true, false};
  PlotSeries trees_series{"trees used / 10", sizes, {}, true};
  for (size_t i = 0; i < sizes.size(); ++i) {
    ratio_series.y.push_back(ratio_sum[i] / platforms);
    trees_series.y.push_back(trees_used[i] / platforms / 10);
  }
  PlotSpec ratio_plot;
  ratio_plot.title = fmt::format("Single tree vs multi-tree on {}-node Tiers platforms with latency (mean of {})",
                                 nodes, platforms);
  ratio_plot.x_label = "message size (bytes)";
  ratio_plot.y_label = "one tree's predicted makespan / multi-tree's";
  ratio_plot.log_x = true;
  ratio_plot.series = {ratio_series, even, trees_series};
  write_line_plot_svg(base + ".svg", ratio_plot);
  PlotSeries single_series{"one tree (improve)", sizes, {}}, multi_series{"multi-tree in rounds", sizes, {}};
  for (size_t i = 0; i < sizes.size(); ++i) {
    single_series.y.push_back(single_rate[i] / platforms / 1e6);
    multi_series.y.push_back(multi_rate[i] / platforms / 1e6);
  }
  PlotSpec rate_plot;
  rate_plot.title = fmt::format("Broadcast rate, {}-node Tiers platforms with latency (mean of {})", nodes, platforms);
  rate_plot.x_label = "message size (bytes)";
  rate_plot.y_label = "message size / predicted makespan (MB/s)";
  rate_plot.log_x = true;
  rate_plot.log_y = true;
  rate_plot.series = {single_series, multi_series};
  write_line_plot_svg(base + "-rate.svg", rate_plot);
  ExperimentResult result;
  result.files = {base + ".csv", base + ".svg", base + "-rate.svg"};
  result.summary = fmt::format("bcast-crossover: {} of {} platforms switch to the multi-tree schedule\n{}", crossovers,
                               platforms, crossover_text);
  return result;
}

}  // namespace

void register_bcast_crossover_experiment(std::vector<Experiment>& list) {
  list.push_back({"bcast-crossover",
                  "Latency-aware choice: predicted makespan of one pipelined tree vs the multi-tree schedule in "
                  "rounds, by message size (Tiers platforms with latency)",
                  "Beaumont, Marchal, Robert 2004, sec. 2.1 (affine costs) and 4.1 (multi-tree optimum); ours",
                  run_bcast_crossover});
}

}  // namespace hetcoll
