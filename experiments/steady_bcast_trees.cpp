// Experiment `bcast-trees` — Beaumont, Marchal, Robert 2004 sec. 5: the
// pipelined single-tree heuristics against the multi-tree optimum (the SSB
// LP), on random platforms (Fig. 4(a) by size, Fig. 4(b) by density, Fig. 5
// in the multi-port model) and on Tiers platforms (Table 3), with our local
// improvement (`improve`) added as a row, the exact single-tree optimum on
// the smallest platforms, and the running times the issue targets.
//
// Set-up: platforms from gen/ (random: Table 2; Tiers: the 30- and 65-node
// presets), latency 0 and slices of 1 MB, so a link's slice time is
// 1 MB / its bandwidth (the ratios do not depend on the slice size then);
// the source is node 0. The ratio is a tree's throughput over the one-port
// LP optimum of the same platform (also for the multi-port trees of
// Fig. 5, as in the paper, so ratios above 1 are possible there). The
// paper does not say which density Fig. 4(a) uses nor which size Fig. 4(b)
// uses: we take density 0.12 and 30 nodes. 10 platforms per point
// (Table 2), 100 Tiers platforms per size (Table 3); --quick: 2 and 4.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "experiments/experiments_list.h"
#include "hetcoll/gen/random_platform.h"
#include "hetcoll/gen/tiers_platform.h"
#include "hetcoll/steady/broadcast/multi_tree.h"
#include "hetcoll/steady/broadcast/optimal_tree_search.h"
#include "hetcoll/steady/broadcast/ssb_lp.h"
#include "hetcoll/steady/broadcast/steady_broadcast.h"
#include "hetcoll/steady/broadcast/tree_heuristics.h"
#include "hetcoll/viz/line_plot_svg.h"
#include "hetcoll/core/elapsed.h"

namespace hetcoll {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kSliceSize = 1e6;

struct Sample {
  std::vector<double> values;
  void add(double v) { values.push_back(v); }
  double mean() const {
    double sum = 0;
    for (double v : values) sum += v;
    return values.empty() ? NAN : sum / static_cast<double>(values.size());
  }
  double deviation() const {
    if (values.size() < 2) return 0;
    double m = mean(), sum = 0;
    for (double v : values) sum += (v - m) * (v - m);
    return std::sqrt(sum / static_cast<double>(values.size() - 1));
  }
  double max() const { return values.empty() ? NAN : *std::max_element(values.begin(), values.end()); }
};

// One platform: the LP optimum, then every heuristic's ratio and time.
struct PlatformRun {
  double lp_seconds = 0;
  double optimum = 0;
  std::map<std::string, double> ratio;    // heuristic -> throughput / optimum
  std::map<std::string, double> seconds;  // heuristic -> build time
  double tree_count = 0;                  // trees of the multi-tree schedule
};

struct TimedOptimum {
  SsbSolution solution;
  double seconds = 0;
};

TimedOptimum solve_optimum(const Platform& platform) {
  auto start = Clock::now();
  SteadyBroadcastOptions lp_only;
  lp_only.slice_size = kSliceSize;
  lp_only.stage = SteadyBroadcastStage::optimum;
  auto solution = plan_steady_broadcast(platform, 0, lp_only).optimum;
  return {std::move(solution), seconds_since(start)};
}

PlatformRun run_platform(const Platform& platform, const TimedOptimum& timed, BroadcastModel model,
                         const std::vector<std::string>& heuristics, bool with_optimal_tree,
                         bool with_multi_tree = false) {
  PlatformRun run;
  TreeProblem problem;
  problem.platform = &platform;
  problem.source = 0;
  problem.costs = make_tree_costs(platform, kSliceSize, model);
  const auto& optimum = timed.solution;
  run.lp_seconds = timed.seconds;
  run.optimum = optimum.throughput_value();
  problem.lp_edge_rates = optimum.edge_rate_values();
  for (const auto& name : heuristics) {
    const auto* heuristic = find_tree_heuristic(name);
    auto start = Clock::now();
    auto tree = heuristic->build(problem);
    run.seconds[name] = seconds_since(start);
    run.ratio[name] = evaluate_tree(platform, tree, problem.costs).throughput / run.optimum;
  }
  if (with_multi_tree) {
    // The multi-tree schedule: packed weight over the optimum (1 when it
    // reaches it) and the number of trees (as "seconds" would be misleading,
    // the tree count goes in its own key).
    auto times = make_tree_costs(platform, kSliceSize, BroadcastModel::one_port).edge_time;
    auto start = Clock::now();
    auto packing = pack_broadcast_trees(platform, 0, times, optimum);
    run.seconds["multi-tree"] = seconds_since(start);
    run.ratio["multi-tree"] = to_double(packing.total_weight) / run.optimum;
    run.tree_count = static_cast<double>(packing.trees.size());
  }
  if (with_optimal_tree) {
    auto start = Clock::now();
    SearchLimits limits;
    limits.node_limit = 5'000'000;
    auto result = optimal_tree_search(problem, best_single_tree(problem), limits);
    run.seconds["optimal-tree"] = seconds_since(start);
    if (result.finished) run.ratio["optimal-tree"] = (1 / result.period) / run.optimum;
  }
  return run;
}

// Mean ratio per (heuristic, x) over the platforms of each point.
struct Curve {
  std::map<std::string, std::map<double, Sample>> ratio;
  void add(double x, const PlatformRun& run) {
    for (const auto& [name, value] : run.ratio) ratio[name][x].add(value);
  }
};

void write_curve_plot(const std::string& path, const std::string& title, const std::string& x_label, const Curve& curve,
                      const std::vector<std::string>& order) {
  PlotSpec plot;
  plot.title = title;
  plot.x_label = x_label;
  plot.y_label = "throughput / multi-tree optimum (one-port LP), mean";
  for (const auto& name : order) {
    auto it = curve.ratio.find(name);
    if (it == curve.ratio.end()) continue;
    PlotSeries series;
    series.name = name;
    series.dashed = name == "binomial" || name == "optimal-tree";
    for (const auto& [x, sample] : it->second) {
      series.x.push_back(x);
      series.y.push_back(sample.mean());
    }
    plot.series.push_back(std::move(series));
  }
  write_line_plot_svg(path, plot);
}

}  // namespace

ExperimentResult run_bcast_trees(const ExperimentOptions& options) {
  const bool quick = options.quick;
  const int per_point = quick ? 2 : 10;
  const int tiers_count = quick ? 4 : 100;
  const std::vector<std::string> one_port = {"simple-prune", "refined-prune", "grow",    "lp-grow",
                                             "lp-prune",     "binomial",      "improve"};
  const std::vector<std::string> multi_port = {"multiport-grow", "multiport-prune", "lp-grow", "lp-prune", "binomial",
                                               "improve"};
  std::vector<std::string> plot_order = one_port;
  plot_order.push_back("optimal-tree");
  CsvTable table;
  table.columns = {"part", "model", "platforms", "x", "heuristic", "ratio_mean", "ratio_deviation", "count",
                   "seconds_mean", "seconds_max"};
  ExperimentResult result;
  auto add_rows = [&](const std::string& part, const char* model, const std::string& platforms, double x,
                      const std::vector<PlatformRun>& runs) {
    std::map<std::string, Sample> ratios, times;
    Sample lp;
    for (const auto& run : runs) {
      lp.add(run.lp_seconds);
      for (const auto& [name, value] : run.ratio) ratios[name].add(value);
      for (const auto& [name, value] : run.seconds) times[name].add(value);
    }
    for (const auto& [name, sample] : times) {
      const auto& r = ratios[name];
      table.rows.push_back({part, model, platforms, fmt::format("{}", x), name, fmt::format("{:.4f}", r.mean()),
                            fmt::format("{:.4f}", r.deviation()), fmt::format("{}", r.values.size()),
                            fmt::format("{:.6f}", sample.mean()), fmt::format("{:.6f}", sample.max())});
    }
    table.rows.push_back({part, model, platforms, fmt::format("{}", x), "ssb-lp", "1", "0",
                          fmt::format("{}", lp.values.size()), fmt::format("{:.6f}", lp.mean()),
                          fmt::format("{:.6f}", lp.max())});
  };

  std::uint64_t seed = options.seed + 1000;  // Tiers platforms: their own seeds
  // Table 3: Tiers platforms.
  std::string table3 = fmt::format("Table 3 (Tiers, one-port; mean ratio to the multi-tree optimum, (deviation)):\n"
                                   "{:>6} {:>14} {:>14} {:>14} {:>14} {:>14} {:>14} {:>14}\n",
                                   "nodes", "simple-prune", "refined-prune", "grow", "lp-grow", "lp-prune", "binomial",
                                   "improve");
  std::string timing;
  for (int nodes : {30, 65}) {
    auto start = Clock::now();
    std::vector<PlatformRun> runs;
    for (int k = 0; k < tiers_count; ++k) {
      auto tiers = tiers_preset(nodes);
      tiers.seed = seed++;
      auto platform = generate_tiers_platform(tiers);
      runs.push_back(run_platform(platform, solve_optimum(platform), BroadcastModel::one_port, one_port, false, true));
      if ((k + 1) % 25 == 0 || k + 1 == tiers_count) {
        options.progress(fmt::format("Tiers {} nodes: {}/{} platforms, {:.1f} s", nodes, k + 1, tiers_count,
                                     seconds_since(start)));
      }
    }
    add_rows("table3", "one-port", fmt::format("tiers {}", nodes), nodes, runs);
    std::map<std::string, Sample> ratios, times;
    Sample lp;
    for (const auto& run : runs) {
      lp.add(run.lp_seconds);
      for (const auto& [name, value] : run.ratio) ratios[name].add(value);
      for (const auto& [name, value] : run.seconds) times[name].add(value);
    }
    table3 += fmt::format("{:>6}", nodes);
    for (const auto& name : one_port) {
      table3 += fmt::format(" {:>6.1f}% ({:>4.1f})", 100 * ratios[name].mean(), 100 * ratios[name].deviation());
    }
    Sample trees;
    int reached = 0;
    for (const auto& run : runs) {
      trees.add(run.tree_count);
      reached += run.ratio.at("multi-tree") == 1.0;
    }
    table3 += fmt::format("   multi-tree: {}/{} reach the optimum, {:.1f} trees on average (max {})\n", reached,
                          runs.size(), trees.mean(), trees.max());
    timing += fmt::format("Tiers {} nodes: SSB LP {:.3f} s mean, {:.3f} s max; slowest heuristic mean {:.1f} ms ({})\n",
                          nodes, lp.mean(), lp.max(),
                          1000 * std::max_element(times.begin(), times.end(), [](const auto& a, const auto& b) {
                                   return a.second.mean() < b.second.mean();
                                 })->second.mean(),
                          std::max_element(times.begin(), times.end(), [](const auto& a, const auto& b) {
                            return a.second.mean() < b.second.mean();
                          })->first);
  }

  // The Tiers rows are written at once: the random figures take longer.
  const std::string base = options.out_dir + "/bcast-trees";
  table.write(base + ".csv");
  options.progress(table3 + timing);

  // Fig. 4(a), Fig. 5: by size; Fig. 4(b): by density.
  Curve by_size, by_density, multiport;
  std::uint64_t random_seed = options.seed;
  const std::vector<int> sizes = quick ? std::vector<int>{10, 20} : std::vector<int>{10, 20, 30, 40, 50};
  const std::vector<double> densities =
      quick ? std::vector<double>{0.04, 0.12} : std::vector<double>{0.04, 0.08, 0.12, 0.16, 0.20};
  for (int nodes : sizes) {
    auto start = Clock::now();
    std::vector<PlatformRun> runs, multi_runs;
    for (int k = 0; k < per_point; ++k) {
      auto platform = generate_random_platform({nodes, 0.12, 0.0, random_seed++, {}});
      auto optimum = solve_optimum(platform);
      runs.push_back(run_platform(platform, optimum, BroadcastModel::one_port, one_port, nodes <= 10));
      multi_runs.push_back(run_platform(platform, optimum, BroadcastModel::multi_port, multi_port, false));
      by_size.add(nodes, runs.back());
      multiport.add(nodes, multi_runs.back());
    }
    add_rows("fig4a", "one-port", "random density 0.12", nodes, runs);
    add_rows("fig5", "multi-port", "random density 0.12", nodes, multi_runs);
    options.progress(fmt::format("random, {} nodes: {} platforms, {:.1f} s", nodes, per_point, seconds_since(start)));
  }
  for (double density : densities) {
    auto start = Clock::now();
    std::vector<PlatformRun> runs;
    for (int k = 0; k < per_point; ++k) {
      auto platform = generate_random_platform({30, density, 0.0, random_seed++, {}});
      runs.push_back(run_platform(platform, solve_optimum(platform), BroadcastModel::one_port, one_port, false));
      by_density.add(density, runs.back());
    }
    add_rows("fig4b", "one-port", "random 30 nodes", density, runs);
    options.progress(fmt::format("random, density {}: {} platforms, {:.1f} s", density, per_point, seconds_since(start)));
  }

  table.write(base + ".csv");
  write_curve_plot(base + "-fig4a.svg", "One-port heuristics on random platforms (density 0.12), Fig. 4(a)",
                   "nodes", by_size, plot_order);
  write_curve_plot(base + "-fig4b.svg", "One-port heuristics on random platforms (30 nodes), Fig. 4(b)", "density",
                   by_density, plot_order);
  write_curve_plot(base + "-fig5.svg",
                   "Multi-port trees vs the one-port multi-tree optimum (random, density 0.12), Fig. 5", "nodes",
                   multiport, multi_port);
  result.files = {base + ".csv", base + "-fig4a.svg", base + "-fig4b.svg", base + "-fig5.svg"};
  result.summary = table3 + timing;
  return result;
}

void register_bcast_trees_experiment(std::vector<Experiment>& list) {
  list.push_back({"bcast-trees",
                  "Pipelined broadcast trees vs the multi-tree optimum: Fig. 4(a), 4(b), 5 and Table 3, with the local "
                  "improvement heuristic and the exact single tree",
                  "Beaumont, Marchal, Robert 2004, sec. 5, Figs. 4-5, Table 3", run_bcast_trees});
}

}  // namespace hetcoll
