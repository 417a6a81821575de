#include "hetcoll/steady/steady_planner.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/core/listed_once.h"
#include "hetcoll/steady/flow_paths.h"
#include "hetcoll/steady/periodic_schedule.h"
#include "hetcoll/steady/personal_path_generation.h"
#include "hetcoll/steady/reduce_lp.h"
#include "hetcoll/steady/reduction_trees.h"
#include "hetcoll/core/elapsed.h"

namespace hetcoll {

namespace {

// Columns of the per-type LP above which it is refused (a 2,000-node star's
// 8 million columns ran out of memory).
constexpr double kMaxPerTypeColumns = 2e6;

void check_period_max(const SteadyOptions& options) {
  if (options.period_max && *options.period_max < 1) {
    throw InputError("period_max: must be a whole number >= 1, got " + options.period_max->get_str());
  }
  if (options.practical_loss && !(*options.practical_loss > 0 && *options.practical_loss < 1)) {
    throw InputError("practical_loss: must be in (0, 1), got " + std::to_string(*options.practical_loss));
  }
}

// The fixed period to use, if any: period_max, else the practical one — the
// smallest of 1, 2, 5, 10, 20, 50, ... with bound_count / T <= loss x TP.
std::optional<BigInteger> fixed_period(const SteadyOptions& options, const Rational& throughput,
                                       std::size_t bound_count) {
  if (options.period_max) return options.period_max;
  if (!options.practical_loss || throughput <= 0) return std::nullopt;
  return practical_period(throughput, bound_count, *options.practical_loss);
}

}  // namespace

BigInteger practical_period(const Rational& throughput, std::size_t bound_count, double loss_fraction) {
  // loss as a rational with a 10^6 denominator (the fraction asked for, to 6 digits).
  const Rational loss = Rational(BigInteger(static_cast<long>(loss_fraction * 1e6 + 0.5))) / Rational(1000000);
  const BigInteger needed = ceil_of(Rational(BigInteger(static_cast<unsigned long>(bound_count))) / (loss * throughput));
  BigInteger decade = 1;
  while (true) {
    for (int step : {1, 2, 5}) {
      const BigInteger period = decade * step;
      if (period >= needed) return period;
    }
    decade *= 10;
  }
}

namespace {

void copy_stats(PeriodicPlan& plan, const LpRunStats& stats) {
  plan.steady_stats.lp_rows = stats.rows;
  plan.steady_stats.lp_columns = stats.columns;
  plan.steady_stats.lp_nonzeros = stats.nonzeros;
  plan.steady_stats.lp_method = stats.method;
  plan.steady_stats.lp_fallback_reason = stats.fallback_reason;
  plan.steady_stats.lp_floating_throughput = stats.floating_objective;
  plan.steady_stats.lp_seconds = stats.seconds;
  plan.steady_stats.lp_floating_seconds = stats.floating_seconds;
  plan.steady_stats.lp_exact_seconds = stats.exact_seconds;
  plan.steady_stats.lp_columns_loaded = stats.columns_loaded;
  plan.steady_stats.lp_generation_rounds = stats.generation_rounds;
}

BigInteger exact_period(const Rational& throughput, const std::vector<Rational>& weights) {
  std::vector<Rational> values = weights;
  values.push_back(throughput);
  return lcm_of_denominators(values);
}

// Step 4 and the bookkeeping shared by every operation: slots from the
// items, scaling for whole messages.
void finish_schedule(PeriodicPlan& plan, const SteadyPlatform& platform, const std::vector<ScheduledItem>& items,
                     bool split_messages) {
  const auto schedule = build_one_port_schedule(platform, plan.period, items, split_messages);
  plan.slots = schedule.slots;
  plan.split_messages = split_messages;
  plan.steady_stats.matchings = schedule.matchings;
  if (schedule.scale != 1) {
    const Rational factor(schedule.scale);
    plan.period = schedule.period;
    plan.operations_per_period *= schedule.scale;
    for (auto& flow : plan.flows) flow.messages *= factor;
    for (auto& computation : plan.computations) computation.count *= factor;
    plan.notes.push_back("whole messages: the period is multiplied by " + schedule.scale.get_str() +
                         " so that no message is split across slots (Legrand, Marchal, Robert 2003 Fig. 4(b))");
  }
}

// The personal operations (scatter, gossip) after the LP.
PeriodicPlan personal_plan(const SteadyPlatform& platform, const PersonalProblem& problem,
                           const PersonalLpResult& lp_result, const SteadyOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const auto& graph = *platform.platform;
  PeriodicPlan plan;
  plan.throughput_bound = lp_result.throughput;
  plan.certificate = lp_result.certificate;
  plan.algorithm = to_string(lp_result.formulation);
  copy_stats(plan, lp_result.stats);
  const Rational& tp = lp_result.throughput;

  // Paths per pair, pairs in PersonalProblem::pairs() order.
  const auto pairs = problem.pairs();
  std::map<std::pair<ProcessorIndex, ProcessorIndex>, std::vector<WeightedPath>> paths_of;
  if (lp_result.formulation == PersonalFormulation::per_type) {
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const auto [s, t] = pairs[k];
      paths_of[pairs[k]] = decompose_flow(graph, s, lp_result.flows[k], {{t, tp}});
    }
  } else {
    for (std::size_t k = 0; k < problem.sources.size(); ++k) {
      const auto s = problem.sources[k];
      std::vector<std::pair<ProcessorIndex, Rational>> demands;
      for (auto t : problem.targets) {
        if (t != s) demands.emplace_back(t, tp);
      }
      for (auto& path : decompose_flow(graph, s, lp_result.flows[k], demands)) {
        paths_of[{s, path.target}].push_back(std::move(path));
      }
    }
  }
  std::vector<Rational> weights;
  std::size_t most_paths = 0;
  for (const auto& [pair, paths] : paths_of) {
    most_paths = std::max(most_paths, paths.size());
    for (const auto& path : paths) weights.push_back(path.weight);
  }
  const BigInteger exact = exact_period(tp, weights);
  const auto fixed = fixed_period(options, tp, most_paths);

  // Per-period count of each path.
  std::map<std::pair<ProcessorIndex, ProcessorIndex>, std::vector<BigInteger>> count_of;
  BigInteger per_period;
  if (fixed && exact > *fixed) {
    const BigInteger& period = *fixed;
    BigInteger smallest = -1;
    for (const auto& pair : pairs) {
      auto& counts = count_of[pair];
      BigInteger total = 0;
      for (const auto& path : paths_of[pair]) {
        counts.push_back(floor_of(path.weight * Rational(period)));
        total += counts.back();
      }
      if (smallest < 0 || total < smallest) smallest = total;
    }
    if (smallest <= 0) {
      throw InputError("period_max: " + period.get_str() + " is too small: rounding the paths down keeps no " +
                       "operation per period (the exact period is " + exact.get_str() + ")");
    }
    for (const auto& pair : pairs) {
      auto& counts = count_of[pair];
      BigInteger excess = -smallest;
      for (const auto& c : counts) excess += c;
      for (auto it = counts.rbegin(); it != counts.rend() && excess > 0; ++it) {
        const BigInteger cut = std::min(*it, excess);
        *it -= cut;
        excess -= cut;
      }
    }
    plan.period = period;
    plan.period_limit = period;
    plan.exact_period = exact;
    plan.loss_bound = Rational(BigInteger(static_cast<unsigned long>(most_paths))) / Rational(period);
    per_period = smallest;
    plan.throughput = Rational(smallest) / Rational(period);
  } else {
    plan.period = exact;
    for (const auto& pair : pairs) {
      for (const auto& path : paths_of[pair]) count_of[pair].push_back(whole_number(path.weight * Rational(exact)));
    }
    per_period = whole_number(tp * Rational(exact));
    plan.throughput = tp;
    if (options.period_max) plan.period_limit = *options.period_max;
  }
  plan.operations_per_period = per_period;

  // Trees (one per path with a positive count), flows and items.
  std::map<std::pair<std::size_t, MessageType>, Rational> flow_total;
  std::vector<std::pair<std::size_t, MessageType>> flow_order;
  for (const auto& pair : pairs) {
    const auto& paths = paths_of[pair];
    const auto& counts = count_of[pair];
    const auto type = MessageType::personal(pair.first, pair.second);
    for (std::size_t p = 0; p < paths.size(); ++p) {
      if (counts[p] == 0) continue;
      WeightedTree tree;
      tree.weight = Rational(counts[p]) / Rational(plan.period);
      for (auto e : paths[p].edges) {
        tree.edges.push_back({graph.edges()[e].from, graph.edges()[e].to, type});
        auto [it, inserted] = flow_total.try_emplace({e, type}, Rational(0));
        if (inserted) flow_order.push_back({e, type});
        it->second += Rational(counts[p]);
      }
      plan.trees.push_back(std::move(tree));
    }
  }
  std::sort(flow_order.begin(), flow_order.end());
  std::vector<ScheduledItem> items;
  for (const auto& key : flow_order) {
    const auto e = key.first;
    plan.flows.push_back({graph.edges()[e].from, graph.edges()[e].to, key.second, flow_total[key]});
    items.push_back({e, key.second, -1, flow_total[key]});
  }
  finish_schedule(plan, platform, items, options.split_messages);
  plan.steady_stats.schedule_seconds = seconds_since(start);
  plan.stats.seconds = plan.steady_stats.lp_seconds + plan.steady_stats.schedule_seconds;
  return plan;
}

std::vector<ProcessorIndex> all_participants_but(const Platform& platform, ProcessorIndex excluded) {
  std::vector<ProcessorIndex> result;
  for (auto v : platform.participants()) {
    if (v != excluded) result.push_back(v);
  }
  return result;
}

// Scatter and gossip share the LP, the paths and the schedule; only their
// defaults and recorded endpoints differ.
PeriodicPlan plan_personal(const Platform& platform, SteadyOperation operation, std::vector<ProcessorIndex> sources,
                           std::vector<ProcessorIndex> targets, PersonalFormulation default_formulation,
                           const SteadyOptions& options) {
  const auto view = make_steady_platform(platform, options.message_size);
  PersonalProblem problem{std::move(sources), targets};
  const auto formulation = options.formulation.value_or(default_formulation);
  std::optional<PersonalLpResult> generated;
  // One source (a scatter): the by-source LP has only |E| columns, solved whole.
  if (formulation == PersonalFormulation::by_source && problem.sources.size() > 1 && !options.personal_full_lp &&
      !options.lp.exact_solver_only) {
    generated = solve_personal_by_path_generation(view, problem);
  }
  const auto lp_result = generated ? std::move(*generated) : solve_personal_lp(view, problem, formulation, options.lp);
  auto plan = personal_plan(view, problem, lp_result, options);
  plan.operation = operation;
  plan.targets = std::move(targets);
  plan.message_size = options.message_size;
  return plan;
}

}  // namespace

PeriodicPlan plan_steady_scatter(const Platform& platform, ProcessorIndex source, std::vector<ProcessorIndex> targets,
                                 const SteadyOptions& options) {
  check_period_max(options);
  if (source < 0 || source >= platform.size()) throw InputError("source: no such node");
  if (targets.empty()) targets = all_participants_but(platform, source);
  require_listed_once(targets, platform.size(), "targets", [&](ProcessorIndex p) { return platform.id(p); });
  // The per-type LP has |T| x |E| columns (a 2,000-node star: 8 million,
  // beyond memory); by source has |E| and the same optimum, so it is the
  // default, and an explicit per-type request above the limit is refused.
  const double per_type_columns = static_cast<double>(targets.size()) * static_cast<double>(platform.edges().size());
  const PersonalFormulation formulation = options.formulation.value_or(PersonalFormulation::by_source);
  if (formulation == PersonalFormulation::per_type && per_type_columns > kMaxPerTypeColumns) {
    throw InputError("formulation", fmt::format("the per-type linear program would have {:.0f} columns ({} targets x "
                                                "{} edges), above the limit of {:.0f}; the by-source formulation "
                                                "has the same optimum with {} columns",
                                                per_type_columns, targets.size(), platform.edges().size(),
                                                kMaxPerTypeColumns, platform.edges().size()));
  }
  auto plan = plan_personal(platform, SteadyOperation::scatter, {source}, std::move(targets), formulation, options);
  plan.root = source;
  return plan;
}

PeriodicPlan plan_steady_gossip(const Platform& platform, std::vector<ProcessorIndex> sources,
                                std::vector<ProcessorIndex> targets, const SteadyOptions& options) {
  check_period_max(options);
  if (sources.empty()) sources = platform.participants();
  if (targets.empty()) targets = platform.participants();
  require_listed_once(sources, platform.size(), "sources", [&](ProcessorIndex p) { return platform.id(p); });
  require_listed_once(targets, platform.size(), "targets", [&](ProcessorIndex p) { return platform.id(p); });
  auto plan = plan_personal(platform, SteadyOperation::gossip, sources, std::move(targets),
                            PersonalFormulation::by_source, options);
  plan.sources = std::move(sources);
  return plan;
}

PeriodicPlan plan_steady_reduce(const Platform& platform, ProcessorIndex root,
                                std::vector<ProcessorIndex> participants, const SteadyOptions& options) {
  check_period_max(options);
  if (participants.empty()) participants = platform.participants();
  require_listed_once(participants, platform.size(), "participants", [&](ProcessorIndex p) { return platform.id(p); });
  const auto view = make_steady_platform(platform, options.message_size);
  const ReduceProblem problem{root, participants};
  const auto lp_result = solve_reduce_lp(view, problem, options.lp, options.reduce_method);
  const auto start = std::chrono::steady_clock::now();
  auto trees = extract_reduction_trees(view, problem, lp_result);

  PeriodicPlan plan;
  plan.operation = SteadyOperation::reduce;
  plan.algorithm = "reduce";
  plan.root = root;
  plan.participants = participants;
  plan.message_size = options.message_size;
  plan.throughput_bound = lp_result.throughput;
  plan.certificate = lp_result.certificate;
  copy_stats(plan, lp_result.stats);

  std::vector<Rational> weights;
  for (const auto& tree : trees) weights.push_back(tree.weight);
  const BigInteger exact = exact_period(lp_result.throughput, weights);
  const auto fixed = fixed_period(options, lp_result.throughput, trees.size());
  std::vector<BigInteger> counts;
  if (fixed && exact > *fixed) {
    const BigInteger& period = *fixed;
    BigInteger total = 0;
    for (const auto& tree : trees) {
      counts.push_back(floor_of(tree.weight * Rational(period)));
      total += counts.back();
    }
    if (total <= 0) {
      throw InputError("period_max: " + period.get_str() + " is too small: rounding the reduction trees down " +
                       "keeps no operation per period (the exact period is " + exact.get_str() + ")");
    }
    plan.period = period;
    plan.period_limit = period;
    plan.exact_period = exact;
    plan.loss_bound = Rational(BigInteger(static_cast<unsigned long>(trees.size()))) / Rational(period);
    plan.operations_per_period = total;
    plan.throughput = Rational(total) / Rational(period);
  } else {
    plan.period = exact;
    for (const auto& tree : trees) counts.push_back(whole_number(tree.weight * Rational(exact)));
    plan.operations_per_period = whole_number(lp_result.throughput * Rational(exact));
    plan.throughput = lp_result.throughput;
    if (options.period_max) plan.period_limit = *options.period_max;
  }

  // Keep the trees that still serve operations; items per (edge, type, tree).
  std::vector<ScheduledItem> items;
  std::map<std::pair<std::size_t, MessageType>, Rational> flow_total;
  std::map<std::tuple<ProcessorIndex, int, int, int>, Rational> task_total;
  for (std::size_t i = 0; i < trees.size(); ++i) {
    if (counts[i] == 0) continue;
    auto tree = trees[i];
    tree.weight = Rational(counts[i]) / Rational(plan.period);
    const int index = static_cast<int>(plan.trees.size());
    const Rational count(counts[i]);
    for (const auto& edge : tree.edges) {
      const auto e = *view.edge_between(edge.from, edge.to);
      items.push_back({e, edge.type, index, count});
      flow_total[{e, edge.type}] += count;
    }
    for (const auto& task : tree.computations) {
      plan.computations.push_back({task.node, task.first, task.split, task.last, count, index});
      task_total[{task.node, task.first, task.split, task.last}] += count;
    }
    plan.trees.push_back(std::move(tree));
  }
  std::sort(items.begin(), items.end(), [](const ScheduledItem& a, const ScheduledItem& b) {
    return std::tie(a.edge, a.type, a.tree) < std::tie(b.edge, b.type, b.tree);
  });
  for (const auto& [key, total] : flow_total) {
    plan.flows.push_back({platform.edges()[key.first].from, platform.edges()[key.first].to, key.second, total});
  }
  finish_schedule(plan, view, items, options.split_messages);
  plan.steady_stats.schedule_seconds = seconds_since(start);
  plan.stats.seconds = plan.steady_stats.lp_seconds + plan.steady_stats.schedule_seconds;
  return plan;
}

}  // namespace hetcoll
