// Experiment `bcast-search` — Liu 2002 sec. 5, Table 1: optimal broadcast by
// our branch-and-bound (optimal_search.h) against the seed's generic
// branch-and-bound (generic_search.h), side by side in one run, then beyond
// the seed's sizes with 3 and with 5 classes.
//
// Set-up (the seed's): P processors, each given one of the class times
// uniformly at random; 50 clusters per P. The seed asks for the optimum
// over every source, which by Thm 4.2 is reached from a fastest processor,
// so the source is a fastest processor (the lowest index among them).
// The seed does not give its three times. We use 1, 2, 3 (the times of
// Liu 2002 Fig. 2, where FNF is not optimal) and, for 5 classes, 1..5; a
// second series draws the class times of each cluster uniformly from
// [1, 4) (no ties between classes beyond chance, no common quantum).
// N is the size of the seed's search tree: the number of prefixes (root
// included) of the distinct class sequences s_0..s_{P-1} of all P
// processors, computed exactly by a polynomial product, not enumerated:
// N = sum_m m! [x^m] prod_c (sum_{i <= n_c} x^i / i!). Its average over
// random class counts is E[N] = 7,765 for P = 10 against 8,895 in Table 1
// (and the leaves: 2,382 against 2,750; the seed's 50 draws vary a lot).
// Nodes: ours counts the nodes whose bound it evaluates (slot-group
// children, each extending the sequence by every receiver ready at one
// time, and partial compositions); 0 = the root bound already proves FNF
// optimal. The generic one counts sequence prefixes. The plot shows
// nodes + 1 so that zeros stay on the log axis. Times are wall-clock per
// cluster on this machine (average, median and max in the CSV); the
// generic search is run while a cluster takes under its limit.
// Ablation (bcast-search-ablation.csv): each technique switched off in
// turn on 50 clusters of 60 processors, 5 classes drawn in [1, 4).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "experiments/experiments_list.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/broadcast/generic_search.h"
#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"
#include "hetcoll/viz/line_plot_svg.h"

namespace hetcoll {

namespace {

using Clock = std::chrono::steady_clock;

// Liu 2002 Table 1 (Pentium III 450 MHz): P, N, L, n and seconds of the FNF
// search, n and seconds of the generic branch-and-bound.
struct SeedRow {
  int p;
  double tree_size, leaves, ours_nodes, ours_seconds, generic_nodes, generic_seconds;
};
constexpr SeedRow kSeedTable1[] = {
    {10, 8895, 2750, 101, 0.0005, 1876, 0.0089},
    {11, 26200, 8094, 132, 0.0008, 4956, 0.0278},
    {12, 65666, 20118, 180, 0.0012, 10406, 0.0671},
    {13, 182749, 55812, 364, 0.0027, 25517, 0.1857},
    {14, 479988, 146226, 549, 0.0046, 62318, 0.5150},
    {15, 1130166, 342050, 1111, 0.0101, 144507, 1.3335},
    {16, 3156025, 953521, 2007, 0.0200, 300785, 3.0448},
    {17, 9193712, 2773002, 3002, 0.0349, 1029079, 11.6970},
    {18, 31946795, 9688499, 5721, 0.0709, 2658041, 32.9900},
    {19, 86500614, 26089395, 6124, 0.0825, 7098066, 96.4370},
    {20, 220708439, 66378464, 12693, 0.1821, 13926482, 205.1097},
    {21, 658075130, 198533991, 27418, 0.4348, 29399414, 576.2480},
};

const SeedRow* seed_row(int p) {
  for (const auto& row : kSeedTable1) {
    if (row.p == p) return &row;
  }
  return nullptr;
}

// Nodes (root included) and leaves of the tree of distinct class sequences
// with the given class counts, as long doubles (they overflow 64 bits).
std::pair<long double, long double> class_sequence_tree(const std::vector<int>& counts) {
  // poly[m] = sum over prefixes of m processors of 1 / prod i_c!.
  std::vector<long double> poly{1.0L};
  for (int count : counts) {
    std::vector<long double> next(poly.size() + static_cast<size_t>(count), 0.0L);
    long double inverse_factorial = 1.0L;
    for (int i = 0; i <= count; ++i) {
      if (i > 0) inverse_factorial /= i;
      for (size_t m = 0; m < poly.size(); ++m) next[m + static_cast<size_t>(i)] += poly[m] * inverse_factorial;
    }
    poly = std::move(next);
  }
  long double nodes = 0, factorial = 1;
  for (size_t m = 0; m < poly.size(); ++m) {
    if (m > 0) factorial *= static_cast<long double>(m);
    nodes += factorial * poly[m];
  }
  long double leaves = 1;  // the multinomial coefficient
  int placed = 0;
  for (int count : counts) {
    for (int i = 1; i <= count; ++i) leaves = leaves * static_cast<long double>(++placed) / i;
  }
  return {nodes, leaves};
}

// Beyond this P the tree size is astronomically large (and 1/i! underflows).
constexpr int kTreeSizeLimit = 300;

struct Measure {
  double nodes = 0, seconds = 0, max_seconds = 0;
  int unfinished = 0, runs = 0;
  std::vector<double> all_seconds;
  void add(const BroadcastSearchResult& result, double seconds_taken) {
    nodes += static_cast<double>(result.stats.nodes);
    seconds += seconds_taken;
    all_seconds.push_back(seconds_taken);
    max_seconds = std::max(max_seconds, seconds_taken);
    if (!result.complete()) ++unfinished;
    ++runs;
  }
  double average_nodes() const { return runs ? nodes / runs : NAN; }
  double average_seconds() const { return runs ? seconds / runs : NAN; }
  double median_seconds() const {
    if (all_seconds.empty()) return NAN;
    std::vector<double> sorted = all_seconds;
    std::sort(sorted.begin(), sorted.end());
    const size_t middle = sorted.size() / 2;
    return sorted.size() % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
};

std::string number(double value, const char* format = "{:.6g}") {
  return std::isnan(value) ? std::string() : fmt::format(fmt::runtime(format), value);
}

struct Series {
  std::string name;   // for the CSV and the plot
  int classes;
  std::vector<double> times;  // fixed class times; empty = drawn per cluster from [1, 4)
  std::vector<int> sizes;
  bool generic = false;       // also run the generic branch-and-bound
};

Cluster draw_cluster(std::mt19937_64& rng, const Series& series, int p) {
  std::vector<double> values = series.times;
  if (values.empty()) {
    std::uniform_real_distribution<double> uniform(1.0, 4.0);
    values.push_back(1.0);  // one class at 1 so that times are normalised
    while (static_cast<int>(values.size()) < series.classes) values.push_back(uniform(rng));
  }
  std::uniform_int_distribution<size_t> pick(0, values.size() - 1);
  std::vector<double> times(static_cast<size_t>(p));
  for (auto& t : times) t = values[pick(rng)];
  return Cluster::from_times(times);
}

}  // namespace

ExperimentResult run_bcast_search(const ExperimentOptions& options) {
  const bool quick = options.quick;
  const int clusters_per_size = quick ? 5 : 50;
  const double instance_limit = options.time_limit_seconds > 0 ? options.time_limit_seconds : (quick ? 1.0 : 10.0);
  // The generic search stops growing P once a cluster needs more than this.
  const double generic_limit = quick ? 0.5 : 30.0;
  std::mt19937_64 rng(options.seed);

  std::vector<Series> all_series;
  {
    std::vector<int> table_sizes;
    for (int p = 10; p <= (quick ? 13 : 21); ++p) table_sizes.push_back(p);
    const std::vector<int> beyond3 = quick ? std::vector<int>{20, 30, 40}
                                           : std::vector<int>{25, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300,
                                                              400, 500, 700, 1000, 2000, 5000};
    const std::vector<int> beyond5 = quick ? std::vector<int>{15, 20, 30}
                                           : std::vector<int>{15, 21, 25, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250,
                                                              300, 400, 500, 700, 1000, 2000};
    Series three{"3 classes {1,2,3}", 3, {1, 2, 3}, table_sizes, true};
    three.sizes.insert(three.sizes.end(), beyond3.begin(), beyond3.end());
    Series three_real{"3 classes, times in [1,4)", 3, {}, table_sizes, true};
    three_real.sizes.insert(three_real.sizes.end(), beyond3.begin(), beyond3.end());
    Series five{"5 classes {1..5}", 5, {1, 2, 3, 4, 5}, {10}, false};
    five.sizes.insert(five.sizes.end(), beyond5.begin(), beyond5.end());
    Series five_real{"5 classes, times in [1,4)", 5, {}, {10}, false};
    five_real.sizes.insert(five_real.sizes.end(), beyond5.begin(), beyond5.end());
    all_series = {three, three_real, five, five_real};
  }

  CsvTable table;
  table.columns = {"series", "classes", "P", "clusters", "N_avg", "L_avg", "ours_nodes_avg", "ours_seconds_avg",
                   "ours_seconds_median", "ours_seconds_max", "ours_n_over_N", "ours_unfinished", "memo_hits_avg", "generic_nodes_avg",
                   "generic_seconds_avg", "generic_n_over_N", "generic_unfinished", "speedup_time", "speedup_nodes",
                   "fnf_optimal_fraction", "fnf_gap_avg_percent", "agree", "seed_N", "seed_L", "seed_ours_n",
                   "seed_ours_seconds", "seed_generic_n", "seed_generic_seconds"};
  PlotSpec nodes_plot;
  nodes_plot.title = "Optimal broadcast search: nodes examined (Liu 2002 Table 1 set-up)";
  nodes_plot.x_label = "P (processors)";
  nodes_plot.y_label = "nodes examined + 1 (average over the clusters)";
  nodes_plot.log_y = true;
  nodes_plot.log_x = true;
  PlotSpec time_plot;
  time_plot.title = "Optimal broadcast search: seconds per cluster (average)";
  time_plot.x_label = "P (processors)";
  time_plot.y_label = "seconds";
  time_plot.log_y = true;
  time_plot.log_x = true;
  PlotSeries tree_series{"N: whole search tree (3 classes {1,2,3})", {}, {}, true};
  PlotSeries seed_ours{"Liu 2002 FNF search (Table 1)", {}, {}, true};
  PlotSeries seed_generic{"Liu 2002 generic B&B (Table 1)", {}, {}, true};
  PlotSeries seed_ours_time{"Liu 2002 FNF search (Table 1, Pentium III)", {}, {}, true};
  PlotSeries seed_generic_time{"Liu 2002 generic B&B (Table 1, Pentium III)", {}, {}, true};
  // One look per series in both plots.
  nodes_plot.styles = time_plot.styles = std::make_shared<SeriesStyles>();
  seed_ours_time.style_key = seed_ours.name;
  seed_generic_time.style_key = seed_generic.name;
  std::vector<PlotSeries> ours_nodes_series, generic_nodes_series, ours_time_series, generic_time_series;
  std::string summary;
  const auto experiment_started = Clock::now();

  for (const auto& series : all_series) {
    PlotSeries ours_nodes{"ours, " + series.name, {}, {}};
    PlotSeries generic_nodes{"generic B&B, " + series.name, {}, {}};
    PlotSeries ours_time{"ours, " + series.name, {}, {}};
    PlotSeries generic_time{"generic B&B, " + series.name, {}, {}};
    bool run_generic = series.generic;
    int largest_within_second = 0;
    double at_21 = NAN;
    for (int p : series.sizes) {
      Measure ours, generic;
      double tree_nodes = 0, tree_leaves = 0, memo_hits = 0, fnf_gap = 0;
      int fnf_optimal = 0;
      bool agree = true;
      bool generic_this_row = run_generic;
      for (int trial = 0; trial < clusters_per_size; ++trial) {
        Cluster cluster = draw_cluster(rng, series, p);
        const ProcessorIndex source = cluster.fastest_processor();
        std::vector<ProcessorIndex> receivers;
        for (ProcessorIndex q = 0; q < cluster.size(); ++q) {
          if (q != source) receivers.push_back(q);
        }
        if (p <= kTreeSizeLimit) {
          std::vector<int> counts;
          for (double value : cluster.distinct_times()) {
            int count = 0;
            for (double t : cluster.transmission_times()) count += t == value;
            counts.push_back(count);
          }
          auto [nodes, leaves] = class_sequence_tree(counts);
          tree_nodes += static_cast<double>(nodes);
          tree_leaves += static_cast<double>(leaves);
        }
        SearchLimits limits;
        limits.time_limit_seconds = instance_limit;
        auto started = Clock::now();
        BroadcastSearchResult best = optimal_broadcast(cluster, source, receivers, limits);
        ours.add(best, std::chrono::duration<double>(Clock::now() - started).count());
        memo_hits += static_cast<double>(best.memo_hits);
        const double fnf = last_completion(fnf_transfers(cluster, source, receivers));
        if (best.complete() && time_leq(fnf, best.makespan, cluster.tolerance())) ++fnf_optimal;
        fnf_gap += 100.0 * (fnf / best.makespan - 1.0);
        if (generic_this_row) {
          SearchLimits generic_limits;
          generic_limits.time_limit_seconds = generic_limit;
          started = Clock::now();
          BroadcastSearchResult other = generic_bnb_broadcast(cluster, source, receivers, generic_limits);
          generic.add(other, std::chrono::duration<double>(Clock::now() - started).count());
          if (other.complete() && best.complete() && !time_equal(other.makespan, best.makespan, cluster.tolerance())) agree = false;
          if (!other.complete()) generic_this_row = false;  // too slow from here on
        }
      }
      const bool generic_done = run_generic && generic.runs == clusters_per_size && generic.unfinished == 0;
      if (run_generic && !generic_done) run_generic = false;
      const double n_avg = p <= kTreeSizeLimit ? tree_nodes / clusters_per_size : NAN;
      const SeedRow* seed = series.classes == 3 && !series.times.empty() ? seed_row(p) : nullptr;
      auto seed_value = [&](double SeedRow::*field) { return seed ? number(seed->*field) : std::string(); };
      table.rows.push_back(
          {series.name, std::to_string(series.classes), std::to_string(p), std::to_string(clusters_per_size),
           number(n_avg, "{:.6e}"), number(p <= kTreeSizeLimit ? tree_leaves / clusters_per_size : NAN, "{:.6e}"),
           number(ours.average_nodes()),
           number(ours.average_seconds(), "{:.3e}"), number(ours.median_seconds(), "{:.3e}"),
           number(ours.max_seconds, "{:.3e}"),
           number(ours.average_nodes() / n_avg, "{:.3e}"), std::to_string(ours.unfinished),
           number(memo_hits / clusters_per_size),
           number(generic_done ? generic.average_nodes() : NAN),
           number(generic_done ? generic.average_seconds() : NAN, "{:.3e}"),
           number(generic_done ? generic.average_nodes() / n_avg : NAN, "{:.4f}"),
           generic.runs ? std::to_string(generic.unfinished) : std::string(),
           number(generic_done ? generic.average_seconds() / ours.average_seconds() : NAN, "{:.1f}"),
           number(generic_done ? generic.average_nodes() / ours.average_nodes() : NAN, "{:.1f}"),
           number(static_cast<double>(fnf_optimal) / clusters_per_size, "{:.2f}"),
           number(fnf_gap / clusters_per_size, "{:.3f}"), agree ? "yes" : "NO", seed_value(&SeedRow::tree_size),
           seed_value(&SeedRow::leaves), seed_value(&SeedRow::ours_nodes), seed_value(&SeedRow::ours_seconds),
           seed_value(&SeedRow::generic_nodes), seed_value(&SeedRow::generic_seconds)});
      ours_nodes.x.push_back(p);
      ours_nodes.y.push_back(ours.average_nodes() + 1);
      ours_time.x.push_back(p);
      ours_time.y.push_back(ours.average_seconds());
      if (generic_done) {
        generic_nodes.x.push_back(p);
        generic_nodes.y.push_back(generic.average_nodes() + 1);
        generic_time.x.push_back(p);
        generic_time.y.push_back(generic.average_seconds());
      }
      if (series.classes == 3 && !series.times.empty() && p <= 40) {
        tree_series.x.push_back(p);
        tree_series.y.push_back(n_avg + 1);
      }
      if (seed) {
        seed_ours.x.push_back(p);
        seed_ours.y.push_back(seed->ours_nodes + 1);
        seed_generic.x.push_back(p);
        seed_generic.y.push_back(seed->generic_nodes + 1);
        seed_ours_time.x.push_back(p);
        seed_ours_time.y.push_back(seed->ours_seconds);
        seed_generic_time.x.push_back(p);
        seed_generic_time.y.push_back(seed->generic_seconds);
      }
      if (p == 21) at_21 = ours.average_seconds();
      const std::string line = fmt::format(
          "{}, P = {}: ours {:.0f} nodes {:.3g} s avg, {:.3g} s max ({} unfinished){}", series.name, p,
          ours.average_nodes(), ours.average_seconds(), ours.max_seconds, ours.unfinished,
          generic_done ? fmt::format("; generic {:.0f} nodes {:.3g} s avg, ratio {:.0f}", generic.average_nodes(),
                                     generic.average_seconds(), generic.average_seconds() / ours.average_seconds())
                       : std::string());
      options.progress(line);
      if (!agree) summary += "DISAGREEMENT: " + line + "\n";
      if (ours.unfinished == 0 && ours.average_seconds() <= 1.0) largest_within_second = p;
      // Stop growing once the average passes a second (the target's scale)
      // or the experiment has run long enough.
      const double elapsed = std::chrono::duration<double>(Clock::now() - experiment_started).count();
      if (ours.average_seconds() > 1.0 || ours.unfinished > 0 || elapsed > (quick ? 20.0 : 1800.0)) break;
    }
    summary += fmt::format("{}: {}largest P tried with every cluster solved and average <= 1 s: {}\n", series.name,
                           std::isnan(at_21) ? std::string() : fmt::format("P = 21 average {:.3g} ms; ", at_21 * 1e3),
                           largest_within_second);
    ours_nodes_series.push_back(ours_nodes);
    ours_time_series.push_back(ours_time);
    if (!generic_nodes.x.empty()) {
      generic_nodes_series.push_back(generic_nodes);
      generic_time_series.push_back(generic_time);
    }
  }
  nodes_plot.series = {tree_series, seed_generic, seed_ours};
  nodes_plot.series.insert(nodes_plot.series.end(), generic_nodes_series.begin(), generic_nodes_series.end());
  nodes_plot.series.insert(nodes_plot.series.end(), ours_nodes_series.begin(), ours_nodes_series.end());
  time_plot.series = {seed_generic_time, seed_ours_time};
  time_plot.series.insert(time_plot.series.end(), generic_time_series.begin(), generic_time_series.end());
  time_plot.series.insert(time_plot.series.end(), ours_time_series.begin(), ours_time_series.end());

  // Ablation: each technique switched off in turn, on a set where the
  // search has work to do (5 classes drawn in [1, 4), fastest source).
  CsvTable ablation;
  ablation.columns = {"variant", "classes", "P", "clusters", "nodes_avg", "seconds_avg", "seconds_max", "unfinished",
                      "time_limit_seconds"};
  {
    const int p = quick ? 25 : 60;
    const int clusters = quick ? 5 : 50;
    const double limit = quick ? 0.2 : 2.0;
    Series set{"5 classes, times in [1,4)", 5, {}, {p}, false};
    std::mt19937_64 ablation_rng(options.seed * 7919 + 3);  // independent of the series above
    std::vector<Cluster> instances;
    for (int trial = 0; trial < clusters; ++trial) instances.push_back(draw_cluster(ablation_rng, set, p));
    std::vector<std::pair<std::string, OptimalBroadcastOptions>> variants(7);
    variants[0].first = "all techniques";
    variants[1].first = "no exchange rule (nor composition filter)";
    variants[1].second.exchange_rule = false;
    variants[2].first = "no fastest-first (Thm 4.3)";
    variants[2].second.fastest_first = false;
    variants[3].first = "no bounds (relaxation, fluid, partial)";
    variants[3].second.relaxation_bound = false;
    variants[4].first = "no memo";
    variants[4].second.memoize = false;
    variants[5].first = "no target passes (plain B&B from FNF)";
    variants[5].second.iterative_targets = false;
    variants[6].first = "no FNF incumbent";
    variants[6].second.fnf_incumbent = false;
    for (const auto& [name, variant] : variants) {
      Measure measure;
      for (const Cluster& cluster : instances) {
        const ProcessorIndex source = cluster.fastest_processor();
        std::vector<ProcessorIndex> receivers;
        for (ProcessorIndex q = 0; q < cluster.size(); ++q) {
          if (q != source) receivers.push_back(q);
        }
        SearchLimits limits;
        limits.time_limit_seconds = limit;
        auto started = Clock::now();
        BroadcastSearchResult result = optimal_broadcast(cluster, source, receivers, limits,
                                                         std::numeric_limits<double>::infinity(), variant);
        measure.add(result, std::chrono::duration<double>(Clock::now() - started).count());
      }
      ablation.rows.push_back({name, "5", std::to_string(p), std::to_string(clusters), number(measure.average_nodes()),
                               number(measure.average_seconds(), "{:.3e}"), number(measure.max_seconds, "{:.3e}"),
                               std::to_string(measure.unfinished), number(limit)});
      options.progress(fmt::format("ablation, {} (5 classes in [1,4), P = {}): {:.0f} nodes, {:.3g} s avg, {} unfinished",
                                   name, p, measure.average_nodes(), measure.average_seconds(), measure.unfinished));
    }
  }

  ExperimentResult result;
  const std::string ablation_csv = options.out_dir + "/bcast-search-ablation.csv";
  ablation.write(ablation_csv);
  const std::string csv = options.out_dir + "/bcast-search.csv";
  const std::string nodes_svg = options.out_dir + "/bcast-search.svg";
  const std::string time_svg = options.out_dir + "/bcast-search-time.svg";
  table.write(csv);
  write_line_plot_svg(nodes_svg, nodes_plot);
  write_line_plot_svg(time_svg, time_plot);
  result.files = {csv, nodes_svg, time_svg, ablation_csv};
  result.summary = summary;
  return result;
}

void register_bcast_search_experiment(std::vector<Experiment>& list) {
  list.push_back({"bcast-search",
                  "optimal broadcast: our branch-and-bound vs Liu 2002's generic one (nodes, seconds, N), 3 and 5 "
                  "classes, P up to 5000, and an ablation of the techniques",
                  "Liu 2002 sec. 5, Table 1", run_bcast_search});
}

}  // namespace hetcoll
