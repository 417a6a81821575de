// Experiment `ptas-quality` — Khuller, Kim, Woeginger 2003 secs. 3-4 (Khuller, Kim, Woeginger).
//
// The paper proves a PTAS for broadcast and warns it "is not practical due
// to its high running time". We measure how good and how slow it is:
//  1. ptas-quality.csv/.svg: on random clusters with 3-5 classes and a
//     fastest source, the makespan of FNF and of the PTAS at several eps
//     (eps' = eps) divided by the optimum (broadcast/optimal_search.h,
//     cross-checked by the generic branch-and-bound), and their running times;
//     also the paper's scheme verbatim (no deadline tightening) at eps = 0.5.
//  2. ptas-quality-time.csv/.svg: the PTAS's predicted and measured running
//     time as eps' shrinks, on larger clusters (3 classes), with the ratio
//     to FNF — where the scheme is and is not practical.
//  3. ptas-quality-multicast.csv/.svg: the seed's multicast example family
//     (m processors of time 1, m of time r; the slow ones multicast from a
//     slow source): speed-up from helpers as r grows, FNF and optimal.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include <fmt/format.h>

#include "hetcoll/core/wording.h"
#include "hetcoll/core/error.h"
#include "experiments/experiments_list.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/broadcast/generic_search.h"
#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"
#include "hetcoll/makespan/sender_speed/broadcast/ptas.h"
#include "hetcoll/makespan/sender_speed/multicast/multicast.h"
#include "hetcoll/viz/line_plot_svg.h"
#include "hetcoll/core/elapsed.h"

namespace hetcoll {

namespace {

using Clock = std::chrono::steady_clock;

// n processors, `classes` distinct times drawn from the halves in [1, 10];
// processor 0 is a fastest one (the paper's source).
Cluster random_class_cluster(std::mt19937_64& rng, int n, int classes) {
  std::vector<double> values{1.0};
  std::uniform_int_distribution<int> halves(3, 20);
  while (static_cast<int>(values.size()) < classes) {
    double value = halves(rng) / 2.0;
    if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
  }
  std::uniform_int_distribution<size_t> pick(0, values.size() - 1);
  std::vector<double> times(static_cast<size_t>(n));
  times[0] = 1.0;
  for (size_t i = 1; i < times.size(); ++i) times[i] = values[pick(rng)];
  return Cluster::from_times(std::move(times));
}

std::vector<ProcessorIndex> everyone_but(const Cluster& cluster, ProcessorIndex source) {
  std::vector<ProcessorIndex> receivers;
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != source) receivers.push_back(p);
  }
  return receivers;
}

struct PtasSeries {
  double ratio_sum = 0, ratio_max = 0, seconds_sum = 0, seconds_max = 0;
  int count = 0, refused = 0;
  void add(double ratio, double seconds) {
    ratio_sum += ratio;
    ratio_max = std::max(ratio_max, ratio);
    seconds_sum += seconds;
    seconds_max = std::max(seconds_max, seconds);
    ++count;
  }
};

std::string g(double value) { return fmt::format("{:.6g}", value); }

ExperimentResult run_ptas_quality(const ExperimentOptions& options) {
  ExperimentResult result;
  std::mt19937_64 rng(options.seed);
  const double per_run_limit = options.time_limit_seconds > 0 ? options.time_limit_seconds : (options.quick ? 2 : 20);

  // 1. Quality against the optimum.
  const std::vector<int> sizes = options.quick ? std::vector<int>{6, 8} : std::vector<int>{6, 8, 10, 12, 14, 16, 20};
  const int per_size = options.quick ? 4 : 30;
  const std::vector<double> epsilons = options.quick ? std::vector<double>{1.0, 0.5} : std::vector<double>{1.0, 0.5, 0.3, 0.2};
  CsvTable quality{{"n", "algorithm", "eps", "instances", "mean_ratio", "max_ratio", "mean_seconds", "max_seconds",
                    "refused"},
                   {}};
  PlotSpec quality_plot{"Broadcast makespan / optimum (3-5 classes, fastest source)", "processors n",
                        "mean makespan / optimum", false, false, {}};
  quality_plot.styles = std::make_shared<SeriesStyles>();  // FNF and each PTAS look the same in every plot
  std::vector<PlotSeries> quality_series(2 + epsilons.size());
  quality_series[0].name = "FNF";
  quality_series.back().name = "PTAS eps = 0.5, paper verbatim (no tightening)";
  quality_series.back().dashed = true;
  for (size_t e = 0; e < epsilons.size(); ++e) quality_series[e + 1].name = fmt::format("PTAS eps = {:g}", epsilons[e]);
  std::string quality_summary;
  int disagreements = 0;
  for (int n : sizes) {
    PtasSeries fnf;
    std::vector<PtasSeries> ptas(epsilons.size());
    PtasSeries verbatim;
    PtasSeries optimum_time;
    for (int i = 0; i < per_size; ++i) {
      const int classes = 3 + static_cast<int>(rng() % 3);
      Cluster cluster = random_class_cluster(rng, n, classes);
      auto receivers = everyone_but(cluster, 0);
      auto start = Clock::now();
      auto fnf_transfers_ = fnf_transfers(cluster, 0, receivers);
      const double fnf_seconds = seconds_since(start);
      const double fnf_makespan = last_completion(fnf_transfers_);
      SearchLimits search_limits;
      search_limits.time_limit_seconds = per_run_limit;
      start = Clock::now();
      BroadcastSearchResult searched = optimal_broadcast(cluster, 0, receivers, search_limits);
      optimum_time.add(1, seconds_since(start));
      if (!searched.complete()) continue;
      const double optimum = searched.transfers.empty() ? fnf_makespan : searched.makespan;
      // Cross-check with the independent generic branch-and-bound (Liu 2002 sec. 5).
      BroadcastSearchResult generic = generic_bnb_broadcast(cluster, 0, receivers, search_limits);
      const double generic_optimum = generic.transfers.empty() ? fnf_makespan : generic.makespan;
      if (generic.complete() && !time_equal(generic_optimum, optimum, cluster.tolerance())) ++disagreements;
      fnf.add(fnf_makespan / optimum, fnf_seconds);
      for (size_t e = 0; e < epsilons.size(); ++e) {
        PtasParameters parameters;
        parameters.eps = epsilons[e];
        parameters.limits.time_limit_seconds = per_run_limit;
        start = Clock::now();
        MakespanPlan plan = plan_broadcast_ptas(cluster, 0, parameters);
        double elapsed = seconds_since(start);
        if (plan.limit_reached()) {
          ++ptas[e].refused;
        } else {
          ptas[e].add(plan.makespan / optimum, elapsed);
        }
      }
      PtasParameters paper;
      paper.eps = 0.5;
      paper.tighten_deadline = false;
      paper.limits.time_limit_seconds = per_run_limit;
      start = Clock::now();
      MakespanPlan plan = plan_broadcast_ptas(cluster, 0, paper);
      double elapsed = seconds_since(start);
      if (plan.limit_reached()) {
        ++verbatim.refused;
      } else {
        verbatim.add(plan.makespan / optimum, elapsed);
      }
    }
    auto add_row = [&](const std::string& algorithm, const std::string& eps, const PtasSeries& s, PlotSeries& series) {
      quality.rows.push_back({std::to_string(n), algorithm, eps, std::to_string(s.count),
                              g(s.count ? s.ratio_sum / s.count : 0), g(s.ratio_max),
                              g(s.count ? s.seconds_sum / s.count : 0), g(s.seconds_max), std::to_string(s.refused)});
      if (s.count) {
        series.x.push_back(n);
        series.y.push_back(s.ratio_sum / s.count);
      }
    };
    add_row("fnf", "", fnf, quality_series[0]);
    quality.rows.push_back({std::to_string(n), "optimal", "", std::to_string(optimum_time.count), "1", "1",
                            g(optimum_time.count ? optimum_time.seconds_sum / optimum_time.count : 0),
                            g(optimum_time.seconds_max), std::to_string(per_size - fnf.count)});
    for (size_t e = 0; e < epsilons.size(); ++e) add_row("ptas", g(epsilons[e]), ptas[e], quality_series[e + 1]);
    add_row("ptas-verbatim", "0.5", verbatim, quality_series.back());
    std::string line = fmt::format("n = {}: FNF mean {:.4f}", n, fnf.count ? fnf.ratio_sum / fnf.count : 0);
    for (size_t e = 0; e < epsilons.size(); ++e) {
      line += fmt::format(", PTAS({:g}) mean {:.4f} max {:.4f} in {:.3g} s", epsilons[e],
                          ptas[e].count ? ptas[e].ratio_sum / ptas[e].count : 0, ptas[e].ratio_max,
                          ptas[e].count ? ptas[e].seconds_sum / ptas[e].count : 0);
    }
    line += fmt::format(", verbatim PTAS(0.5) mean {:.4f} max {:.4f}", verbatim.count ? verbatim.ratio_sum / verbatim.count : 0,
                        verbatim.ratio_max);
    options.progress(line);
    quality_summary += line + "\n";
  }
  quality_plot.series = quality_series;
  quality_summary += fmt::format("optimum cross-check (optimal_search vs generic-bnb): {} disagreements\n", disagreements);
  options.progress(fmt::format("optimum cross-check: {} disagreements", disagreements));
  const std::string base = options.out_dir + "/ptas-quality";
  quality.write(base + ".csv");
  write_line_plot_svg(base + ".svg", quality_plot);
  result.files.push_back(base + ".csv");
  result.files.push_back(base + ".svg");

  // 2. Running time against eps': clusters with 3 distinct times (the
  // classes stay few whatever eps') and with continuous times in [1, 10]
  // (the classes multiply as eps' shrinks).
  struct Family {
    std::string name;
    std::vector<int> sizes;
    bool continuous;
  };
  std::vector<Family> families;
  families.push_back(Family{"3 classes", options.quick ? std::vector<int>{16} : std::vector<int>{16, 32, 64}, false});
  if (!options.quick) families.push_back(Family{"continuous", std::vector<int>{12, 16, 24}, true});
  const std::vector<double> eps_primes =
      options.quick ? std::vector<double>{1.0, 0.5} : std::vector<double>{1.0, 0.7, 0.5, 0.35, 0.25, 0.18};
  const double timing_limit = options.time_limit_seconds > 0 ? options.time_limit_seconds : (options.quick ? 2 : 10);
  CsvTable timing{{"family", "n", "eps_prime", "instance", "predicted_seconds", "measured_seconds", "dp_states",
                   "useful_trees", "classes", "ptas_makespan", "fnf_makespan", "status"},
                  {}};
  PlotSpec timing_plot{"PTAS running time (eps = 0.5); dashed: predicted", "eps'", "seconds", true, true, {}};
  timing_plot.styles = quality_plot.styles;
  std::string timing_summary;
  for (const Family& family : families) {
    for (int n : family.sizes) {
      PlotSeries series{fmt::format("{}, n = {}", family.name, n), {}, {}, false};
      PlotSeries predicted_series{fmt::format("{}, n = {} (predicted)", family.name, n), {}, {}, true};
      predicted_series.style_key = series.name;  // the prediction in its measurement's colour
      std::vector<Cluster> clusters;
      for (int i = 0; i < (options.quick ? 1 : 2); ++i) {
        if (family.continuous) {
          std::uniform_real_distribution<double> uniform(1.0, 10.0);
          std::vector<double> times(static_cast<size_t>(n));
          times[0] = 1.0;
          for (size_t p = 1; p < times.size(); ++p) times[p] = std::round(uniform(rng) * 1000) / 1000;
          clusters.push_back(Cluster::from_times(times));
        } else {
          clusters.push_back(random_class_cluster(rng, n, 3));
        }
      }
      for (double eps_prime : eps_primes) {
        double measured_sum = 0, predicted_sum = 0;
        int measured = 0, refused = 0;
        for (size_t i = 0; i < clusters.size(); ++i) {
          const Cluster& cluster = clusters[i];
          auto receivers = everyone_but(cluster, 0);
          PtasWorkEstimate work = estimate_broadcast_ptas(cluster, 0, receivers, 0.5, eps_prime);
          const double fnf_makespan = last_completion(fnf_transfers(cluster, 0, receivers));
          PtasParameters parameters;
          parameters.eps = 0.5;
          parameters.eps_prime = eps_prime;
          parameters.limits.time_limit_seconds = timing_limit;
          std::string status = "ok", measured_text, makespan_text;
          auto start = Clock::now();
          MakespanPlan plan = plan_broadcast_ptas(cluster, 0, receivers, parameters);
          double elapsed = seconds_since(start);
          if (plan.status == SearchStatus::refused) {
            status = "refused";
            ++refused;
          } else {
            status = plan.limit_reached() ? "stopped at the time limit" : "ok";
            measured_text = g(elapsed);
            makespan_text = g(plan.makespan);
            if (!plan.limit_reached()) {
              measured_sum += elapsed;
              predicted_sum += work.seconds;
              ++measured;
            }
          }
          timing.rows.push_back({family.name, std::to_string(n), g(eps_prime), std::to_string(i), g(work.seconds),
                                 measured_text, g(work.max_dp_states), g(work.max_useful_trees),
                                 std::to_string(work.max_classes), makespan_text, g(fnf_makespan), status});
        }
        if (measured) {
          series.x.push_back(eps_prime);
          series.y.push_back(std::max(1e-6, measured_sum / measured));
          predicted_series.x.push_back(eps_prime);
          predicted_series.y.push_back(std::max(1e-6, predicted_sum / measured));
        }
        std::string line =
            fmt::format("{}, n = {}, eps' = {:g}: {} of {} finished, {} refused, mean {:.3g} s (predicted {:.3g} s)",
                        family.name, n, eps_prime, measured, clusters.size(), refused,
                        measured ? measured_sum / measured : 0, measured ? predicted_sum / measured : 0);
        options.progress(line);
        timing_summary += line + "\n";
      }
      timing_plot.series.push_back(series);
      timing_plot.series.push_back(predicted_series);
    }
  }
  timing.write(base + "-time.csv");
  write_line_plot_svg(base + "-time.svg", timing_plot);
  result.files.push_back(base + "-time.csv");
  result.files.push_back(base + "-time.svg");

  // 3. Multicast: the seed's family, speed-up from helpers.
  const int m = options.quick ? 4 : 8;
  const std::vector<double> slow_ratios = options.quick ? std::vector<double>{1, 4, 16}
                                                        : std::vector<double>{1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32};
  CsvTable multicast{{"m", "slow_over_fast", "fnf_alone", "fnf_helpers", "optimal_alone", "optimal_helpers",
                      "speedup_fnf", "speedup_optimal", "helpers_used", "paper_alone", "paper_helpers_fast_source"},
                     {}};
  PlotSpec multicast_plot{fmt::format("Multicast to {} slow processors from a slow source, {} fast helpers", m, m),
                          "slow / fast transmission time", "speed-up from helpers", false, true, {}};
  multicast_plot.styles = quality_plot.styles;
  PlotSeries fnf_speedup{"FNF", {}, {}, false}, optimal_speedup{"optimal", {}, {}, false};
  std::string multicast_summary;
  for (double ratio : slow_ratios) {
    std::vector<double> times(static_cast<size_t>(m), 1.0);
    times.insert(times.end(), static_cast<size_t>(m), ratio);
    Cluster cluster = Cluster::from_times(times);
    const ProcessorIndex source = m;
    std::vector<ProcessorIndex> targets;
    for (int i = m + 1; i < 2 * m; ++i) targets.push_back(i);
    MakespanPlan fnf_alone = plan_multicast_fnf(cluster, source, targets, 0);
    MakespanPlan fnf_helpers = plan_multicast_fnf(cluster, source, targets);
    SearchLimits limits;
    limits.time_limit_seconds = per_run_limit;
    MakespanPlan optimal_alone = plan_multicast_exact(cluster, source, targets, limits, 0);
    MakespanPlan optimal_helpers = plan_multicast_exact(cluster, source, targets, limits);
    const double log_m = std::ceil(std::log2(m));
    multicast.rows.push_back({std::to_string(m), g(ratio), g(fnf_alone.makespan), g(fnf_helpers.makespan),
                              g(optimal_alone.makespan), g(optimal_helpers.makespan),
                              g(fnf_alone.makespan / fnf_helpers.makespan),
                              g(optimal_alone.makespan / optimal_helpers.makespan),
                              std::to_string(optimal_helpers.helpers.size()), g(ratio * log_m), g(log_m + 1)});
    fnf_speedup.x.push_back(ratio);
    fnf_speedup.y.push_back(fnf_alone.makespan / fnf_helpers.makespan);
    optimal_speedup.x.push_back(ratio);
    optimal_speedup.y.push_back(optimal_alone.makespan / optimal_helpers.makespan);
    std::string line = fmt::format("multicast r = {:g}: optimal {:g} alone vs {:g} with {} (x{:.2f})", ratio,
                                   optimal_alone.makespan, optimal_helpers.makespan,
                                   count_of(optimal_helpers.helpers.size(), "helper"),
                                   optimal_alone.makespan / optimal_helpers.makespan);
    options.progress(line);
    multicast_summary += line + "\n";
  }
  multicast_plot.series = {fnf_speedup, optimal_speedup};
  multicast.write(base + "-multicast.csv");
  write_line_plot_svg(base + "-multicast.svg", multicast_plot);
  result.files.push_back(base + "-multicast.csv");
  result.files.push_back(base + "-multicast.svg");

  result.summary = quality_summary + timing_summary + multicast_summary;
  return result;
}

}  // namespace

void register_ptas_experiments(std::vector<Experiment>& list) {
  list.push_back({"ptas-quality",
                  "broadcast PTAS vs FNF vs optimum (ratio, time, time vs eps'); multicast speed-up from helpers",
                  "Khuller, Kim, Woeginger 2003 secs. 3-4", run_ptas_quality});
}

}  // namespace hetcoll
