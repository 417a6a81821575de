#include "hetcoll/steady/broadcast/multi_tree.h"

#include "hetcoll/steady/broadcast/float_max_flow.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <limits>
#include <map>

#include <fmt/format.h>

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

PeriodicPlan multi_tree_schedule(const Platform& platform, ProcessorIndex source,
                                 const std::vector<double>& slice_times, const SsbSolution& optimum,
                                 const MultiTreePacking& packing) {
  PeriodicPlan plan;
  plan.operation = SteadyOperation::broadcast;
  plan.algorithm = "ssb-multi-tree";
  plan.root = source;
  plan.targets = optimum.targets;
  plan.throughput = packing.total_weight;
  plan.throughput_bound = optimum.throughput;
  plan.certificate = optimum.certificate;
  // Per-edge slices per time unit, exactly.
  std::vector<Rational> rate(platform.edges().size(), 0);
  std::vector<Rational> time(platform.edges().size());
  for (size_t e = 0; e < platform.edges().size(); ++e) time[e] = rational_from_double(slice_times[e]);
  std::vector<Rational> weights;
  for (const auto& tree : packing.trees) {
    weights.push_back(tree.weight);
    for (const auto& edge : tree.tree.edges) rate[edge.route.front()] += tree.weight;
  }
  std::vector<Rational> busy;
  for (size_t e = 0; e < platform.edges().size(); ++e) {
    if (sgn(rate[e]) > 0) busy.push_back(rate[e] * time[e]);
  }
  BigInteger period = lcm(lcm_of_denominators(weights), lcm_of_denominators(busy));
  plan.period = period;
  plan.operations_per_period = BigInteger(Rational(plan.throughput * period).get_num());
  for (const auto& tree : packing.trees) {
    WeightedTree weighted;
    weighted.weight = tree.weight;
    weighted.source = source;
    for (const auto& edge : tree.tree.edges) weighted.edges.push_back({edge.from, edge.to, MessageType::broadcast()});
    plan.trees.push_back(std::move(weighted));
  }
  std::vector<RationalColouringEdge> colouring_edges;
  std::vector<size_t> edge_of;
  for (size_t e = 0; e < platform.edges().size(); ++e) {
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
        slot.transfers.push_back({edge.from, edge.to, MessageType::broadcast(), Rational(matching.length / time[e])});
      }
      plan.slots.push_back(std::move(slot));
    }
    plan.stats.matchings = static_cast<int>(plan.slots.size());
  }
  return plan;
}

}  // namespace hetcoll
