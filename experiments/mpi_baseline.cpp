// Experiment `mpi-baseline`: how much the heterogeneity-aware greedy plans
// (FNF broadcast, SNF reduce, SNF+FNF all-reduce) gain over the binomial
// trees and the recursive-doubling all-reduce MPI libraries use, in the
// sender-speed model. Liu, Kuo, Wang 2009 sec. 6.1
// measures SNF against MPI_Reduce on a real 8-processor cluster (four 3.2 GHz
// Xeons, four 2 GHz Athlons); we model that cluster (t = 1.0 and 1.6) and then
// random 3-class clusters (times 1, 2, 4 and 1, 4, 16) of 8 to 4096
// processors with processors in random rank order.
#include <filesystem>
#include <random>

#include <fmt/format.h>

#include "experiments/experiments_list.h"
#include "hetcoll/makespan/sender_speed/allreduce/binomial.h"
#include "hetcoll/makespan/sender_speed/allreduce/recursive_doubling.h"
#include "hetcoll/makespan/sender_speed/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/sender_speed/broadcast/binomial.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/reduce/binomial.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/verify/verify.h"
#include "hetcoll/viz/line_plot_svg.h"

namespace hetcoll {

namespace {

struct Comparison {
  double binomial_broadcast, fnf, binomial_reduce, snf, binomial_allreduce, snf_fnf, recursive_doubling;
};

Comparison compare(const Cluster& cluster, ProcessorIndex root) {
  Comparison c{};
  auto checked = [&](const MakespanPlan& plan) {
    if (!verify(cluster, plan).valid) throw std::logic_error("mpi-baseline: a plan failed verification");
    return plan.makespan;
  };
  c.binomial_broadcast = checked(plan_broadcast_binomial(cluster, root));
  c.fnf = checked(plan_broadcast_fnf(cluster, root));
  c.binomial_reduce = checked(plan_reduce_binomial(cluster, root));
  c.snf = checked(plan_reduce_snf(cluster, root));
  // MPI's all-reduce for small messages: binomial reduce, then binomial
  // broadcast (`hetcoll allreduce --algo binomial --root P`).
  c.binomial_allreduce = checked(plan_allreduce_binomial(cluster, root));
  c.snf_fnf = checked(plan_allreduce_snf_fnf(cluster, kNoProcessor));
  // MPICH's small-message all-reduce on a power-of-two communicator
  // (`hetcoll allreduce --algo recursive-doubling`).
  c.recursive_doubling = checked(plan_allreduce_recursive_doubling(cluster));
  return c;
}

ExperimentResult run_mpi_baseline(const ExperimentOptions& options) {
  CsvTable table;
  table.columns = {"cluster", "processors", "instances", "binomial_bcast", "fnf", "bcast_gain", "binomial_reduce",
                   "snf", "reduce_gain", "binomial_allreduce", "snf_fnf", "allreduce_gain", "recursive_doubling",
                   "recursive_doubling_gain"};
  std::string summary =
      "cluster                     n  instances  bcast gain  reduce gain  allreduce gain  (binomial / hetcoll)"
      "  recursive doubling / hetcoll\n";
  auto add_row = [&](const std::string& name, int n, int instances, const Comparison& mean) {
    table.rows.push_back({name, std::to_string(n), std::to_string(instances), fmt::format("{:.4f}", mean.binomial_broadcast),
                          fmt::format("{:.4f}", mean.fnf), fmt::format("{:.4f}", mean.binomial_broadcast / mean.fnf),
                          fmt::format("{:.4f}", mean.binomial_reduce), fmt::format("{:.4f}", mean.snf),
                          fmt::format("{:.4f}", mean.binomial_reduce / mean.snf),
                          fmt::format("{:.4f}", mean.binomial_allreduce), fmt::format("{:.4f}", mean.snf_fnf),
                          fmt::format("{:.4f}", mean.binomial_allreduce / mean.snf_fnf),
                          fmt::format("{:.4f}", mean.recursive_doubling),
                          fmt::format("{:.4f}", mean.recursive_doubling / mean.snf_fnf)});
    summary += fmt::format("{:<24}{:>5}  {:>9}  {:>10.3f}  {:>11.3f}  {:>14.3f}  {:>30.3f}\n", name, n, instances,
                           mean.binomial_broadcast / mean.fnf, mean.binomial_reduce / mean.snf,
                           mean.binomial_allreduce / mean.snf_fnf, mean.recursive_doubling / mean.snf_fnf);
  };

  // Liu, Kuo, Wang 2009 sec. 6.1, two rank orders.
  {
    Cluster fast_first({"xeon0", "xeon1", "xeon2", "xeon3", "athlon0", "athlon1", "athlon2", "athlon3"},
                       {1, 1, 1, 1, 1.6, 1.6, 1.6, 1.6});
    add_row("Liu-Kuo-Wang 6.1 fast first", 8, 1, compare(fast_first, 0));
    Cluster interleaved({"xeon0", "athlon0", "xeon1", "athlon1", "xeon2", "athlon2", "xeon3", "athlon3"},
                        {1, 1.6, 1, 1.6, 1, 1.6, 1, 1.6});
    add_row("Liu-Kuo-Wang 6.1 interleaved", 8, 1, compare(interleaved, 0));
  }

  PlotSpec plot;
  plot.title = "MPI's binomial trees and recursive doubling vs hetcoll's greedy plans";
  plot.x_label = "processors";
  plot.y_label = "MPI baseline makespan / hetcoll makespan";
  plot.log_x = true;
  const std::vector<std::pair<std::string, std::vector<double>>> families = {{"times 1,2,4", {1, 2, 4}},
                                                                            {"times 1,4,16", {1, 4, 16}}};
  std::vector<int> sizes = {8, 16, 32, 64, 128, 256, 1024, 4096};
  int instances = 50;
  if (options.quick) {
    sizes = {8, 16, 32, 64};
    instances = 10;
  }
  std::mt19937_64 rng(options.seed);
  for (const auto& [family, class_times] : families) {
    PlotSeries bcast{"broadcast, " + family, {}, {}, false}, reduce{"reduce, " + family, {}, {}, true},
        allreduce{"all-reduce (binomial), " + family, {}, {}, false},
        doubling{"all-reduce (recursive doubling), " + family, {}, {}, true};
    for (int n : sizes) {
      Comparison sum{};
      for (int i = 0; i < instances; ++i) {
        std::uniform_int_distribution<size_t> pick(0, class_times.size() - 1);
        std::vector<double> times(static_cast<size_t>(n));
        for (auto& t : times) t = class_times[pick(rng)];
        Cluster cluster = Cluster::from_times(times);
        Comparison c = compare(cluster, 0);
        sum.binomial_broadcast += c.binomial_broadcast;
        sum.fnf += c.fnf;
        sum.binomial_reduce += c.binomial_reduce;
        sum.snf += c.snf;
        sum.binomial_allreduce += c.binomial_allreduce;
        sum.snf_fnf += c.snf_fnf;
        sum.recursive_doubling += c.recursive_doubling;
      }
      add_row(family, n, instances, sum);
      bcast.x.push_back(n);
      bcast.y.push_back(sum.binomial_broadcast / sum.fnf);
      reduce.x.push_back(n);
      reduce.y.push_back(sum.binomial_reduce / sum.snf);
      allreduce.x.push_back(n);
      allreduce.y.push_back(sum.binomial_allreduce / sum.snf_fnf);
      doubling.x.push_back(n);
      doubling.y.push_back(sum.recursive_doubling / sum.snf_fnf);
      options.progress(fmt::format("{}: n = {} done ({} clusters)", family, n, instances));
    }
    plot.series.push_back(bcast);
    plot.series.push_back(reduce);
    plot.series.push_back(allreduce);
    plot.series.push_back(doubling);
  }
  return write_table_and_plot(options, "mpi-baseline", table, plot, std::move(summary));
}

}  // namespace

void register_baseline_experiments(std::vector<Experiment>& list) {
  list.push_back({"mpi-baseline",
                  "binomial trees and recursive doubling (what MPI libraries use) vs FNF / SNF / SNF+FNF: "
                  "makespan ratios",
                  "Liu, Kuo, Wang 2009 sec. 6.1 (SNF vs MPI_Reduce), in the model", run_mpi_baseline});
}

}  // namespace hetcoll
