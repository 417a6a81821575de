// Experiment `greedy-scale`: how the O(n log n) greedy planners and the
// verifier scale, from a thousand to a million processors (issue 2's target:
// plan and verify a million processors in about a second). Clusters have 5
// classes of times in [1, 8], drawn with the experiment seed.
#include <chrono>
#include <cmath>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "experiments/experiments_list.h"
#include "hetcoll/gen/cluster_generator.h"
#include "hetcoll/makespan/sender_speed/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/verify/verify.h"
#include "hetcoll/viz/line_plot_svg.h"
#include "hetcoll/core/elapsed.h"

namespace hetcoll {

namespace {

ExperimentResult run_greedy_scale(const ExperimentOptions& options) {
  std::vector<int> sizes = {1000, 10000, 100000, 1000000};
  if (options.quick) sizes = {1000, 10000};
  CsvTable table;
  table.columns = {"processors", "operation", "plan_seconds", "verify_seconds", "json_seconds", "makespan",
                   "lower_bound", "valid"};
  PlotSpec plot;
  plot.title = "Greedy planners: plan + verify time";
  plot.x_label = "processors";
  plot.y_label = "seconds (plan + verify)";
  plot.log_x = plot.log_y = true;
  std::vector<PlotSeries> series(3);
  series[0].name = "FNF broadcast";
  series[1].name = "SNF reduce";
  series[2].name = "SNF+FNF all-reduce";
  std::string summary = "processors  operation   plan s    verify s   json s    valid\n";
  for (int n : sizes) {
    ClusterGeneratorOptions generator;
    generator.processors = n;
    generator.classes = 5;
    generator.min_time = 1.0;
    generator.max_time = 8.0;
    generator.seed = options.seed;
    Cluster cluster = generate_cluster(generator);
    for (int which = 0; which < 3; ++which) {
      auto start = std::chrono::steady_clock::now();
      MakespanPlan plan = which == 0   ? plan_broadcast_fnf(cluster, 0)
                          : which == 1 ? plan_reduce_snf(cluster, 0)
                                       : plan_allreduce_snf_fnf(cluster, kNoProcessor);
      double plan_seconds = seconds_since(start);
      start = std::chrono::steady_clock::now();
      VerifyReport report = verify(cluster, plan);
      double verify_seconds = seconds_since(start);
      start = std::chrono::steady_clock::now();
      std::ostringstream json;
      write_plan_json(json, plan, cluster, {report.valid, true});
      double json_seconds = seconds_since(start);
      table.rows.push_back({std::to_string(n), to_string(plan.operation), fmt::format("{:.6f}", plan_seconds),
                            fmt::format("{:.6f}", verify_seconds), fmt::format("{:.6f}", json_seconds),
                            fmt::format("{}", plan.makespan), fmt::format("{}", plan.lower_bound),
                            report.valid ? "true" : "false"});
      series[static_cast<size_t>(which)].x.push_back(n);
      series[static_cast<size_t>(which)].y.push_back(plan_seconds + verify_seconds);
      summary += fmt::format("{:>10}  {:<10}  {:<8.4f}  {:<9.4f}  {:<8.4f}  {}\n", n, to_string(plan.operation),
                             plan_seconds, verify_seconds, json_seconds, report.valid ? "yes" : "NO");
      options.progress(fmt::format("n = {}: {} planned in {:.3f} s, verified in {:.3f} s", n,
                                   to_string(plan.operation), plan_seconds, verify_seconds));
    }
  }
  plot.series = std::move(series);
  return write_table_and_plot(options, "greedy-scale", table, plot, std::move(summary));
}

}  // namespace

void register_greedy_experiments(std::vector<Experiment>& list) {
  list.push_back({"greedy-scale", "plan + verify time of FNF, SNF and all-reduce from 10^3 to 10^6 processors",
                  "issue 2 scale target; Liu, Kuo, Wang 2009 and Liu 2002", run_greedy_scale});
}

}  // namespace hetcoll
