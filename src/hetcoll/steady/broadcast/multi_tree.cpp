#include "hetcoll/steady/broadcast/multi_tree.h"

#include "hetcoll/steady/broadcast/float_max_flow.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/shortest_paths.h"
#include "hetcoll/steady/edge_colouring.h"
#include "hetcoll/steady/lp/linear_program.h"

namespace hetcoll {
namespace {

class TreePacker {
 public:
  TreePacker(const Platform& platform, ProcessorIndex source, const std::vector<double>& capacity, double requirement,
             std::vector<ProcessorIndex> targets)
      : platform_(platform), source_(source), capacity_(capacity), requirement_(requirement),
        targets_(std::move(targets)), tolerance_(1e-12 * std::max(1.0, requirement)) {}

  // The largest mu' <= mu for which tree edges `chosen` (weight mu') leave
  // every target a max-flow >= requirement - mu'.
  double admissible(const std::vector<size_t>& chosen, double mu) const {
    std::vector<char> in_tree(platform_.edges().size(), 0);
    for (auto e : chosen) in_tree[e] = 1;
    for (int iteration = 0; iteration < 50 && mu > tolerance_; ++iteration) {
      std::vector<double> residual = capacity_;
      for (auto e : chosen) residual[e] = std::max(0.0, residual[e] - mu);
      bool all_ok = true;
      for (auto w : targets_) {
        auto flow = float_max_flow(platform_, source_, w, residual, tolerance_ * 1e-3);
        if (flow.value >= requirement_ - mu - tolerance_) continue;
        all_ok = false;
        // The violated cut X: c(X) - mu f(X) < k - mu. Lower mu to its root.
        double cut = 0;
        int entering = 0;
        for (size_t e = 0; e < platform_.edges().size(); ++e) {
          const auto& edge = platform_.edges()[e];
          if (flow.reached_from_source[static_cast<size_t>(edge.from)] &&
              !flow.reached_from_source[static_cast<size_t>(edge.to)]) {
            cut += capacity_[e];
            entering += in_tree[e];
          }
        }
        double limit = entering > 1 ? (cut - requirement_) / (entering - 1) : 0.0;
        for (auto e : chosen) limit = std::min(limit, capacity_[e]);
        mu = std::min(mu * (1 - 1e-12), std::max(0.0, limit));
        break;
      }
      if (all_ok) return mu;
    }
    return 0.0;
  }

  // Grows one arborescence; returns its edges and weight (0: stuck).
  std::pair<std::vector<size_t>, double> grow() const {
    std::vector<char> in_tree(static_cast<size_t>(platform_.size()), 0);
    in_tree[static_cast<size_t>(source_)] = 1;
    std::vector<size_t> chosen;
    double mu = requirement_;
    for (auto e : chosen) mu = std::min(mu, capacity_[e]);
    auto needs_more = [&] {
      for (auto w : targets_) {
        if (!in_tree[static_cast<size_t>(w)]) return true;
      }
      return false;
    };
    while (needs_more()) {
      std::vector<size_t> candidates;
      for (size_t e = 0; e < platform_.edges().size(); ++e) {
        const auto& edge = platform_.edges()[e];
        if (in_tree[static_cast<size_t>(edge.from)] && !in_tree[static_cast<size_t>(edge.to)] &&
            capacity_[e] > tolerance_) {
          candidates.push_back(e);
        }
      }
      if (candidates.empty()) return {{}, 0.0};
      std::stable_sort(candidates.begin(), candidates.end(),
                       [&](size_t a, size_t b) { return capacity_[a] > capacity_[b]; });
      size_t best = kNoEdge;
      double best_mu = 0;
      for (auto e : candidates) {
        auto trial = chosen;
        trial.push_back(e);
        double value = admissible(trial, std::min(mu, capacity_[e]));
        if (value > best_mu) {
          best_mu = value;
          best = e;
        }
        if (best_mu >= mu * (1 - 1e-9)) break;
      }
      if (best == kNoEdge) return {{}, 0.0};
      chosen.push_back(best);
      mu = best_mu;
      in_tree[static_cast<size_t>(platform_.edges()[best].to)] = 1;
    }
    return {chosen, mu};
  }

 private:
  const Platform& platform_;
  ProcessorIndex source_;
  const std::vector<double>& capacity_;
  double requirement_;
  std::vector<ProcessorIndex> targets_;
  double tolerance_;
};

}  // namespace

MultiTreePacking pack_broadcast_trees(const Platform& platform, ProcessorIndex source,
                                      const std::vector<double>& slice_times, const SsbSolution& optimum) {
  (void)slice_times;
  auto start = std::chrono::steady_clock::now();
  MultiTreePacking packing;
  std::vector<double> capacity = optimum.edge_rate_values();
  double requirement = optimum.throughput_value();
  std::vector<std::vector<size_t>> found;
  const size_t limit = platform.edges().size() + 2;
  while (requirement > 1e-9 * optimum.throughput_value() && found.size() < limit) {
    TreePacker packer(platform, source, capacity, requirement, optimum.targets);
    auto [edges, weight] = packer.grow();
    if (edges.empty() || weight <= 0) break;
    for (auto e : edges) capacity[e] = std::max(0.0, capacity[e] - weight);
    requirement -= weight;
    found.push_back(std::move(edges));
  }
  packing.search_trees = static_cast<int>(found.size());
  // Exact weights: maximise the total under the exact edge rates.
  lp::Model model;
  std::vector<int> column;
  for (size_t i = 0; i < found.size(); ++i) column.push_back(model.add_column(1, fmt::format("tree{}", i)));
  for (size_t e = 0; e < platform.edges().size(); ++e) {
    int row = -1;
    for (size_t i = 0; i < found.size(); ++i) {
      if (std::find(found[i].begin(), found[i].end(), e) == found[i].end()) continue;
      if (row < 0) {
        row = model.add_row(lp::RowSense::less_equal, optimum.edge_rates[e],
                            {"edge_rate", {platform.id(platform.edges()[e].from), platform.id(platform.edges()[e].to)}});
      }
      model.add_entry(row, column[i], 1);
    }
  }
  packing.total_weight = 0;
  if (!found.empty()) {
    auto solution = lp::solve(model);
    if (solution.status == lp::SolveStatus::optimal) {
      for (size_t i = 0; i < found.size(); ++i) {
        const Rational& weight = solution.primal[static_cast<size_t>(column[i])];
        if (sgn(weight) <= 0) continue;
        packing.trees.push_back({weight, tree_from_edges(source, platform, found[i])});
        packing.total_weight += weight;
      }
    }
  }
  packing.reaches_optimum = packing.total_weight == optimum.throughput;
  packing.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return packing;
}

PeriodicPlan periodic_broadcast_schedule(const Platform& platform, ProcessorIndex source,
                                        const std::vector<double>& slice_times,
                                        const std::vector<WeightedBroadcastTree>& trees) {
  PeriodicPlan plan;
  plan.operation = SteadyOperation::broadcast;
  plan.algorithm = "broadcast-trees";
  plan.root = source;
  for (auto v : platform.participants()) {
    if (v != source) plan.targets.push_back(v);
  }
  // Per-edge slices per time unit, exactly; every hop of a routed edge
  // carries its tree's slices.
  const auto m = platform.edges().size();
  std::vector<Rational> rate(m, 0);
  std::vector<Rational> time(m);
  for (size_t e = 0; e < m; ++e) time[e] = rational_from_double(slice_times[e]);
  std::vector<Rational> weights;
  std::vector<std::vector<Rational>> tree_rate(trees.size());  // per tree, per edge
  for (size_t i = 0; i < trees.size(); ++i) {
    weights.push_back(trees[i].weight);
    plan.throughput += trees[i].weight;
    tree_rate[i].assign(m, 0);
    for (const auto& edge : trees[i].tree.edges) {
      for (auto e : edge.route) {
        rate[e] += trees[i].weight;
        tree_rate[i][e] += trees[i].weight;
      }
    }
  }
  plan.throughput_bound = plan.throughput;
  std::vector<Rational> busy;
  for (size_t e = 0; e < m; ++e) {
    if (sgn(rate[e]) > 0) busy.push_back(rate[e] * time[e]);
  }
  BigInteger period = lcm(lcm_of_denominators(weights), lcm_of_denominators(busy));
  plan.period = period;
  plan.operations_per_period = BigInteger(Rational(plan.throughput * period).get_num());
  for (const auto& tree : trees) {
    WeightedTree weighted;
    weighted.weight = tree.weight;
    weighted.source = source;
    for (const auto& edge : tree.tree.edges) weighted.edges.push_back({edge.from, edge.to, MessageType::broadcast()});
    plan.trees.push_back(std::move(weighted));
  }
  std::vector<RationalColouringEdge> colouring_edges;
  std::vector<size_t> edge_of;
  for (size_t e = 0; e < m; ++e) {
    if (sgn(rate[e]) == 0) continue;
    const auto& edge = platform.edges()[e];
    plan.flows.push_back({edge.from, edge.to, MessageType::broadcast(), Rational(rate[e] * period)});
    colouring_edges.push_back({edge.from, edge.to, Rational(rate[e] * time[e] * period)});
    edge_of.push_back(e);
  }
  if (!colouring_edges.empty()) {
    auto colouring = weighted_edge_colouring(platform.size(), platform.size(), colouring_edges);
    for (const auto& matching : colouring.matchings) {
      Slot slot;
      slot.length = matching.length;
      for (int index : matching.edges) {
        auto e = edge_of[static_cast<size_t>(index)];
        const auto& edge = platform.edges()[e];
        // The edge's slices in this slot, shared among its trees in
        // proportion to their rates, so every tree advances in every slot it
        // uses (a simulator follows each tree's slices: PeriodicTransfer::tree).
        Rational messages = matching.length / time[e];
        for (size_t i = 0; i < trees.size(); ++i) {
          if (sgn(tree_rate[i][e]) == 0) continue;
          slot.transfers.push_back({edge.from, edge.to, MessageType::broadcast(),
                                    Rational(messages * tree_rate[i][e] / rate[e]), static_cast<int>(i)});
        }
      }
      plan.slots.push_back(std::move(slot));
    }
    plan.stats.matchings = static_cast<int>(plan.slots.size());
  }
  // The slots fill the period: idle time (no port busy) is a slot without
  // transfers.
  Rational used = 0;
  for (const auto& slot : plan.slots) used += slot.length;
  if (used < Rational(period)) plan.slots.push_back(Slot{Rational(Rational(period) - used), {}});
  return plan;
}

PeriodicPlan multi_tree_schedule(const Platform& platform, ProcessorIndex source,
                                 const std::vector<double>& slice_times, const SsbSolution& optimum,
                                 const MultiTreePacking& packing) {
  PeriodicPlan plan = periodic_broadcast_schedule(platform, source, slice_times, packing.trees);
  plan.algorithm = "ssb-multi-tree";
  plan.targets = optimum.targets;
  plan.throughput_bound = optimum.throughput;
  plan.certificate = optimum.certificate;
  return plan;
}

PeriodicPlan single_tree_schedule(const Platform& platform, const BroadcastTree& tree,
                                  const std::vector<double>& slice_times) {
  for (const auto& edge : tree.edges) {
    if (edge.route.size() != 1) {
      throw InputError(fmt::format("tree: the edge {} -> {} is routed through other nodes; a periodic plan holds "
                                   "trees of platform edges only",
                                   platform.id(edge.from), platform.id(edge.to)));
    }
  }
  TreeCosts costs;
  costs.edge_time = slice_times;
  costs.send_time.assign(static_cast<size_t>(platform.size()), 0.0);
  costs.unlimited_ports.assign(static_cast<size_t>(platform.size()), 0);
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    costs.unlimited_ports[static_cast<size_t>(v)] = platform.node(v).ports == PortModel::unlimited;
  }
  // The exact one-port period: the busiest port's summed slice times.
  const auto n = static_cast<size_t>(platform.size());
  std::vector<Rational> out(n, 0), in(n, 0);
  for (const auto& edge : tree.edges) {
    for (auto e : edge.route) {
      out[static_cast<size_t>(platform.edges()[e].from)] += rational_from_double(slice_times[e]);
      in[static_cast<size_t>(platform.edges()[e].to)] += rational_from_double(slice_times[e]);
    }
  }
  Rational period = 0;
  for (size_t v = 0; v < n; ++v) {
    if (costs.unlimited_ports[v]) continue;
    period = std::max({period, out[v], in[v]});
  }
  if (sgn(period) <= 0) throw InputError("tree: its slices take no time, so it has no period");
  PeriodicPlan plan = periodic_broadcast_schedule(platform, tree.source, slice_times,
                                                  {WeightedBroadcastTree{Rational(1 / period), tree}});
  plan.algorithm = "single-tree";
  return plan;
}

}  // namespace hetcoll
