#include "hetcoll/steady/personal_lp.h"

#include <chrono>
#include <map>
#include <stdexcept>

#include "hetcoll/core/error.h"

namespace hetcoll {

const char* to_string(PersonalFormulation formulation) {
  return formulation == PersonalFormulation::per_type ? "personal-per-type" : "personal-by-source";
}

std::vector<std::pair<ProcessorIndex, ProcessorIndex>> PersonalProblem::pairs() const {
  std::vector<std::pair<ProcessorIndex, ProcessorIndex>> result;
  for (auto s : sources) {
    for (auto t : targets) {
      if (s != t) result.emplace_back(s, t);
    }
  }
  return result;
}

void check_personal_problem(const SteadyPlatform& platform, const PersonalProblem& problem) {
  const auto& graph = *platform.platform;
  if (problem.sources.empty()) throw InputError("sources: no source given");
  if (problem.targets.empty()) throw InputError("targets: no target given");
  for (auto s : problem.sources) require_participant(graph, s, "sources");
  for (auto t : problem.targets) require_participant(graph, t, "targets");
  const auto pairs = problem.pairs();
  if (pairs.empty()) throw InputError("targets: every target is also the only source: nothing to send");
  for (auto s : problem.sources) {
    const auto reachable = platform.reachable_from(s, false);
    const auto free = platform.reachable_from(s, true);
    for (auto t : problem.targets) {
      if (t == s) continue;
      if (!reachable[static_cast<std::size_t>(t)]) {
        throw NoSolutionError("target " + graph.id(t) + " cannot be reached from source " + graph.id(s));
      }
      if (free[static_cast<std::size_t>(t)]) {
        throw InputError("platform: messages from " + graph.id(s) + " reach " + graph.id(t) +
                         " over edges that use no port time (cost 0, or between nodes with unlimited ports): "
                         "the steady-state throughput would be unbounded");
      }
    }
  }
}

PortRows add_port_rows(lp::Model& model, const SteadyPlatform& platform) {
  const auto& graph = *platform.platform;
  PortRows rows;
  rows.send_row.assign(static_cast<std::size_t>(graph.size()), -1);
  rows.receive_row.assign(static_cast<std::size_t>(graph.size()), -1);
  for (ProcessorIndex v = 0; v < graph.size(); ++v) {
    if (!platform.one_port[static_cast<std::size_t>(v)]) continue;
    bool sends = false;
    bool receives = false;
    for (auto e : graph.out_edges(v)) sends = sends || (platform.usable[e] && platform.cost[e] > 0);
    for (auto e : graph.in_edges(v)) receives = receives || (platform.usable[e] && platform.cost[e] > 0);
    if (sends) rows.send_row[static_cast<std::size_t>(v)] = model.add_row(lp::RowSense::less_equal, 1, {"send_port", {graph.id(v)}});
    if (receives) {
      rows.receive_row[static_cast<std::size_t>(v)] = model.add_row(lp::RowSense::less_equal, 1, {"receive_port", {graph.id(v)}});
    }
  }
  return rows;
}

void add_edge_usage(lp::Model& model, const SteadyPlatform& platform, const PortRows& ports, int column,
                    std::size_t edge, const Rational& weight) {
  const auto& e = platform.platform->edges()[edge];
  const Rational& cost = platform.cost[edge];
  if (cost == 0) return;
  if (int row = ports.send_row[static_cast<std::size_t>(e.from)]; row >= 0) model.add_entry(row, column, cost * weight);
  if (int row = ports.receive_row[static_cast<std::size_t>(e.to)]; row >= 0) model.add_entry(row, column, cost * weight);
}

lp::Solution solve_certified(const lp::Model& model, const lp::SolveOptions& options, LpRunStats& stats,
                             const char* what) {
  const auto start = std::chrono::steady_clock::now();
  auto solution = lp::solve(model, options);
  return require_certified(model, std::move(solution), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), stats, what);
}

lp::Solution require_certified(const lp::Model& model, lp::Solution solution, double seconds, LpRunStats& stats,
                               const char* what) {
  stats.seconds = seconds;
  stats.rows = model.row_count();
  stats.columns = model.column_count();
  stats.nonzeros = model.nonzero_count();
  stats.method = solution.method;
  stats.fallback_reason = solution.fallback_reason;
  stats.floating_objective = solution.floating_objective;
  stats.floating_seconds = solution.floating_seconds;
  stats.exact_seconds = solution.exact_seconds;
  stats.columns_loaded = solution.columns_loaded;
  stats.generation_rounds = solution.generation_rounds;
  switch (solution.status) {
    case lp::SolveStatus::optimal: return solution;
    case lp::SolveStatus::unbounded:
      throw InputError(std::string("platform: the steady-state ") + what +
                       " throughput is unbounded (some messages travel only over edges that use no port time, "
                       "with free computation)");
    case lp::SolveStatus::infeasible:
      throw std::logic_error(std::string("steady-state ") + what + " linear program reported infeasible");
    case lp::SolveStatus::failed: break;
  }
  throw std::runtime_error(std::string("steady-state ") + what + " linear program: no certified optimum: " +
                           solution.failure);
}

namespace {

// Columns of one commodity over the edges it may use.
struct CommodityColumns {
  std::vector<int> column_of_edge;  // -1: the commodity may not use the edge
};

}  // namespace

PersonalLpResult solve_personal_lp(const SteadyPlatform& platform, const PersonalProblem& problem,
                                   PersonalFormulation formulation, const lp::SolveOptions& options) {
  check_personal_problem(platform, problem);
  const auto& graph = *platform.platform;
  const auto& edges = graph.edges();
  lp::Model model;
  const int throughput = model.add_column(1, "TP");
  const auto ports = add_port_rows(model, platform);

  // Each commodity: its source, and the node it must not leave (per_type: t).
  struct Commodity {
    ProcessorIndex source;
    ProcessorIndex target;  // per_type only
  };
  std::vector<Commodity> commodities;
  const auto pairs = problem.pairs();
  if (formulation == PersonalFormulation::per_type) {
    for (auto [s, t] : pairs) commodities.push_back({s, t});
  } else {
    for (auto s : problem.sources) commodities.push_back({s, kNoProcessor});
  }
  std::vector<char> is_target(static_cast<std::size_t>(graph.size()), 0);
  for (auto t : problem.targets) is_target[static_cast<std::size_t>(t)] = 1;

  std::vector<CommodityColumns> columns(commodities.size());
  for (std::size_t k = 0; k < commodities.size(); ++k) {
    const auto [s, t] = commodities[k];
    auto& of_edge = columns[k].column_of_edge;
    of_edge.assign(edges.size(), -1);
    // Rows of this commodity, created on first use.
    std::map<ProcessorIndex, int> conservation;
    const auto conservation_row = [&](ProcessorIndex v) {
      auto [it, inserted] = conservation.try_emplace(v, -1);
      if (inserted) {
        std::vector<std::string> keys = {graph.id(v), graph.id(s)};
        if (t != kNoProcessor) keys.push_back(graph.id(t));
        it->second = model.add_row(lp::RowSense::equal, 0, {"conservation", keys});
        if (t == kNoProcessor && is_target[static_cast<std::size_t>(v)]) model.add_entry(it->second, throughput, -1);
      }
      return it->second;
    };
    int throughput_row = -1;
    if (t != kNoProcessor) {
      throughput_row = model.add_row(lp::RowSense::equal, 0, {"throughput", {graph.id(s), graph.id(t)}});
      model.add_entry(throughput_row, throughput, -1);
    } else {
      // Every target other than s needs its demand row even if no edge
      // enters it (it would then be unreachable, caught above).
      for (auto target : problem.targets) {
        if (target != s) conservation_row(target);
      }
    }
    for (std::size_t e = 0; e < edges.size(); ++e) {
      const auto from = edges[e].from;
      const auto to = edges[e].to;
      if (!platform.usable[e] || to == s || (t != kNoProcessor && from == t)) continue;
      const std::string name = graph.id(from) + "->" + graph.id(to) + ":" + graph.id(s) +
                               (t != kNoProcessor ? "->" + graph.id(t) : std::string());
      const int column = model.add_column(0, name);
      of_edge[e] = column;
      add_edge_usage(model, platform, ports, column, e);
      if (from != s) model.add_entry(conservation_row(from), column, -1);
      if (t != kNoProcessor && to == t) {
        model.add_entry(throughput_row, column, 1);
      } else {
        model.add_entry(conservation_row(to), column, 1);
      }
    }
  }

  PersonalLpResult result;
  result.formulation = formulation;
  const auto solution = solve_certified(model, options, result.stats, "scatter/gossip");
  result.throughput = solution.primal[static_cast<std::size_t>(throughput)];
  result.certificate = lp::make_certificate(model, solution, to_string(formulation));
  result.flows.resize(commodities.size());
  for (std::size_t k = 0; k < commodities.size(); ++k) {
    const auto& of_edge = columns[k].column_of_edge;
    for (std::size_t e = 0; e < edges.size(); ++e) {
      if (of_edge[e] < 0) continue;
      const auto& rate = solution.primal[static_cast<std::size_t>(of_edge[e])];
      if (rate > 0) result.flows[k].emplace_back(e, rate);
    }
  }
  return result;
}

}  // namespace hetcoll
