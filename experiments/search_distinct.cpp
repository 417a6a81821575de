// Experiment `search-distinct` — the exact searches when every processor
// has its own time (no two equal), the hard case of the broadcast search
// (optimal_search.h; Liu 2002 sec. 5) and the reduce search (reduce/
// optimal_search.h; Liu, Kuo, Wang 2009 sec. 6.2).
//
// Set-up: n processors, times drawn uniformly from [1, 4) (all distinct
// with probability 1), source / destination processor 0; `instances`
// clusters per n. Each search runs with the per-instance time limit
// (default 60 s, --quick 0.25 s; --time-limit sets it); n = 10, 15, ..., 40
// (--quick 10, 20, 30; ExperimentOptions::sizes, `--sizes`, sets them); an instance that
// does not finish counts as taking the limit. A second run limited to 1 s
// (or the limit, if smaller: the "early" columns) gives the gap after 1 s
// for those not proven within it. Gap = makespan / proven
// lower bound - 1 (the search's global bound, not the closed form).
// Columns: instances finished, median and max seconds to prove (the median
// is empty when more than half did not finish), average nodes, median and
// max gap at the limit and after 1 s; then the threads of the broadcast
// search (ExperimentOptions::threads, `--threads`; the reduce search is
// serial), the total wall and CPU seconds of the runs at the limit (CPU:
// std::clock, every thread of the process) and nodes per wall second.
// ExperimentOptions::operations (`--operation`) runs only the broadcast or
// only the reduce. Times are wall-clock on this machine.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <random>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "experiments/experiments_list.h"
#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"
#include "hetcoll/makespan/sender_speed/reduce/optimal_search.h"
#include "hetcoll/viz/line_plot_svg.h"

namespace hetcoll {

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> values) {
  if (values.empty()) return NAN;
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

std::string cell(double value, const char* format = "{:.4g}") {
  return std::isnan(value) ? std::string() : fmt::format(fmt::runtime(format), value);
}

MakespanPlan plan_exact(bool broadcast, const Cluster& cluster, double seconds, unsigned threads) {
  SearchLimits limits;
  limits.time_limit_seconds = seconds;
  limits.threads = threads;  // the reduce search ignores it
  return broadcast ? plan_broadcast_optimal(cluster, 0, limits) : plan_reduce_optimal(cluster, 0, limits);
}

double gap_percent(const MakespanPlan& plan) {
  return plan.lower_bound > 0 ? 100.0 * (plan.makespan / plan.lower_bound - 1) : NAN;
}

}  // namespace

ExperimentResult run_search_distinct(const ExperimentOptions& options) {
  const bool quick = options.quick;
  const int instances = quick ? 3 : 10;
  const double limit = options.time_limit_seconds > 0 ? options.time_limit_seconds : (quick ? 0.25 : 60.0);
  const double early = std::min(1.0, limit);
  SearchLimits threads_setting;
  threads_setting.threads = options.threads;
  const unsigned threads = resolved_threads(threads_setting);
  struct Operation {
    const char* name;
    bool broadcast;
    std::vector<int> sizes;
  };
  for (int n : options.sizes) {
    if (n < 2) throw InputError(fmt::format("sizes: n = {}; search-distinct needs at least 2 processors", n));
  }
  const std::vector<int> sizes = !options.sizes.empty() ? options.sizes
                                 : quick                 ? std::vector<int>{10, 20, 30}
                                                         : std::vector<int>{10, 15, 20, 25, 30, 35, 40};
  std::vector<Operation> operations;
  for (const Operation& operation : {Operation{"broadcast", true, sizes}, Operation{"reduce", false, sizes}}) {
    if (options.operations.empty() || std::find(options.operations.begin(), options.operations.end(),
                                                operation.name) != options.operations.end()) {
      operations.push_back(operation);
    }
  }
  for (const auto& name : options.operations) {
    if (name != "broadcast" && name != "reduce") {
      throw InputError("operations", fmt::format("\"{}\" is not broadcast or reduce", name));
    }
  }

  CsvTable table;
  table.columns = {"operation",        "n",        "instances",          "finished",        "seconds_median",
                   "seconds_max",      "nodes_avg", "gap_at_limit_median_percent", "gap_at_limit_max_percent",
                   "gap_early_median_percent", "gap_early_max_percent", "early_seconds", "limit_seconds",
                   "threads", "wall_seconds_total", "cpu_seconds_total", "nodes_per_wall_second"};
  PlotSpec time_plot;
  time_plot.title = fmt::format("Exact search, all-distinct times in [1,4): seconds to prove (limit {:g} s)", limit);
  time_plot.x_label = "n (processors)";
  time_plot.y_label = "seconds (median; max dashed; the limit counts for unfinished)";
  time_plot.log_y = true;
  PlotSpec gap_plot;
  gap_plot.title = "Exact search, all-distinct times: gap to the proven bound when stopped";
  gap_plot.x_label = "n (processors)";
  gap_plot.y_label = "makespan / lower bound - 1 (%, median; max dashed)";
  time_plot.styles = gap_plot.styles = std::make_shared<SeriesStyles>();
  std::string summary;
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> uniform(1.0, 4.0);

  for (const auto& operation : operations) {
    auto series = [](std::string name, bool dashed = false, std::string style_key = {}) {
      PlotSeries result;
      result.name = std::move(name);
      result.dashed = dashed;
      result.style_key = std::move(style_key);
      return result;
    };
    PlotSeries median_time = series(fmt::format("{}: median", operation.name));
    PlotSeries max_time = series(fmt::format("{}: max", operation.name), true, median_time.name);
    PlotSeries gap_1s = series(fmt::format("{}: after {:g} s", operation.name, early));
    PlotSeries gap_1s_max = series(fmt::format("{}: after {:g} s, max", operation.name, early), true, gap_1s.name);
    PlotSeries gap_limit = series(fmt::format("{}: at the {:g} s limit", operation.name, limit));
    for (int n : operation.sizes) {
      std::vector<double> seconds, gaps_limit, gaps_early;
      double nodes = 0, wall_seconds = 0, cpu_seconds = 0;  // of the runs at the limit
      int finished = 0;
      for (int instance = 0; instance < instances; ++instance) {
        std::vector<double> times(static_cast<size_t>(n));
        for (auto& t : times) t = uniform(rng);
        const Cluster cluster = Cluster::from_times(times);
        const auto started = Clock::now();
        const std::clock_t cpu_started = std::clock();
        const MakespanPlan plan = plan_exact(operation.broadcast, cluster, limit, threads);
        const double taken = std::chrono::duration<double>(Clock::now() - started).count();
        cpu_seconds += static_cast<double>(std::clock() - cpu_started) / CLOCKS_PER_SEC;
        wall_seconds += taken;
        nodes += static_cast<double>(plan.stats.nodes);
        // Proven: the bound meets the makespan (claims rule), even if the
        // search then ran on to its limit.
        if (!plan.optimal) {
          seconds.push_back(limit);
          gaps_limit.push_back(gap_percent(plan));
        } else {
          seconds.push_back(taken);
          gaps_limit.push_back(0);
          ++finished;
        }
        if (taken <= early && plan.optimal) {
          gaps_early.push_back(0);
        } else {
          gaps_early.push_back(gap_percent(plan_exact(operation.broadcast, cluster, early, threads)));
        }
      }
      const double seconds_median = 2 * finished > instances ? median(seconds) : NAN;
      const double seconds_max = *std::max_element(seconds.begin(), seconds.end());
      table.rows.push_back({operation.name, std::to_string(n), std::to_string(instances), std::to_string(finished),
                            cell(seconds_median), cell(seconds_max), cell(nodes / instances, "{:.0f}"),
                            cell(median(gaps_limit)),
                            cell(*std::max_element(gaps_limit.begin(), gaps_limit.end())), cell(median(gaps_early)),
                            cell(*std::max_element(gaps_early.begin(), gaps_early.end())), cell(early, "{:g}"),
                            cell(limit, "{:g}"), std::to_string(operation.broadcast ? threads : 1),
                            cell(wall_seconds, "{:.3f}"), cell(cpu_seconds, "{:.3f}"),
                            cell(wall_seconds > 0 ? nodes / wall_seconds : NAN, "{:.0f}")});
      median_time.x.push_back(n);
      median_time.y.push_back(seconds_median);
      max_time.x.push_back(n);
      max_time.y.push_back(seconds_max);
      gap_1s.x.push_back(n);
      gap_1s.y.push_back(median(gaps_early));
      gap_1s_max.x.push_back(n);
      gap_1s_max.y.push_back(*std::max_element(gaps_early.begin(), gaps_early.end()));
      gap_limit.x.push_back(n);
      gap_limit.y.push_back(median(gaps_limit));
      const std::string line = fmt::format(
          "{} n = {}: {}/{} proven, median {}, max {:.3g} s, gap after {:g} s median {:.2f}% max {:.2f}%; "
          "{} thread{}, {:.1f} s wall, {:.1f} s CPU, {:.0f} nodes/s",
          operation.name, n, finished, instances, std::isnan(seconds_median) ? "-" : cell(seconds_median, "{:.3g} s"),
          seconds_max, early, median(gaps_early), *std::max_element(gaps_early.begin(), gaps_early.end()),
          operation.broadcast ? threads : 1, (operation.broadcast ? threads : 1) == 1 ? "" : "s", wall_seconds,
          cpu_seconds, wall_seconds > 0 ? nodes / wall_seconds : 0.0);
      options.progress(line);
      summary += line + "\n";
    }
    time_plot.series.push_back(std::move(median_time));
    time_plot.series.push_back(std::move(max_time));
    gap_plot.series.push_back(std::move(gap_1s));
    gap_plot.series.push_back(std::move(gap_1s_max));
    if (limit > early) gap_plot.series.push_back(std::move(gap_limit));  // else the same points
  }

  ExperimentResult result;
  const std::string base = options.out_dir + "/search-distinct";
  table.write(base + ".csv");
  write_line_plot_svg(base + ".svg", time_plot);
  write_line_plot_svg(base + "-gap.svg", gap_plot);
  result.files = {base + ".csv", base + ".svg", base + "-gap.svg"};
  result.summary = summary;
  return result;
}

void register_search_distinct_experiment(std::vector<Experiment>& list) {
  list.push_back({"search-distinct",
                  "exact broadcast and reduce searches with every time distinct (in [1,4)): seconds to prove, "
                  "nodes, and the gap to the proven bound after 1 s and at the limit, vs n",
                  "Liu 2002 sec. 5; Liu, Kuo, Wang 2009 sec. 6.2", run_search_distinct, /*takes_sizes=*/true,
                  /*takes_threads=*/true});
}

}  // namespace hetcoll
