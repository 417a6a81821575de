#include "hetcoll/report/steady_broadcast_text.h"

#include <algorithm>

#include <fmt/format.h>

#include "hetcoll/core/rational.h"
#include "hetcoll/core/units.h"
#include "hetcoll/model/element_names.h"
#include "hetcoll/report/broadcast_tree_text.h"

namespace hetcoll {

namespace {

// An exact number as text: the fraction when it is short enough to read.
std::string readable_exact(const Rational& value, const std::string& json_request) {
  std::string exact = to_string(value);
  if (exact.size() <= 24) return fmt::format("{} = {:.6g}", exact, to_double(value));
  return fmt::format("{:.6g} (exact fraction of {} characters in {})", to_double(value), exact.size(), json_request);
}

}  // namespace

std::string steady_broadcast_summary(const Platform& platform, const SteadyBroadcastResult& result,
                                     const SteadyBroadcastTextOptions& options) {
  const SsbSolution& solution = result.optimum;
  const MultiTreePacking& packing = result.packing;
  const PeriodicPlan& schedule = result.schedule;
  const std::string failure = result.failure();
  std::string text;
  const std::string per_unit = time_unit_name(platform.time_unit(), false);
  text += fmt::format("pipelined broadcast from {}: multi-tree optimum (SSB LP, one-port)\n", platform.id(result.source));
  text += fmt::format("throughput: {} slices per {} (period {} per slice)\n",
                      readable_exact(solution.throughput, options.json_request), per_unit,
                      time_text(1 / solution.throughput_value(), platform.time_unit()));
  text += fmt::format("proof: dual certificate with {} cut rows, checked exactly; every target receives TP by "
                      "max-flow under the edge rates: {}\n",
                      solution.targets_in_lp, failure.empty() ? "valid" : "INVALID: " + failure);
  text += fmt::format("LP: {} rows x {} columns, {} floating rounds of cut generation then {} exact solve{}, {}, "
                      "{:.3f} s\n",
                      solution.lp_rows, solution.lp_columns, solution.floating_rounds, solution.rounds,
                      solution.rounds == 1 ? "" : "s", solution.lp_method, solution.seconds);
  // A period in time units: whole and short as it is, else ~its value.
  auto period_text = [&](const BigInteger& value) {
    const std::string digits = value.get_str();
    const std::string unit = time_unit_name(platform.time_unit(), value != 1);
    if (digits.size() > 300) return fmt::format("an integer of {} digits, {}", digits.size(), unit);
    if (digits.size() > 15) return fmt::format("~{:.6g} {} (an integer of {} digits)", to_double(Rational(value)), unit,
                                               digits.size());
    return digits + " " + unit;
  };
  const std::string weights_share =
      sgn(solution.throughput) ? fmt::format("{:.{}f}%", 100 * to_double(packing.total_weight / solution.throughput),
                                             packing.reaches_optimum ? 4 : 10)
                               : "100%";
  const std::string packing_text =
      fmt::format("multi-tree schedule: {} trees, weights sum to {:.6g} = {} of the LP bound ({})", packing.trees.size(),
                  to_double(packing.total_weight), weights_share,
                  packing.reaches_optimum ? "exactly the optimum" : "SHORT of the optimum");
  if (schedule.exact_period && schedule.loss_bound) {
    // The practical schedule (Prop. 4): a short period, the throughput it gives up.
    const Rational lost = solution.throughput - schedule.throughput;
    text += packing_text + fmt::format(", built in {:.3f} s\n", packing.seconds);
    text += fmt::format("practical schedule: period {} in {} one-port matchings, {} slices per period = {:.6g} slices "
                        "per {} ({:.2f}% of the optimum)\n",
                        period_text(schedule.period), schedule.slots.size(), schedule.operations_per_period.get_str(),
                        to_double(schedule.throughput), per_unit,
                        sgn(solution.throughput) ? 100 * to_double(schedule.throughput / solution.throughput) : 100.0);
    text += fmt::format("lost: {:.6g} slices per {} ({:.4f}%), within Prop. 4's bound {:.6g} = {} trees / {} "
                        "(Legrand, Marchal, Robert 2003); the exact period, {}, reaches the optimum ({} prints "
                        "it)\n",
                        to_double(lost), per_unit,
                        sgn(solution.throughput) ? 100 * to_double(lost / solution.throughput) : 0.0,
                        to_double(*schedule.loss_bound), packing.trees.size(), period_text(schedule.period),
                        period_text(*schedule.exact_period), options.exact_request);
  } else {
    text += packing_text + fmt::format("; one period of {} in {} one-port matchings, built in {:.3f} s\n",
                                       period_text(schedule.period), schedule.slots.size(), packing.seconds);
  }
  if (options.brief) return text;
  std::vector<const WeightedBroadcastTree*> by_weight;
  for (const auto& tree : packing.trees) by_weight.push_back(&tree);
  std::stable_sort(by_weight.begin(), by_weight.end(),
                   [](const auto* a, const auto* b) { return a->weight > b->weight; });
  std::string weights;
  for (size_t i = 0; i < by_weight.size() && i < 8; ++i) {
    weights += fmt::format("{}{:.4g}", i ? ", " : "", to_double(by_weight[i]->weight));
  }
  if (by_weight.size() > 8) weights += fmt::format(", ... ({} more)", by_weight.size() - 8);
  text += fmt::format("tree weights (slices per {}, heaviest first): {}\n", per_unit, weights);
  // Port utilisation: the fraction of time each port is busy at the optimum
  // (rates x slice times); the LP's one-port rows cap it at 100%.
  struct PortUse {
    ProcessorIndex node;
    const char* direction;
    double busy;
  };
  std::vector<double> sending(static_cast<size_t>(platform.size()), 0.0), receiving(sending);
  for (size_t e = 0; e < platform.edges().size(); ++e) {
    double busy = to_double(solution.edge_rates[e]) * result.slice_times[e];
    sending[static_cast<size_t>(platform.edges()[e].from)] += busy;
    receiving[static_cast<size_t>(platform.edges()[e].to)] += busy;
  }
  std::vector<PortUse> ports;
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    if (platform.node(v).ports == PortModel::unlimited) continue;
    // A link's traffic enters and leaves it at once (the edges leaving a
    // link are free wires): one entry, the link's own.
    if (platform.node(v).kind != NodeKind::link) ports.push_back({v, "sends", sending[static_cast<size_t>(v)]});
    ports.push_back({v, platform.node(v).kind == NodeKind::link ? "" : "receives", receiving[static_cast<size_t>(v)]});
  }
  std::stable_sort(ports.begin(), ports.end(), [](const PortUse& a, const PortUse& b) { return a.busy > b.busy; });
  size_t saturated = static_cast<size_t>(
      std::count_if(ports.begin(), ports.end(), [](const PortUse& p) { return p.busy > 1 - 1e-9; }));
  text += fmt::format("busiest ports ({} saturated, busy 100% of the time):", saturated);
  for (size_t i = 0; i < ports.size() && i < 6; ++i) {
    const std::string direction = *ports[i].direction ? std::string(" ") + ports[i].direction : std::string();
    text += fmt::format("{} {}{} {:.1f}%", i ? "," : "", describe_element(platform, ports[i].node), direction,
                        100 * ports[i].busy);
  }
  text += "\n";
  if (!options.detail) {
    text += fmt::format("(every tree's edges and every edge's rate: {}, or {})\n", options.detail_request,
                        options.json_request);
    return text;
  }
  for (size_t i = 0; i < packing.trees.size(); ++i) {
    text += fmt::format("  tree {}: weight {:.6g} (each host under the host that sends to it):\n", i,
                        to_double(packing.trees[i].weight));
    const std::string hosts = broadcast_tree_hosts_text(platform, packing.trees[i].tree);
    for (std::size_t start = 0; start < hosts.size();) {
      const std::size_t end = hosts.find('\n', start);
      text += "    " + hosts.substr(start, end - start + 1);
      start = end + 1;
    }
  }
  text += fmt::format("slices per {} on each used edge:\n", per_unit);
  for (size_t e = 0; e < platform.edges().size(); ++e) {
    if (sgn(solution.edge_rates[e]) == 0) continue;
    const auto& edge = platform.edges()[e];
    text += fmt::format("  {} -> {}: {:.6g}\n", element_label(platform, edge.from), element_label(platform, edge.to),
                        to_double(solution.edge_rates[e]));
  }
  return text;
}

std::string latency_aware_choice_text(const LatencyAwareChoice& choice) {
  const auto& single = *choice.single_tree.makespan;
  const auto& multi = choice.multi_tree;
  // Message sizes apply to latency/bandwidth edges: times are in seconds.
  std::string text = fmt::format("message of {}, predicted makespans (start-up + steady state):\n",
                                 byte_size_text(choice.message_size));
  text += fmt::format("  one tree ({}): {:.6g} s (slices of {:.6g} bytes x {}, period {:.6g} s, first slice {:.6g} s)\n",
                      choice.single_tree.algorithm, single.makespan, single.slice_size, single.slices, single.period,
                      single.first_slice);
  if (multi.rounds.trees_used == 1) {
    text += fmt::format("  multi-tree packing, its heaviest tree alone (fewer slices than it takes to use "
                        "two trees well): {:.6g} s (slices of {:.6g} bytes x {}, period {:.6g} s)\n",
                        multi.makespan, multi.slice_size, multi.slices,
                        multi.rounds.round_length / multi.rounds.slices_per_round);
  } else {
    text += fmt::format("  multi-tree: {:.6g} s (slices of {:.6g} bytes x {}, rounds of {} slices over {} of the "
                        "{} trees, each round {:.6g} s, depth {} rounds, {:.6g} slices per s)\n",
                        multi.makespan, multi.slice_size, multi.slices, multi.rounds.slices_per_round,
                        multi.rounds.trees_used, choice.packing.trees.size(), multi.rounds.round_length,
                        multi.rounds.depth, multi.rounds.throughput());
  }
  double gain = choice.single_tree.makespan->makespan / multi.makespan;
  text += choice.multi_tree_chosen
              ? fmt::format("choice: {}, {:.3g}x faster than the {} tree\n", choice.chosen_name(), gain,
                            choice.single_tree.algorithm)
              : fmt::format("choice: {}; the multi-tree schedule's start-up costs more than its "
                            "throughput gains ({:.3g}x the one tree's makespan)\n",
                            choice.chosen_name(), 1 / gain);
  return text;
}

}  // namespace hetcoll
