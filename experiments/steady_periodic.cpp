// Experiments `steady-tiers` and `steady-paper` — Legrand, Marchal, Robert
// 2003: series of scatters, gossips and reduces on Tiers-like platforms
// (sec. 4.7), and the paper's own examples and propositions.
//
// steady-tiers: Tiers-like platforms of 30 (three seeds) and 65 nodes (one)
// (gen/tiers_platform.h)
// whose LAN hosts take part and every other node only forwards, as in
// sec. 4.7. Time unit: the millisecond. A message (a scattered block, a
// gossip message, a partial result v[k,m]) is 1 MB, so an edge costs
// 1 MB / its bandwidth, rounded to 0.01 ms; a reduction task on participant
// P_i takes 10 / s_i ms with s_i drawn uniformly from 1..10 (the paper's
// "10 / s_i"). Operations: a scatter from the first LAN host to the other
// LAN hosts, a gossip among all LAN hosts, a reduce of the first
// `reduce_participants` LAN hosts to the first. For each: the exact optimum
// TP with its certificate, period size, trees, matchings, LP size and times;
// then the fixed-period plan (sec. 4.6, Prop. 4) with T_fixed = 100 x trees
// / TP rounded up, so that at most 1% is lost, and the simulator running
// K = 1..256 of its periods' worth of operations with start-up and clean-up:
// the measured throughput over TP tends to the fixed plan's (Props. 1, 3).
// Every plan goes through verify_periodic_plan; a failure stops the run.
//
// steady-paper: the toy scatter of sec. 3.2 (Fig. 2: TP = 1/2; the OCR
// lacks the edge costs, so hetcoll's example with the same shape — a source,
// two relays, two targets, several routes per target — stands in for it),
// split and whole-message periods (Fig. 4(a), 4(b)), the three-processor
// reduce of Fig. 6 (TP = 1), their simulated throughput against K
// (Props. 1, 3), and the throughput of the fixed-period approximation
// against T_fixed beside the bound TP - card(TREES) / T_fixed (Prop. 4) on
// the Tiers reduce.
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "experiments/experiments_list.h"
#include "hetcoll/gen/tiers_platform.h"
#include "hetcoll/steady/paper_platforms.h"
#include "hetcoll/model/participants.h"
#include "hetcoll/sim/periodic_simulator.h"
#include "hetcoll/steady/steady_planner.h"
#include "hetcoll/verify/verify_periodic.h"
#include "hetcoll/viz/line_plot_svg.h"
#include "hetcoll/core/elapsed.h"

namespace hetcoll {
namespace {

using Clock = std::chrono::steady_clock;

std::size_t digits(const BigInteger& value) { return to_string(value).size(); }

// The Tiers platform in milliseconds with fixed costs, compute speeds on the
// LAN hosts, and the LAN hosts as the only participants.
struct TiersCase {
  Platform platform;
  std::vector<ProcessorIndex> lan_hosts;
};

TiersCase tiers_case(int nodes, std::uint64_t seed) {
  auto options = tiers_preset(nodes);
  options.seed = seed;
  const Platform generated = generate_tiers_platform(options);
  std::mt19937_64 random(seed * 7919 + 17);
  std::uniform_int_distribution<int> speed(1, 10);
  std::vector<PlatformNode> list = generated.nodes();
  std::vector<std::string> lan_ids;
  for (auto& node : list) {
    if (node.id.rfind("lan", 0) == 0) {
      node.speed = speed(random) / 10.0;  // tasks per ms: a task takes 10 / s ms
      lan_ids.push_back(node.id);
    }
  }
  std::vector<PlatformEdge> edges;
  for (const auto& edge : generated.edges()) {
    PlatformEdge copy;
    copy.from = edge.from;
    copy.to = edge.to;
    copy.cost = std::max(0.01, std::round(edge.message_time(1e6) * 1e5) / 100.0);  // ms, 2 decimals
    edges.push_back(copy);
  }
  TiersCase result{with_participants(Platform(list, edges, fmt::format("tiers-{}-{}", nodes, seed)), lan_ids),
                   {}};
  for (const auto& id : lan_ids) result.lan_hosts.push_back(*result.platform.find(id));
  return result;
}

void require_valid(const Platform& platform, const PeriodicPlan& plan, const std::string& what) {
  const auto report = verify_periodic_plan(platform, plan);
  if (!report.valid || !report.certificate_checked) {
    throw std::runtime_error(fmt::format("{}: the plan failed verification:\n{}", what, report.summary()));
  }
}

// Simulated throughput / TP after K = multiple x operations_per_period.
std::vector<std::pair<double, double>> convergence(const Platform& platform, const PeriodicPlan& plan,
                                                   const Rational& optimum, const std::vector<int>& multiples) {
  std::vector<std::pair<double, double>> points;
  for (int multiple : multiples) {
    PeriodicSimulationOptions options;
    options.operations = static_cast<std::uint64_t>(multiple) * plan.operations_per_period.get_ui();
    const auto result = simulate_periodic_plan(platform, plan, options);
    if (!result.finished || result.completed != options.operations) {
      throw std::runtime_error(fmt::format("simulation of {} operations did not finish", options.operations));
    }
    points.emplace_back(multiple, to_double(result.measured_throughput / optimum));
  }
  return points;
}

// The smallest T_fixed with trees / T_fixed <= TP / 100 (Prop. 4: <= 1% lost).
BigInteger one_percent_period(const PeriodicPlan& plan) {
  Rational bound = Rational(static_cast<long>(100 * std::max<std::size_t>(plan.trees.size(), 1))) / plan.throughput;
  BigInteger period = bound.get_num() / bound.get_den();
  if (period * bound.get_den() < bound.get_num()) period += 1;
  return period;
}

std::string operation_label(SteadyOperation operation, int nodes) {
  return fmt::format("{} ({} nodes)", to_string(operation), nodes);
}

ExperimentResult run_steady_tiers(const ExperimentOptions& options) {
  const bool quick = options.quick;
  const std::vector<int> sizes = quick ? std::vector<int>{30} : std::vector<int>{30, 65};
  const std::vector<int> multiples = quick ? std::vector<int>{1, 4, 16} : std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256};
  CsvTable table;
  table.columns = {"nodes",         "seed",          "operation",         "participants",     "throughput",
                   "throughput_value", "period_digits", "operations_per_period_digits", "trees", "matchings",
                   "lp_rows",       "lp_columns",    "lp_nonzeros",       "lp_method",        "lp_seconds",
                   "lp_floating_seconds", "lp_exact_seconds", "schedule_seconds", "fixed_period", "fixed_over_tp",
                   "prop4_lower_bound", "simulated_periods", "simulated_over_tp"};
  PlotSpec plot;
  plot.title = "Tiers platforms: simulated throughput of the fixed-period plan / optimal TP";
  plot.x_label = "operations simulated, in periods' worth (K / operations per period)";
  plot.y_label = "measured throughput / TP (start-up and clean-up included)";
  plot.log_x = true;
  PlotSpec timing;
  timing.title = "Tiers platforms: exact LP solve time (Clp + exact basis + certificate)";
  timing.x_label = "platform nodes";
  timing.y_label = "seconds (mean over platforms)";
  timing.log_y = true;
  std::map<std::string, std::map<int, std::vector<double>>> lp_times;

  std::string summary = fmt::format("{:>5} {:>5} {:>8} {:>4} {:>12} {:>7} {:>6} {:>6} {:>8} {:>10} {:>10}\n", "nodes",
                                    "seed", "op", "N", "TP/ms", "period", "trees", "match", "LP s", "fixed/TP",
                                    "sim/TP");
  const auto start = Clock::now();
  for (int nodes : sizes) {
    // 65 nodes: one platform (its gossip of 45 hosts takes minutes: two LPs
    // and a long simulation).
    const int seeds = quick ? 1 : (nodes <= 30 ? 3 : 1);
    for (int k = 0; k < seeds; ++k) {
      const std::uint64_t seed = options.seed + 100 + static_cast<std::uint64_t>(k);
      const auto tiers = tiers_case(nodes, seed);
      const auto& lan = tiers.lan_hosts;
      const std::size_t reduce_count = std::min<std::size_t>(lan.size(), quick ? 6 : (nodes <= 30 ? 12 : 10));
      for (auto operation : {SteadyOperation::scatter, SteadyOperation::gossip, SteadyOperation::reduce}) {
        const auto plan_with = [&](const SteadyOptions& steady) {
          switch (operation) {
            case SteadyOperation::scatter:
              return plan_steady_scatter(tiers.platform, lan.front(), {lan.begin() + 1, lan.end()}, steady);
            case SteadyOperation::gossip: return plan_steady_gossip(tiers.platform, lan, lan, steady);
            default: {
              const std::vector<ProcessorIndex> participants(lan.begin(),
                                                             lan.begin() + static_cast<long>(reduce_count));
              return plan_steady_reduce(tiers.platform, lan.front(), participants, steady);
            }
          }
        };
        const std::string what = fmt::format("{} on {}", to_string(operation), tiers.platform.id(0));
        const auto exact = plan_with({});
        require_valid(tiers.platform, exact, what);
        SteadyOptions fixed_options;
        fixed_options.period_max = one_percent_period(exact);
        const auto fixed = plan_with(fixed_options);
        require_valid(tiers.platform, fixed, what + " (fixed period)");
        const auto points = convergence(tiers.platform, fixed, exact.throughput, multiples);
        const Rational fixed_ratio = fixed.throughput / exact.throughput;
        const Rational prop4 =
            (exact.throughput - Rational(static_cast<long>(exact.trees.size())) / Rational(*fixed_options.period_max)) /
            exact.throughput;
        const std::size_t participants = operation == SteadyOperation::reduce ? reduce_count : lan.size();
        for (const auto& [multiple, ratio] : points) {
          table.rows.push_back({fmt::format("{}", nodes), fmt::format("{}", seed), to_string(operation),
                                fmt::format("{}", participants), to_string(exact.throughput),
                                fmt::format("{:.9g}", to_double(exact.throughput)),
                                fmt::format("{}", digits(exact.period)),
                                fmt::format("{}", digits(exact.operations_per_period)),
                                fmt::format("{}", exact.trees.size()), fmt::format("{}", exact.steady_stats.matchings),
                                fmt::format("{}", exact.steady_stats.lp_rows), fmt::format("{}", exact.steady_stats.lp_columns),
                                fmt::format("{}", exact.steady_stats.lp_nonzeros), exact.steady_stats.lp_method,
                                fmt::format("{:.4f}", exact.steady_stats.lp_seconds),
                                fmt::format("{:.4f}", exact.steady_stats.lp_floating_seconds),
                                fmt::format("{:.4f}", exact.steady_stats.lp_exact_seconds),
                                fmt::format("{:.4f}", exact.steady_stats.schedule_seconds),
                                to_string(*fixed_options.period_max), fmt::format("{:.6f}", to_double(fixed_ratio)),
                                fmt::format("{:.6f}", to_double(prop4)), fmt::format("{}", multiple),
                                fmt::format("{:.6f}", ratio)});
        }
        lp_times[to_string(operation)][nodes].push_back(exact.steady_stats.lp_seconds);
        if (k == 0) {
          PlotSeries series;
          series.name = operation_label(operation, nodes);
          series.dashed = nodes > 30;
          for (const auto& [multiple, ratio] : points) {
            series.x.push_back(multiple);
            series.y.push_back(ratio);
          }
          plot.series.push_back(std::move(series));
        }
        summary += fmt::format("{:>5} {:>5} {:>8} {:>4} {:>12.6g} {:>6}d {:>6} {:>6} {:>8.3f} {:>10.4f} {:>10.4f}\n",
                               nodes, seed, to_string(operation), participants, to_double(exact.throughput),
                               digits(exact.period), exact.trees.size(), exact.steady_stats.matchings,
                               exact.steady_stats.lp_seconds, to_double(fixed_ratio), points.back().second);
        options.progress(fmt::format("{} nodes, seed {}: {} done, {:.1f} s", nodes, seed, to_string(operation),
                                     seconds_since(start)));
      }
    }
  }
  for (const auto& [operation, by_size] : lp_times) {
    PlotSeries series;
    series.name = operation == "reduce" ? std::string(quick ? "reduce (6 hosts)" : "reduce (12 hosts; 10 at 65 nodes)")
                                        : operation + " (all LAN hosts)";
    for (const auto& [nodes, values] : by_size) {
      double sum = 0;
      for (double v : values) sum += v;
      series.x.push_back(nodes);
      series.y.push_back(sum / static_cast<double>(values.size()));
    }
    timing.series.push_back(std::move(series));
  }
  const std::string base = options.out_dir + "/steady-tiers";
  table.write(base + ".csv");
  write_line_plot_svg(base + ".svg", plot);
  write_line_plot_svg(base + "-lp-time.svg", timing);
  ExperimentResult result;
  result.files = {base + ".csv", base + ".svg", base + "-lp-time.svg"};
  result.summary = summary + "(period: digits of the exact period; fixed/TP: the Prop. 4 plan with T_fixed = "
                             "100 x trees / TP; sim/TP: simulated over the largest K)\n";
  return result;
}

PlatformNode host(const std::string& id, std::optional<double> speed = std::nullopt, bool router = false) {
  return router ? PlatformNode::forwarder(id) : PlatformNode::host(id, speed);
}

PlatformEdge edge(ProcessorIndex from, ProcessorIndex to, double cost) { return PlatformEdge::with_cost(from, to, cost); }

// The shape of Fig. 2 (examples/steady/scatter.json in the repository).
Platform toy_scatter_platform() {
  return Platform({host("S"), host("A", std::nullopt, true), host("B", std::nullopt, true), host("P0"), host("P1")},
                  {edge(0, 1, 1), edge(0, 2, 1), edge(0, 4, 3), edge(1, 3, 2), edge(2, 3, 1), edge(2, 4, 2),
                   edge(1, 2, 1)},
                  "toy scatter");
}

ExperimentResult run_steady_paper(const ExperimentOptions& options) {
  const bool quick = options.quick;
  CsvTable table;
  table.columns = {"part", "case", "x", "value", "paper", "note"};
  std::string summary;
  const auto row = [&](const std::string& part, const std::string& name, const std::string& x,
                       const std::string& value, const std::string& paper, const std::string& note) {
    table.rows.push_back({part, name, x, value, paper, note});
  };

  // Sec. 3.2-3.3, Figs. 2-4: the toy scatter, split and whole messages.
  const Platform toy = toy_scatter_platform();
  const auto toy_plan = plan_steady_scatter(toy, 0, {});
  require_valid(toy, toy_plan, "toy scatter");
  SteadyOptions whole;
  whole.split_messages = false;
  const auto toy_whole = plan_steady_scatter(toy, 0, {}, whole);
  require_valid(toy, toy_whole, "toy scatter, whole messages");
  row("fig2", "toy scatter", "", to_string(toy_plan.throughput), "1/2", "TP, operations per time unit");
  row("fig4", "period, split messages (Fig. 4(a))", "", to_string(toy_plan.period), "12",
      fmt::format("{} matchings; the paper's costs are not in its text", toy_plan.steady_stats.matchings));
  row("fig4", "period, whole messages (Fig. 4(b))", "", to_string(toy_whole.period), "48",
      "the split period times the lcm of the fractional counts' denominators");
  summary += fmt::format("Fig. 2 toy scatter: TP {} (paper 1/2); period {} with split messages, {} with whole "
                         "messages (paper: 12 and 48 on its own costs)\n",
                         to_string(toy_plan.throughput), to_string(toy_plan.period), to_string(toy_whole.period));

  // Sec. 4, Fig. 6: the three-processor reduce.
  const Platform fig6 = legrand_marchal_robert_figure6_platform();
  const auto fig6_plan = plan_steady_reduce(fig6, 0, {});
  require_valid(fig6, fig6_plan, "Fig. 6 reduce");
  row("fig6", "three-processor reduce", "", to_string(fig6_plan.throughput), "1", "TP");
  row("fig6", "period", "", to_string(fig6_plan.period), "3", "the paper's T (its LP solution; ours is one optimum)");
  row("fig7", "reduction trees", "", fmt::format("{}", fig6_plan.trees.size()), "2",
      "trees extracted by FIND_TREE/EXTRACT_TREES (Fig. 8)");
  summary += fmt::format("Fig. 6 reduce: TP {} (paper 1), period {} (paper 3), {} reduction trees (paper 2)\n",
                         to_string(fig6_plan.throughput), to_string(fig6_plan.period), fig6_plan.trees.size());

  // Props. 1 and 3: simulated throughput / TP against K.
  PlotSpec convergence_plot;
  convergence_plot.title = "Props. 1 and 3: K operations with start-up and clean-up, throughput / TP";
  convergence_plot.x_label = "operations K";
  convergence_plot.y_label = "K / makespan / TP";
  convergence_plot.log_x = true;
  const std::vector<int> multiples =
      quick ? std::vector<int>{1, 10, 100} : std::vector<int>{1, 3, 10, 30, 100, 300, 1000, 3000};
  for (const auto& [name, platform, plan] :
       {std::tuple<std::string, const Platform*, const PeriodicPlan*>{"toy scatter (Fig. 2)", &toy, &toy_plan},
        {"toy scatter, whole messages (Fig. 4(b))", &toy, &toy_whole},
        {"three-processor reduce (Fig. 6)", &fig6, &fig6_plan}}) {
    PlotSeries series;
    series.name = name;
    for (const auto& [multiple, ratio] : convergence(*platform, *plan, plan->throughput, multiples)) {
      const double k = multiple * to_double(Rational(plan->operations_per_period));
      series.x.push_back(k);
      series.y.push_back(ratio);
      row("props1-3", name, fmt::format("{}", k), fmt::format("{:.6f}", ratio), "-> 1", "simulated / TP");
    }
    summary += fmt::format("{}: simulated / TP = {:.4f} at K = {:g}\n", name, series.y.back(), series.x.back());
    convergence_plot.series.push_back(std::move(series));
  }

  // Prop. 4: the fixed-period approximation on a Tiers reduce (sec. 4.7).
  const auto tiers = tiers_case(30, options.seed + 100);
  const std::size_t count = std::min<std::size_t>(tiers.lan_hosts.size(), quick ? 6 : 12);
  const std::vector<ProcessorIndex> participants(tiers.lan_hosts.begin(),
                                                 tiers.lan_hosts.begin() + static_cast<long>(count));
  const auto exact = plan_steady_reduce(tiers.platform, participants.front(), participants);
  require_valid(tiers.platform, exact, "Tiers reduce");
  summary += fmt::format("sec. 4.7, Tiers 30 nodes, reduce of {} LAN hosts: TP = {:.6g} per ms, {} reduction trees, "
                         "period of {} digits\n",
                         count, to_double(exact.throughput), exact.trees.size(), digits(exact.period));
  row("sec4.7", fmt::format("Tiers 30-node reduce, {} LAN hosts", count), "", fmt::format("{:.9g}", to_double(exact.throughput)),
      "2/9 on the paper's platform", fmt::format("{} trees, period of {} digits", exact.trees.size(), digits(exact.period)));
  PlotSpec prop4;
  prop4.title = fmt::format("Prop. 4: fixed period T, Tiers 30-node reduce of {} LAN hosts ({} trees)", count,
                            exact.trees.size());
  prop4.x_label = "T_fixed (ms)";
  prop4.y_label = "throughput / TP";
  prop4.log_x = true;
  PlotSeries achieved{"fixed-period plan (verified)", {}, {}, false, true};
  PlotSeries bound{"Prop. 4 guarantee: 1 - trees / (T TP)", {}, {}, true, false};
  const BigInteger first = one_percent_period(exact) / 100 + 1;
  for (int factor = 1; factor <= (quick ? 100 : 10000); factor *= (quick ? 10 : 3)) {
    SteadyOptions fixed;
    fixed.period_max = first * factor;
    PeriodicPlan plan;
    try {
      plan = plan_steady_reduce(tiers.platform, participants.front(), participants, fixed);
    } catch (const InputError&) {
      continue;  // too short a period to keep one operation
    }
    require_valid(tiers.platform, plan, "Tiers reduce, fixed period");
    const double t = to_double(Rational(*fixed.period_max));
    const double ratio = to_double(plan.throughput / exact.throughput);
    const double guarantee = 1 - static_cast<double>(exact.trees.size()) / (t * to_double(exact.throughput));
    achieved.x.push_back(t);
    achieved.y.push_back(ratio);
    bound.x.push_back(t);
    bound.y.push_back(std::max(0.0, guarantee));
    row("prop4", "Tiers reduce", fmt::format("{:g}", t), fmt::format("{:.6f}", ratio), fmt::format("{:.6f}", guarantee),
        "throughput / TP; paper column: the guaranteed lower bound");
  }
  prop4.series = {achieved, bound};

  const std::string base = options.out_dir + "/steady-paper";
  table.write(base + ".csv");
  write_line_plot_svg(base + ".svg", convergence_plot);
  write_line_plot_svg(base + "-prop4.svg", prop4);
  ExperimentResult result;
  result.files = {base + ".csv", base + ".svg", base + "-prop4.svg"};
  result.summary = summary;
  return result;
}

}  // namespace

void register_steady_periodic_experiments(std::vector<Experiment>& list) {
  list.push_back({"steady-tiers",
                  "Series of scatters, gossips and reduces on Tiers-like platforms (LAN hosts take part, the rest "
                  "forward): exact TP, period, trees, matchings, LP size and time, fixed-period plans simulated",
                  "Legrand, Marchal, Robert 2003, sec. 4.7", run_steady_tiers});
  list.push_back({"steady-paper",
                  "The toy scatter (Figs. 2-4), the three-processor reduce (Fig. 6), convergence of simulated "
                  "throughput (Props. 1, 3) and the fixed-period approximation (Prop. 4)",
                  "Legrand, Marchal, Robert 2003, Figs. 2, 4, 6, Props. 1, 3, 4", run_steady_paper});
}

}  // namespace hetcoll
