// Experiment `grid-makespan`: one broadcast and one reduce on grids of sites
// (gen/grid_generator.h: two and three levels, sites of 4 to 64 hosts,
// shared wide-area links 3 to 100 times slower than a LAN) and on SimGrid's
// small_platform.xml, planned on the platform graph by every graph planner
// and, as the baseline, by FNF / SNF on the sender-speed view (what hetcoll
// did with graphs before). Every plan is checked by the graph verifier; the
// makespans are reported as ratios to the plan's lower bound, and on the
// small grids (at most 10 hosts) to the optimum found by the exact search.
// A last row times the default planner and the verifier on a 10,000-host
// two-level grid.
#include <chrono>
#include <cmath>
#include <limits>
#include <filesystem>
#include <map>
#include <optional>
#include <random>

#include <fmt/format.h>

#include "experiments/experiments_list.h"
#include "hetcoll/gen/grid_generator.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/graph/fnf_view.h"
#include "hetcoll/registry/graph_registry.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/verify/verify.h"
#include "hetcoll/viz/line_plot_svg.h"

namespace hetcoll {

namespace {

constexpr std::uint64_t kOptimumNodeLimit = 5'000'000;

// The planners compared, in column order; `fnf-view` is the baseline.
const std::vector<std::string> kPlanners = {"fnf-view", "fef", "ecef", "lookahead", "hierarchical", "auto"};

struct Instance {
  std::string family;  // "2-level", "3-level", "small_platform.xml"
  int levels = 2;
  double wan_ratio = 0;
  Platform platform;
  std::optional<double> message_size;
};

struct Outcome {
  std::map<std::string, double> makespan;  // per planner, plus "optimal" on small instances
  double lower_bound = 0;
  double view_predicted = 0;  // the sender-speed view's own makespan
  std::size_t hosts = 0;
};

Outcome run_instance(const Instance& instance, Operation operation) {
  GraphNetwork network(instance.platform, instance.message_size);
  Outcome outcome;
  outcome.hosts = network.participants().size();
  MakespanRequest request;
  request.operation = operation;
  auto checked = [&](const std::string& name) {
    MakespanPlan plan = plan_graph_makespan(network, request, name);
    if (name == "optimal" && !plan.optimal) return std::numeric_limits<double>::quiet_NaN();
    const VerifyReport report = verify(network, plan);
    if (!report.valid) throw std::logic_error("grid-makespan: a " + name + " plan failed verification: " + report.summary());
    outcome.lower_bound = std::max(outcome.lower_bound, plan.lower_bound);
    return plan.makespan;
  };
  for (const auto& name : kPlanners) outcome.makespan[name] = checked(name);
  if (outcome.hosts <= 10) {
    // The optimum, when the search proves it within its node limit.
    request.limits.node_limit = kOptimumNodeLimit;
    const double optimum = checked("optimal");
    if (!std::isnan(optimum)) outcome.makespan["optimal"] = optimum;
  }
  const Cluster view = sender_speed_view_of(network);
  outcome.view_predicted = operation == Operation::broadcast ? plan_broadcast_fnf(view, 0).makespan
                                                             : plan_reduce_snf(view, 0).makespan;
  return outcome;
}

std::string grid_number(double value) { return fmt::format("{:.6g}", value); }

}  // namespace

ExperimentResult run_grid_makespan(const ExperimentOptions& options) {
  const std::vector<double> ratios = options.quick ? std::vector<double>{3, 10, 100} : std::vector<double>{3, 10, 30, 100};
  const int per_setting = options.quick ? 2 : 6;
  std::mt19937_64 seeds(options.seed);
  std::vector<Instance> instances;
  for (double ratio : ratios) {
    for (int i = 0; i < per_setting; ++i) {
      // Small: two sites of 4 or 5 hosts (the exact search proves the optimum).
      GridGeneratorOptions small;
      small.levels = 2, small.sites = 2, small.min_hosts = 4, small.max_hosts = 5, small.wan_ratio = ratio;
      small.seed = seeds();
      instances.push_back({"2-level small", 2, ratio, generate_grid(small), std::nullopt});
      GridGeneratorOptions two;
      two.levels = 2, two.sites = options.quick ? 3 : 6, two.min_hosts = 4, two.max_hosts = options.quick ? 16 : 64;
      two.wan_ratio = ratio, two.seed = seeds();
      instances.push_back({"2-level", 2, ratio, generate_grid(two), std::nullopt});
      GridGeneratorOptions three;
      three.levels = 3, three.regions = options.quick ? 2 : 3, three.sites = 3, three.min_hosts = 4;
      three.max_hosts = options.quick ? 8 : 24, three.wan_ratio = ratio, three.seed = seeds();
      instances.push_back({"3-level", 3, ratio, generate_grid(three), std::nullopt});
    }
  }
  const std::string small_platform = "examples/small_platform.xml";
  if (std::filesystem::exists(small_platform)) {
    instances.push_back({"small_platform.xml", 0, 0, load_platform_file(small_platform).graph(), 1e6});
  }

  CsvTable table;
  table.columns = {"family", "wan_ratio", "hosts", "operation", "lower_bound", "fnf_view_predicted"};
  for (const auto& name : kPlanners) table.columns.push_back(name);
  table.columns.push_back("optimal");
  table.columns.push_back("auto_over_optimal");
  table.columns.push_back("speedup_over_fnf_view");
  table.columns.push_back("speedup_over_fnf_view_predicted");

  // Means of makespan / lower bound per (family, ratio, planner), broadcast.
  std::map<std::pair<std::string, double>, std::map<std::string, std::pair<double, int>>> ratio_to_bound;
  double worst_default_over_optimal = 0;
  int with_optimum = 0;
  double speedup_sum = 0, speedup_predicted_sum = 0;
  int speedup_count = 0;
  std::size_t done = 0;
  for (const auto& instance : instances) {
    for (auto operation : {Operation::broadcast, Operation::reduce}) {
      const Outcome outcome = run_instance(instance, operation);
      std::vector<std::string> row = {instance.family, instance.wan_ratio > 0 ? grid_number(instance.wan_ratio) : "",
                                      std::to_string(outcome.hosts), to_string(operation), grid_number(outcome.lower_bound),
                                      grid_number(outcome.view_predicted)};
      for (const auto& name : kPlanners) row.push_back(grid_number(outcome.makespan.at(name)));
      const auto optimum = outcome.makespan.find("optimal");
      const double auto_makespan = outcome.makespan.at("auto");
      row.push_back(optimum != outcome.makespan.end() ? grid_number(optimum->second) : "");
      row.push_back(optimum != outcome.makespan.end() ? fmt::format("{:.4f}", auto_makespan / optimum->second) : "");
      const double speedup = outcome.makespan.at("fnf-view") / auto_makespan;
      const double speedup_predicted = outcome.view_predicted / auto_makespan;
      row.push_back(fmt::format("{:.4f}", speedup));
      row.push_back(fmt::format("{:.4f}", speedup_predicted));
      table.rows.push_back(row);
      if (optimum != outcome.makespan.end()) {
        worst_default_over_optimal = std::max(worst_default_over_optimal, auto_makespan / optimum->second);
        ++with_optimum;
      }
      if (instance.wan_ratio >= 10) {
        speedup_sum += speedup;
        speedup_predicted_sum += speedup_predicted;
        ++speedup_count;
      }
      if (operation == Operation::broadcast && instance.wan_ratio > 0) {
        auto& cell = ratio_to_bound[{instance.family, instance.wan_ratio}];
        for (const auto& [name, makespan] : outcome.makespan) {
          cell[name].first += makespan / outcome.lower_bound;
          cell[name].second += 1;
        }
      }
    }
    options.progress(fmt::format("{}/{} platforms ({} hosts)", ++done, instances.size(),
                                 instance.platform.participants().size()));
  }

  // The 10,000-host two-level grid: plan with the default and verify.
  GridGeneratorOptions big;
  big.levels = 2, big.total_hosts = options.quick ? 2000 : 10000, big.wan_ratio = 30, big.seed = options.seed;
  const Platform big_platform = generate_grid(big);
  const GraphNetwork big_network(big_platform, std::nullopt);
  MakespanRequest request;
  request.operation = Operation::broadcast;
  const auto started = std::chrono::steady_clock::now();
  const MakespanPlan big_plan = plan_graph_makespan(big_network, request);
  const auto planned = std::chrono::steady_clock::now();
  const VerifyReport big_report = verify(big_network, big_plan);
  const auto verified = std::chrono::steady_clock::now();
  if (!big_report.valid) throw std::logic_error("grid-makespan: the large grid's plan failed verification");
  const double plan_seconds = std::chrono::duration<double>(planned - started).count();
  const double verify_seconds = std::chrono::duration<double>(verified - planned).count();

  // Picture: mean makespan / lower bound against the WAN/LAN ratio.
  PlotSpec plot;
  plot.title = "Broadcast on grids of sites: makespan / lower bound (mean)";
  plot.x_label = "WAN / LAN time ratio";
  plot.y_label = "makespan / lower bound";
  plot.log_x = true;
  plot.log_y = true;
  for (const std::string family : {"2-level", "3-level"}) {
    for (const auto& name : kPlanners) {
      PlotSeries series{fmt::format("{} {}", name, family), {}, {}, family == "3-level"};
      for (double ratio : ratios) {
        const auto& cell = ratio_to_bound[{family, ratio}].at(name);
        series.x.push_back(ratio);
        series.y.push_back(cell.first / cell.second);
      }
      plot.series.push_back(series);
    }
  }
  ExperimentResult result;
  const auto csv = (std::filesystem::path(options.out_dir) / "grid-makespan.csv").string();
  const auto svg = (std::filesystem::path(options.out_dir) / "grid-makespan.svg").string();
  table.write(csv);
  write_line_plot_svg(svg, plot);
  result.files = {csv, svg};

  std::string summary = "broadcast, mean makespan / lower bound:\n";
  summary += fmt::format("{:<16}{:>7}", "family", "ratio");
  for (const auto& name : kPlanners) summary += fmt::format("{:>13}", name);
  summary += "\n";
  for (const auto& [key, cell] : ratio_to_bound) {
    summary += fmt::format("{:<16}{:>7}", key.first, grid_number(key.second));
    for (const auto& name : kPlanners) summary += fmt::format("{:>13.3f}", cell.at(name).first / cell.at(name).second);
    summary += "\n";
  }
  summary += fmt::format("default plan / optimum, worst over {} instances with at most 10 hosts: {:.4f}\n",
                         with_optimum, worst_default_over_optimal);
  if (speedup_count > 0) {
    summary += fmt::format(
        "WAN/LAN >= 10 ({} plans): the default is {:.2f}x faster than FNF/SNF on the sender-speed view executed on the "
        "platform, {:.2f}x faster than that view predicts\n",
        speedup_count, speedup_sum / speedup_count, speedup_predicted_sum / speedup_count);
  }
  summary += fmt::format("{}-host two-level grid: default plan {:.3f} s + verify {:.3f} s = {:.3f} s ({}, makespan {:.4g})\n",
                         big_platform.participants().size(), plan_seconds, verify_seconds, plan_seconds + verify_seconds,
                         big_plan.algorithm, big_plan.makespan);
  result.summary = summary;
  return result;
}

void register_grid_makespan_experiment(std::vector<Experiment>& list) {
  list.push_back({"grid-makespan",
                  "broadcast and reduce on grids of sites: graph planners vs FNF/SNF on the sender-speed view, ratios to "
                  "the lower bound and the optimum",
                  "Bhat, Raghavendra, Prasanna 2003 (FEF, ECEF, look-ahead); hierarchical plans", run_grid_makespan});
}

}  // namespace hetcoll
