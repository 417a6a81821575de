#include "hetcoll/steady/broadcast/ssb_lp.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <limits>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/shortest_paths.h"
#include "hetcoll/steady/broadcast/float_max_flow.h"
#include "hetcoll/steady/broadcast/tree_building.h"

namespace hetcoll {
namespace {

constexpr const char* kFormulation = "ssb-broadcast";
// Floating rounds are cheap (a warm-started dual simplex and one float
// max-flow per target); exact rounds each solve and certify from scratch.
constexpr int kMaxFloatingRounds = 2000;
constexpr int kMaxExactRounds = 10;

std::string edge_key(size_t e) { return fmt::format("{}", e); }

struct SsbColumns {
  int throughput = -1;
  std::vector<int> rate;                // per edge
  std::vector<std::vector<int>> flow;   // per target in the model, per edge
};

SsbColumns build_model(lp::Model& model, const Platform& platform, ProcessorIndex source,
                       const std::vector<double>& slice_times, const std::vector<ProcessorIndex>& targets) {
  const auto m = platform.edges().size();
  SsbColumns columns;
  columns.throughput = model.add_column(1, "TP");
  for (size_t e = 0; e < m; ++e) columns.rate.push_back(model.add_column(0, fmt::format("n{}", e)));
  std::vector<Rational> time(m);
  for (size_t e = 0; e < m; ++e) time[e] = rational_from_double(slice_times[e]);
  for (ProcessorIndex u = 0; u < platform.size(); ++u) {
    const auto& id = platform.id(u);
    if (platform.node(u).ports == PortModel::unlimited) continue;
    if (!platform.out_edges(u).empty()) {
      int row = model.add_row(lp::RowSense::less_equal, 1, {"send_port", {id}});
      for (auto e : platform.out_edges(u)) model.add_entry(row, columns.rate[e], time[e]);
    }
    if (!platform.in_edges(u).empty()) {
      int row = model.add_row(lp::RowSense::less_equal, 1, {"receive_port", {id}});
      for (auto e : platform.in_edges(u)) model.add_entry(row, columns.rate[e], time[e]);
    }
  }
  for (size_t e = 0; e < m; ++e) {
    const auto& edge = platform.edges()[e];
    if (platform.node(edge.from).ports == PortModel::unlimited || platform.node(edge.to).ports == PortModel::unlimited) {
      int row = model.add_row(lp::RowSense::less_equal, 1,
                              {"link", {platform.id(edge.from), platform.id(edge.to), edge_key(e)}});
      model.add_entry(row, columns.rate[e], time[e]);
    }
  }
  for (auto w : targets) {
    const auto& target = platform.id(w);
    std::vector<int> flow(m);
    for (size_t e = 0; e < m; ++e) flow[e] = model.add_column(0, fmt::format("x{}_{}", target, e));
    for (ProcessorIndex v = 0; v < platform.size(); ++v) {
      if (v == source) continue;
      int row = model.add_row(lp::RowSense::equal, 0, {"conservation", {target, platform.id(v)}});
      for (auto e : platform.in_edges(v)) model.add_entry(row, flow[e], 1);
      for (auto e : platform.out_edges(v)) model.add_entry(row, flow[e], -1);
      if (v == w) model.add_entry(row, columns.throughput, -1);
    }
    for (size_t e = 0; e < m; ++e) {
      const auto& edge = platform.edges()[e];
      // A flow to w never needs to leave w or enter the source.
      if (edge.from == w || edge.to == source) continue;
      int row = model.add_row(lp::RowSense::less_equal, 0,
                              {"copy", {target, platform.id(edge.from), platform.id(edge.to), edge_key(e)}});
      model.add_entry(row, flow[e], 1);
      model.add_entry(row, columns.rate[e], -1);
    }
    columns.flow.push_back(std::move(flow));
  }
  return columns;
}

}  // namespace

std::vector<double> SsbSolution::edge_rate_values() const {
  std::vector<double> values;
  values.reserve(edge_rates.size());
  for (const auto& rate : edge_rates) values.push_back(to_double(rate));
  return values;
}

lp::Model build_ssb_model(const Platform& platform, ProcessorIndex source, const std::vector<double>& slice_times,
                          const std::vector<ProcessorIndex>& targets) {
  lp::Model model;
  build_model(model, platform, source, slice_times, targets);
  return model;
}

namespace {

struct ExactFlow {
  Rational value;
  std::vector<char> reached_from_source;  // in the final residual graph
};

ExactFlow exact_flow(const Platform& platform, ProcessorIndex source, ProcessorIndex target,
                     const std::vector<Rational>& capacity) {
  const auto m = platform.edges().size();
  std::vector<Rational> flow(m, 0);
  Rational total = 0;
  const auto n = static_cast<size_t>(platform.size());
  for (;;) {
    // Breadth-first search in the residual graph: forward edges with spare
    // capacity, backward edges with flow. parent = (edge, forward?).
    std::vector<std::pair<size_t, bool>> parent(n, {kNoEdge, true});
    std::vector<char> seen(n, 0);
    std::deque<ProcessorIndex> queue{source};
    seen[static_cast<size_t>(source)] = 1;
    while (!queue.empty() && !seen[static_cast<size_t>(target)]) {
      auto u = queue.front();
      queue.pop_front();
      for (auto e : platform.out_edges(u)) {
        auto v = platform.edges()[e].to;
        if (!seen[static_cast<size_t>(v)] && flow[e] < capacity[e]) {
          seen[static_cast<size_t>(v)] = 1;
          parent[static_cast<size_t>(v)] = {e, true};
          queue.push_back(v);
        }
      }
      for (auto e : platform.in_edges(u)) {
        auto v = platform.edges()[e].from;
        if (!seen[static_cast<size_t>(v)] && sgn(flow[e]) > 0) {
          seen[static_cast<size_t>(v)] = 1;
          parent[static_cast<size_t>(v)] = {e, false};
          queue.push_back(v);
        }
      }
    }
    if (!seen[static_cast<size_t>(target)]) {
      // The search ran out without meeting the target: `seen` is the
      // source side of a minimum cut.
      return {total, std::move(seen)};
    }
    Rational bottleneck = -1;
    for (auto v = target; v != source;) {
      auto [e, forward] = parent[static_cast<size_t>(v)];
      Rational spare = forward ? Rational(capacity[e] - flow[e]) : flow[e];
      if (bottleneck < 0 || spare < bottleneck) bottleneck = spare;
      v = forward ? platform.edges()[e].from : platform.edges()[e].to;
    }
    for (auto v = target; v != source;) {
      auto [e, forward] = parent[static_cast<size_t>(v)];
      if (forward) {
        flow[e] += bottleneck;
      } else {
        flow[e] -= bottleneck;
      }
      v = forward ? platform.edges()[e].from : platform.edges()[e].to;
    }
    total += bottleneck;
  }
}

}  // namespace

Rational exact_max_flow(const Platform& platform, ProcessorIndex source, ProcessorIndex target,
                        const std::vector<Rational>& capacity) {
  return exact_flow(platform, source, target, capacity).value;
}

namespace {

// A node set X not holding the source: TP <= sum of n(e) over edges entering X.
using Cut = std::vector<ProcessorIndex>;  // sorted node indices

void add_port_rows(lp::Model& model, const Platform& platform, const std::vector<Rational>& time,
                   const std::vector<int>& rate) {
  for (ProcessorIndex u = 0; u < platform.size(); ++u) {
    const auto& id = platform.id(u);
    if (platform.node(u).ports == PortModel::unlimited) continue;
    if (!platform.out_edges(u).empty()) {
      int row = model.add_row(lp::RowSense::less_equal, 1, {"send_port", {id}});
      for (auto e : platform.out_edges(u)) model.add_entry(row, rate[e], time[e]);
    }
    if (!platform.in_edges(u).empty()) {
      int row = model.add_row(lp::RowSense::less_equal, 1, {"receive_port", {id}});
      for (auto e : platform.in_edges(u)) model.add_entry(row, rate[e], time[e]);
    }
  }
  for (size_t e = 0; e < platform.edges().size(); ++e) {
    const auto& edge = platform.edges()[e];
    if (platform.node(edge.from).ports == PortModel::unlimited || platform.node(edge.to).ports == PortModel::unlimited) {
      int row = model.add_row(lp::RowSense::less_equal, 1,
                              {"link", {platform.id(edge.from), platform.id(edge.to), edge_key(e)}});
      model.add_entry(row, rate[e], time[e]);
    }
  }
}

struct CutModel {
  lp::Model model;
  int throughput = -1;
  std::vector<int> rate;
};

// The program over TP and n with the port rows and no cut yet.
CutModel build_port_model(const Platform& platform, const std::vector<double>& slice_times) {
  CutModel built;
  const auto m = platform.edges().size();
  built.throughput = built.model.add_column(1, "TP");
  for (size_t e = 0; e < m; ++e) built.rate.push_back(built.model.add_column(0, fmt::format("n{}", e)));
  std::vector<Rational> time(m);
  for (size_t e = 0; e < m; ++e) time[e] = rational_from_double(slice_times[e]);
  add_port_rows(built.model, platform, time, built.rate);
  return built;
}

// TP <= sum of n(e) over the edges entering `cut`.
void add_cut_row(CutModel& built, const Platform& platform, const Cut& cut) {
  std::vector<char> inside(static_cast<size_t>(platform.size()), 0);
  std::vector<std::string> keys;
  for (auto v : cut) {
    inside[static_cast<size_t>(v)] = 1;
    keys.push_back(platform.id(v));
  }
  int row = built.model.add_row(lp::RowSense::less_equal, 0, {"cut", keys});
  built.model.add_entry(row, built.throughput, 1);
  for (auto v : cut) {
    for (auto e : platform.in_edges(v)) {
      if (!inside[static_cast<size_t>(platform.edges()[e].from)]) built.model.add_entry(row, built.rate[e], -1);
    }
  }
}

CutModel build_cut_model(const Platform& platform, const std::vector<double>& slice_times, const std::vector<Cut>& cuts) {
  CutModel built = build_port_model(platform, slice_times);
  for (const auto& cut : cuts) add_cut_row(built, platform, cut);
  return built;
}

// The two extreme minimum cuts of a max-flow in doubles (float_max_flow.h):
// the sink side nearest the target and the one nearest the source. Only
// used to find violated cuts; every claim is re-checked exactly.
struct MinCuts {
  Cut near_target, near_source;
};

std::pair<double, MinCuts> float_min_cuts(const Platform& platform, ProcessorIndex source, ProcessorIndex target,
                                          const std::vector<double>& capacity, double tolerance) {
  const auto n = static_cast<size_t>(platform.size());
  auto max_flow = float_max_flow(platform, source, target, capacity, tolerance);
  const auto& flow = max_flow.flow;
  const auto& seen = max_flow.reached_from_source;
  const double total = max_flow.value;
  // The minimal sink side: nodes that reach the target in the residual graph
  // (local cuts around the target bind more often than the far ones).
  std::vector<char> reaches(n, 0);
  std::deque<ProcessorIndex> back{target};
  reaches[static_cast<size_t>(target)] = 1;
  while (!back.empty()) {
    auto v = back.front();
    back.pop_front();
    for (auto e : platform.in_edges(v)) {
      auto u = static_cast<size_t>(platform.edges()[e].from);
      if (!reaches[u] && capacity[e] - flow[e] > tolerance) {
        reaches[u] = 1;
        back.push_back(platform.edges()[e].from);
      }
    }
    for (auto e : platform.out_edges(v)) {
      auto u = static_cast<size_t>(platform.edges()[e].to);
      if (!reaches[u] && flow[e] > tolerance) {
        reaches[u] = 1;
        back.push_back(platform.edges()[e].to);
      }
    }
  }
  MinCuts cuts;
  for (size_t v = 0; v < n; ++v) {
    if (reaches[v]) cuts.near_target.push_back(static_cast<ProcessorIndex>(v));
    if (!seen[v]) cuts.near_source.push_back(static_cast<ProcessorIndex>(v));
  }
  return {total, cuts};
}

// The sink side of an exact minimum cut between the source and `target`,
// with its capacity. When the capacity is below the LP's TP the cut is
// violated by the LP's exact solution, so it is not one of its rows yet.
std::pair<Rational, Cut> exact_min_cut(const Platform& platform, ProcessorIndex source, ProcessorIndex target,
                                       const std::vector<Rational>& capacity) {
  auto flow = exact_flow(platform, source, target, capacity);
  Cut cut;
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    if (!flow.reached_from_source[static_cast<size_t>(v)]) cut.push_back(v);
  }
  return {std::move(flow.value), std::move(cut)};
}

// w and the nodes other than the source that reach w along edges whose
// slice time is zero: a valid cut (it holds a target, not the source).
Cut free_edge_closure(const Platform& platform, ProcessorIndex source, ProcessorIndex target,
                      const std::vector<double>& slice_times) {
  std::vector<char> inside(static_cast<size_t>(platform.size()), 0);
  std::vector<ProcessorIndex> stack{target}, cut{target};
  inside[static_cast<size_t>(target)] = 1;
  while (!stack.empty()) {
    auto v = stack.back();
    stack.pop_back();
    for (auto e : platform.in_edges(v)) {
      auto u = platform.edges()[e].from;
      if (slice_times[e] > 0 || u == source || inside[static_cast<size_t>(u)]) continue;
      inside[static_cast<size_t>(u)] = 1;
      cut.push_back(u);
      stack.push_back(u);
    }
  }
  return cut;
}

}  // namespace

SsbSolution solve_ssb(const Platform& platform, ProcessorIndex source, const std::vector<double>& slice_times) {
  auto start = std::chrono::steady_clock::now();
  TreeProblem reach;
  reach.platform = &platform;
  reach.source = source;
  require_all_reachable(reach);
  SsbSolution solution;
  for (auto v : platform.participants()) {
    if (v != source) solution.targets.push_back(v);
  }
  if (solution.targets.empty()) throw InputError("source: the platform has no other participant to broadcast to");
  // A target reached from the source over edges of zero slice time gets any
  // rate for free: the throughput would be unbounded.
  {
    std::vector<char> free_reach(static_cast<size_t>(platform.size()), 0);
    std::vector<ProcessorIndex> queue{source};
    free_reach[static_cast<size_t>(source)] = 1;
    while (!queue.empty()) {
      const ProcessorIndex v = queue.back();
      queue.pop_back();
      for (size_t e : platform.out_edges(v)) {
        const ProcessorIndex w = platform.edges()[e].to;
        if (slice_times[e] == 0 && !free_reach[static_cast<size_t>(w)]) {
          free_reach[static_cast<size_t>(w)] = 1;
          queue.push_back(w);
        }
      }
    }
    for (auto w : solution.targets) {
      if (free_reach[static_cast<size_t>(w)]) {
        throw InputError("platform", fmt::format("the slices from {} reach {} over edges of cost 0 only: the "
                                                 "steady-state throughput would be unbounded",
                                                 platform.id(source), platform.id(w)));
      }
    }
  }

  // Row generation over cuts: start with every target's in-cut {w}, add the
  // minimum cuts of each target whose max-flow under n falls short of TP.
  CutModel built = build_port_model(platform, slice_times);
  std::set<Cut> known;
  auto add_cut = [&](Cut cut) {
    std::sort(cut.begin(), cut.end());
    if (!known.insert(cut).second) return false;
    add_cut_row(built, platform, cut);
    return true;
  };
  // Initial cuts: each target with every node that reaches it by edges of
  // zero slice time (the wires of an imported SimGrid topology). The singleton
  // {w} would do on a graph without free edges, but a free edge entering w
  // leaves its cut unbounded; the closure's entering edges all take time, so
  // a port row or a link row bounds each of them and the LP is bounded.
  for (auto w : solution.targets) add_cut(free_edge_closure(platform, source, w, slice_times));
  const size_t edge_count = platform.edges().size();
  auto read_rates = [&](const std::vector<double>& primal) {
    std::vector<double> rates(edge_count);
    for (size_t e = 0; e < edge_count; ++e) rates[e] = primal[static_cast<size_t>(built.rate[e])];
    return rates;
  };
  // Floating-point rounds: Clp re-solves from its last basis (a few dual
  // pivots per round), float max-flows find the violated cuts. Cut
  // generation tails on dense platforms (dozens of rounds of a few cuts),
  // which costs little here. Then one exact solve from the basis the rounds
  // ended on, certified, and exact max-flows: a target short by less than
  // the floating tolerance adds its exact minimum cut and the rounds resume
  // (rare: one exact solve on every platform tried).
  lp::FloatingRowSolver floating(built.model);
  for (;;) {
    for (int round = 0; round < kMaxFloatingRounds; ++round) {
      ++solution.floating_rounds;
      if (!floating.solve()) break;  // certify() below says what is wrong
      const auto rates = read_rates(floating.primal());
      const double tp = floating.primal()[static_cast<size_t>(built.throughput)];
      bool added = false;
      for (auto w : solution.targets) {
        auto [flow, found] = float_min_cuts(platform, source, w, rates, 1e-12 * tp);
        if (flow < tp * (1 - 1e-9)) {
          added |= add_cut(std::move(found.near_target));
          added |= add_cut(std::move(found.near_source));
        }
      }
      if (!added) break;
    }
    ++solution.rounds;
    lp::Solution result = floating.certify();
    if (result.status != lp::SolveStatus::optimal) {
      throw std::runtime_error(fmt::format("the SSB linear program was not solved: {} {}", lp::to_string(result.status),
                                           result.failure));
    }
    solution.throughput = result.primal[static_cast<size_t>(built.throughput)];
    solution.edge_rates.assign(edge_count, 0);
    for (size_t e = 0; e < edge_count; ++e) solution.edge_rates[e] = result.primal[static_cast<size_t>(built.rate[e])];
    bool added = false;
    for (auto w : solution.targets) {
      auto [capacity, cut] = exact_min_cut(platform, source, w, solution.edge_rates);
      if (capacity < solution.throughput) added |= add_cut(std::move(cut));
    }
    if (!added) {
      solution.certificate = lp::make_certificate(built.model, result, kFormulation);
      solution.lp_rows = built.model.row_count();
      solution.lp_columns = built.model.column_count();
      solution.lp_method = result.method + ", cut generation";
      solution.targets_in_lp = static_cast<int>(known.size());
      break;
    }
    if (solution.rounds >= kMaxExactRounds) {
      // Never seen: exact rounds that keep finding cuts. The full flow
      // program is bounded.
      lp::Model full;
      auto columns = build_model(full, platform, source, slice_times, solution.targets);
      lp::Solution exact = lp::solve(full);
      if (exact.status != lp::SolveStatus::optimal) {
        throw std::runtime_error(fmt::format("the SSB linear program was not solved: {} {}",
                                             lp::to_string(exact.status), exact.failure));
      }
      solution.throughput = exact.primal[static_cast<size_t>(columns.throughput)];
      for (size_t e = 0; e < edge_count; ++e) solution.edge_rates[e] = exact.primal[static_cast<size_t>(columns.rate[e])];
      solution.certificate = lp::make_certificate(full, exact, kFormulation);
      solution.lp_rows = full.row_count();
      solution.lp_columns = full.column_count();
      solution.lp_method = exact.method + " (full flow program)";
      solution.targets_in_lp = 0;
      break;
    }
  }
  solution.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return solution;
}

std::string check_ssb_solution(const Platform& platform, ProcessorIndex source, const std::vector<double>& slice_times,
                               const SsbSolution& solution) {
  if (solution.certificate.formulation != kFormulation) return "the certificate is not for the SSB program";
  if (solution.certificate.bound != solution.throughput) return "the certificate's bound is not the throughput";
  bool flow_rows = false;
  for (const auto& dual : solution.certificate.duals) flow_rows |= dual.row.kind == "conservation" || dual.row.kind == "copy";
  if (flow_rows) {
    // Solved as the full flow program (the fallback): check against it.
    auto full = build_ssb_model(platform, source, slice_times, solution.targets);
    if (auto failure = lp::check_certificate(full, solution.certificate); !failure.empty()) return failure;
  }
  // The cuts the certificate uses, each a valid inequality of eq. (2): a set
  // X without the source that holds a target receives TP over its in-edges.
  std::vector<Cut> cuts;
  for (const auto& dual : solution.certificate.duals) {
    if (dual.row.kind != "cut") continue;
    Cut cut;
    bool has_target = false;
    for (const auto& id : dual.row.keys) {
      auto v = platform.find(id);
      if (!v) return fmt::format("the certificate's cut names an unknown node {}", id);
      if (*v == source) return "a certificate cut holds the source";
      has_target |= !platform.node(*v).router;
      cut.push_back(*v);
    }
    if (!has_target) return "a certificate cut holds no target";
    std::sort(cut.begin(), cut.end());
    cuts.push_back(std::move(cut));
  }
  if (!flow_rows) {
    auto model = build_cut_model(platform, slice_times, cuts).model;
    if (auto failure = lp::check_certificate(model, solution.certificate); !failure.empty()) return failure;
  }
  // The primal side, by a second method: the rates respect every port and
  // carry TP to every target (max-flow >= TP is the LP's (a)-(d) by max-flow
  // min-cut).
  if (solution.edge_rates.size() != platform.edges().size()) return "edge rates do not match the platform";
  for (ProcessorIndex u = 0; u < platform.size(); ++u) {
    if (platform.node(u).ports == PortModel::unlimited) continue;
    Rational out = 0, in = 0;
    for (auto e : platform.out_edges(u)) out += solution.edge_rates[e] * rational_from_double(slice_times[e]);
    for (auto e : platform.in_edges(u)) in += solution.edge_rates[e] * rational_from_double(slice_times[e]);
    if (out > 1 || in > 1) return fmt::format("node {} is busy more than one time unit per time unit", platform.id(u));
  }
  for (auto w : solution.targets) {
    if (exact_max_flow(platform, source, w, solution.edge_rates) < solution.throughput) {
      return fmt::format("target {} cannot receive TP slices per time unit under the edge rates", platform.id(w));
    }
  }
  return "";
}

}  // namespace hetcoll
