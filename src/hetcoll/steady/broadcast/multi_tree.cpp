#include "hetcoll/steady/broadcast/multi_tree.h"

#include "hetcoll/steady/broadcast/float_max_flow.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/shortest_paths.h"
#include "hetcoll/steady/broadcast/min_cost_arborescence.h"
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

// The edges of an arborescence from `source`, parents before children.
std::vector<size_t> top_down(const Platform& platform, ProcessorIndex source, std::vector<size_t> edges) {
  std::vector<size_t> ordered;
  std::vector<char> reached(static_cast<size_t>(platform.size()), 0);
  reached[static_cast<size_t>(source)] = 1;
  while (!edges.empty()) {
    auto ready = std::stable_partition(edges.begin(), edges.end(), [&](size_t e) {
      return !reached[static_cast<size_t>(platform.edges()[e].from)];
    });
    if (ready == edges.end()) break;  // not an arborescence from source: left out
    for (auto it = ready; it != edges.end(); ++it) {
      ordered.push_back(*it);
      reached[static_cast<size_t>(platform.edges()[*it].to)] = 1;
    }
    edges.erase(ready, edges.end());
  }
  return ordered;
}

// The cheapest arborescence from the source under edge prices `price` (one
// per edge of `usable`, the edges with a positive rate, sorted), spanning
// the nodes they reach; leaves that are routers are cut off (prices are
// >= 0, so that never costs more). Empty when the source reaches nothing.
template <class Number>
std::pair<std::vector<size_t>, Number> cheapest_arborescence(const Platform& platform, ProcessorIndex source,
                                                             const std::vector<size_t>& usable,
                                                             const std::vector<Number>& price) {
  const auto n = static_cast<size_t>(platform.size());
  std::vector<int> local(n, -1);
  std::vector<ProcessorIndex> global{source};
  local[static_cast<size_t>(source)] = 0;
  for (size_t head = 0; head < global.size(); ++head) {
    for (auto e : usable) {
      const auto& edge = platform.edges()[e];
      if (edge.from != global[head] || local[static_cast<size_t>(edge.to)] >= 0) continue;
      local[static_cast<size_t>(edge.to)] = static_cast<int>(global.size());
      global.push_back(edge.to);
    }
  }
  std::vector<CostedArc<Number>> arcs;
  std::vector<size_t> arc_price;
  for (size_t k = 0; k < usable.size(); ++k) {
    const auto& edge = platform.edges()[usable[k]];
    const int from = local[static_cast<size_t>(edge.from)], to = local[static_cast<size_t>(edge.to)];
    if (from < 0 || to < 0) continue;
    arcs.push_back({from, to, price[k]});
    arc_price.push_back(k);
  }
  auto chosen = min_cost_arborescence(static_cast<int>(global.size()), 0, arcs);
  if (!chosen || chosen->empty()) return {{}, Number(0)};
  std::vector<size_t> picked;  // indices into usable
  for (auto a : *chosen) picked.push_back(arc_price[a]);
  // Routers only relay: drop router leaves until every leaf is a target.
  for (bool pruned = true; pruned;) {
    pruned = false;
    std::vector<int> children(n, 0);
    for (auto k : picked) ++children[static_cast<size_t>(platform.edges()[usable[k]].from)];
    std::erase_if(picked, [&](size_t k) {
      auto v = platform.edges()[usable[k]].to;
      bool drop = platform.node(v).router && children[static_cast<size_t>(v)] == 0;
      pruned |= drop;
      return drop;
    });
  }
  Number cost(0);
  std::vector<size_t> edges;
  for (auto k : picked) {
    cost += price[k];
    edges.push_back(usable[k]);
  }
  return {top_down(platform, source, std::move(edges)), cost};
}

// Exact weights for the trees of the search, completed by column generation
// over arborescences. Master LP: maximise sum of l_T subject to, for every
// edge e with n(e) > 0, sum of l_T over the trees holding e <= n(e). It is
// solved as its dual, by row generation: prices y_e >= 0 minimising
// sum n(e) y_e with every tree costing >= 1 (a row per tree; the rows'
// exact duals are the weights l_T). A tree of y-cost below 1 is a violated
// row; the cheapest is a minimum-cost arborescence. Rounds run in floating
// point (lp::FloatingRowSolver); then the model is certified exactly and the
// pricing repeated in rationals. When no arborescence costs below 1, y is
// feasible for every tree, so the weights are the master's optimum over all
// arborescences, which Edmonds' branching theorem (fractional form; every
// node a target) puts at the minimum over target cuts of n entering them:
// TP. The search's trees, found in doubles, are the first rows; the
// generation fixes what their rounding loses (on dense platforms the exact
// weights of the search's trees alone fell short by ~1e-10).
void exact_weights(const Platform& platform, ProcessorIndex source, const SsbSolution& optimum,
                   std::vector<std::vector<size_t>> trees, MultiTreePacking& packing) {
  std::vector<size_t> usable;
  for (size_t e = 0; e < platform.edges().size(); ++e) {
    if (sgn(optimum.edge_rates[e]) > 0) usable.push_back(e);
  }
  std::vector<int> price_column(platform.edges().size(), -1);
  lp::Model prices;
  for (size_t k = 0; k < usable.size(); ++k) {
    const auto& edge = platform.edges()[usable[k]];
    price_column[usable[k]] = prices.add_column(-optimum.edge_rates[usable[k]],
                                                fmt::format("y_{}_{}", platform.id(edge.from), platform.id(edge.to)));
  }
  std::set<std::vector<size_t>> known;
  std::vector<std::vector<size_t>> rows;  // the tree of each row
  auto add_tree = [&](std::vector<size_t> tree) {
    auto sorted = tree;
    std::sort(sorted.begin(), sorted.end());
    if (tree.empty() || !known.insert(std::move(sorted)).second) return false;
    int row = prices.add_row(lp::RowSense::less_equal, -1, {"tree", {fmt::format("{}", rows.size())}});
    for (auto e : tree) prices.add_entry(row, price_column[e], -1);
    rows.push_back(std::move(tree));
    return true;
  };
  for (auto& tree : trees) add_tree(std::move(tree));
  if (rows.empty() && !add_tree(cheapest_arborescence(platform, source, usable, std::vector<double>(usable.size(), 0.0)).first)) {
    packing.shortfall = "the edges with a positive rate reach no node from the source";
    return;
  }
  bool routers = false;
  for (ProcessorIndex v = 0; v < platform.size(); ++v) routers |= platform.node(v).router;
  const char* no_price = routers ? "no tree prices out, but the platform has routers: trees need not span them, and "
                                   "Edmonds' theorem (trees spanning every node) does not promise the optimum there"
                                 : "no spanning arborescence prices out below the optimum (numerical failure)";
  constexpr int kMaxGeneratedTrees = 2000;
  lp::FloatingRowSolver floating(prices);
  for (;;) {
    while (packing.generated_trees < kMaxGeneratedTrees && floating.solve()) {
      auto [tree, cost] = cheapest_arborescence(platform, source, usable, floating.primal());
      if (cost >= 1 - 1e-12 || !add_tree(std::move(tree))) break;
      ++packing.generated_trees;
    }
    auto result = floating.certify();
    if (result.status != lp::SolveStatus::optimal) {
      packing.shortfall = fmt::format("the exact weights were not solved: {} {}", lp::to_string(result.status),
                                      result.failure);
      return;
    }
    packing.trees.clear();
    packing.total_weight = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      const Rational& weight = result.dual[i];
      if (sgn(weight) <= 0) continue;
      packing.trees.push_back({weight, tree_from_edges(source, platform, rows[i])});
      packing.total_weight += weight;
    }
    if (packing.total_weight == optimum.throughput) return;
    std::vector<Rational> exact_prices(result.primal.begin(), result.primal.end());
    auto [tree, cost] = cheapest_arborescence(platform, source, usable, exact_prices);
    if (cost >= 1 || !add_tree(std::move(tree))) {
      packing.shortfall = no_price;
      return;
    }
    ++packing.generated_trees;
    if (packing.generated_trees >= kMaxGeneratedTrees) {
      packing.shortfall = fmt::format("column generation stopped after {} trees", kMaxGeneratedTrees);
      return;
    }
  }
}

}  // namespace

MultiTreePacking pack_broadcast_trees(const Platform& platform, ProcessorIndex source,
                                      const std::vector<double>& slice_times, const SsbSolution& optimum,
                                      const PackingOptions& options) {
  (void)slice_times;
  auto start = std::chrono::steady_clock::now();
  MultiTreePacking packing;
  std::vector<double> capacity = optimum.edge_rate_values();
  double requirement = optimum.throughput_value();
  std::vector<std::vector<size_t>> found;
  const size_t limit = platform.edges().size() + 2;
  while (options.search_first && requirement > 1e-9 * optimum.throughput_value() && found.size() < limit) {
    TreePacker packer(platform, source, capacity, requirement, optimum.targets);
    auto [edges, weight] = packer.grow();
    if (edges.empty() || weight <= 0) break;
    for (auto e : edges) capacity[e] = std::max(0.0, capacity[e] - weight);
    requirement -= weight;
    found.push_back(std::move(edges));
  }
  packing.search_trees = static_cast<int>(found.size());
  exact_weights(platform, source, optimum, found, packing);
  packing.reaches_optimum = packing.total_weight == optimum.throughput;
  if (!packing.reaches_optimum && packing.shortfall.empty()) {
    packing.shortfall = "the exact weights sum to less than the optimum, yet no spanning arborescence prices out";
  }
  if (packing.reaches_optimum) packing.shortfall.clear();
  packing.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return packing;
}

PeriodicPlan periodic_broadcast_schedule(const Platform& platform, ProcessorIndex source,
                                        const std::vector<double>& slice_times,
                                        const std::vector<WeightedBroadcastTree>& trees, bool rational_slots) {
  PeriodicPlan plan;
  plan.operation = SteadyOperation::broadcast;
  plan.algorithm = "broadcast-trees";
  plan.root = source;
  for (auto v : platform.participants()) {
    if (v != source) plan.targets.push_back(v);
  }
  // Per-edge slices per time unit, exactly; every hop of a routed edge
  // carries its tree's slices. In integers: with P1 the lcm of the weights'
  // denominators, tree i sends w_i P1 slices per P1 time units and edge e
  // carries R_e = sum of uses_i(e) w_i P1 of them (no gcd per tree and edge).
  const auto m = platform.edges().size();
  std::vector<Rational> time(m);
  for (size_t e = 0; e < m; ++e) time[e] = rational_from_double(slice_times[e]);
  std::vector<Rational> weights;
  for (const auto& tree : trees) {
    weights.push_back(tree.weight);
    plan.throughput += tree.weight;
  }
  const BigInteger weight_period = lcm_of_denominators(weights);
  std::vector<BigInteger> count(trees.size());  // w_i x P1, then w_i x period
  std::vector<std::vector<int>> uses(trees.size(), std::vector<int>(m, 0));  // hops of tree i on edge e
  std::vector<BigInteger> carried(m, 0);                                      // R_e
  for (size_t i = 0; i < trees.size(); ++i) {
    mpz_divexact(count[i].get_mpz_t(), weight_period.get_mpz_t(), trees[i].weight.get_den_mpz_t());
    count[i] *= trees[i].weight.get_num();
    for (const auto& edge : trees[i].tree.edges) {
      for (auto e : edge.route) {
        ++uses[i][e];
        carried[e] += count[i];
      }
    }
  }
  plan.throughput_bound = plan.throughput;
  std::vector<Rational> busy;  // rate x time = R_e a_e / (P1 b_e)
  for (size_t e = 0; e < m; ++e) {
    if (sgn(carried[e]) == 0) continue;
    Rational load(BigInteger(carried[e] * time[e].get_num()), BigInteger(weight_period * time[e].get_den()));
    load.canonicalize();
    busy.push_back(std::move(load));
  }
  BigInteger period = rational_slots ? weight_period : lcm(weight_period, lcm_of_denominators(busy));
  const BigInteger factor = period / weight_period;
  for (auto& c : count) c *= factor;
  for (auto& c : carried) c *= factor;  // slices per period
  plan.period = period;
  plan.operations_per_period = whole_number(plan.throughput * period);
  for (const auto& tree : trees) {
    WeightedTree weighted;
    weighted.weight = tree.weight;
    weighted.source = source;
    for (const auto& edge : tree.tree.edges) weighted.edges.push_back({edge.from, edge.to, MessageType::broadcast()});
    plan.trees.push_back(std::move(weighted));
  }
  // As in build_one_port_schedule (periodic_schedule.h): an end with
  // unlimited ports gets a vertex of its own per edge, and an edge that
  // takes no time (a wire of an imported topology) or uses no port has no
  // slot: its transfers are listed in the first slot.
  auto one_port = [&](ProcessorIndex v) { return platform.node(v).ports != PortModel::unlimited; };
  std::vector<RationalColouringEdge> colouring_edges;
  std::vector<size_t> edge_of;
  std::vector<PeriodicTransfer> free_transfers;
  int next_left = platform.size(), next_right = platform.size();
  for (size_t e = 0; e < m; ++e) {
    if (sgn(carried[e]) == 0) continue;
    const auto& edge = platform.edges()[e];
    plan.flows.push_back({edge.from, edge.to, MessageType::broadcast(), Rational(carried[e])});
    const bool sender = sgn(time[e]) > 0 && one_port(edge.from), receiver = sgn(time[e]) > 0 && one_port(edge.to);
    if (!sender && !receiver) {
      for (size_t i = 0; i < trees.size(); ++i) {
        if (uses[i][e] == 0) continue;
        free_transfers.push_back({edge.from, edge.to, MessageType::broadcast(), Rational(count[i] * uses[i][e]),
                                  static_cast<int>(i)});
      }
      continue;
    }
    colouring_edges.push_back({sender ? edge.from : next_left++, receiver ? edge.to : next_right++,
                               Rational(carried[e] * time[e])});
    edge_of.push_back(e);
  }
  if (!colouring_edges.empty()) {
    auto colouring = weighted_edge_colouring(next_left, next_right, colouring_edges);
    // Each edge's slices are dealt to its trees in tree order across the
    // slots that hold the edge: tree i takes its w_i x period slices per hop
    // (a whole number), then the next tree starts, so an edge has at most
    // (its slots + its trees - 1) transfers, not slots x trees. Any split
    // within the period is causal: slices received in one period are
    // forwarded in the next.
    // In units of 1/a_e slices, where time[e] = a_e / b_e: a slot of length
    // L carries L b_e units and tree i needs w_i x period x a_e units per hop,
    // both whole numbers, so the dealing runs in integers (no gcd per step).
    // With rational_slots the same dealing runs in slices, as rationals.
    std::vector<std::size_t> next_tree(m, 0);  // per edge: the tree now being served
    std::vector<BigInteger> left(m);           // per edge: the units that tree still needs
    std::vector<Rational> left_slices(rational_slots ? m : 0);  // rational_slots: the slices it still needs
    auto advance = [&](size_t e) {
      while (next_tree[e] < trees.size() && uses[next_tree[e]][e] == 0) ++next_tree[e];
      if (next_tree[e] >= trees.size()) return;
      if (rational_slots) {
        left_slices[e] = Rational(count[next_tree[e]] * uses[next_tree[e]][e]);
      } else {
        left[e] = count[next_tree[e]] * uses[next_tree[e]][e] * time[e].get_num();
      }
    };
    for (size_t e = 0; e < m; ++e) {
      if (sgn(carried[e]) != 0) advance(e);
    }
    plan.slots.reserve(colouring.matchings.size() + 1);  // a Slot moves by copying (mpq_class's move may throw)
    BigInteger units, take;
    for (const auto& matching : colouring.matchings) {
      Slot slot;
      slot.length = matching.length;
      for (int index : matching.edges) {
        auto e = edge_of[static_cast<size_t>(index)];
        const auto& edge = platform.edges()[e];
        if (rational_slots) {
          Rational slices = matching.length / time[e];  // what the slot carries on this edge
          while (sgn(slices) > 0 && next_tree[e] < trees.size()) {
            Rational messages = slices < left_slices[e] ? slices : left_slices[e];
            slices -= messages;
            left_slices[e] -= messages;
            slot.transfers.push_back({edge.from, edge.to, MessageType::broadcast(), std::move(messages),
                                      static_cast<int>(next_tree[e])});
            if (sgn(left_slices[e]) == 0) {
              ++next_tree[e];
              advance(e);
            }
          }
          if (sgn(slices) > 0) {
            throw std::logic_error("periodic_broadcast_schedule: the colouring gives an edge more time than its trees use");
          }
          continue;
        }
        units = whole_number(matching.length * time[e].get_den());
        while (sgn(units) > 0 && next_tree[e] < trees.size()) {
          take = units < left[e] ? units : left[e];
          Rational messages(take, time[e].get_num());
          messages.canonicalize();
          if (slot.transfers.size() == slot.transfers.capacity()) {
            // Grow by moving (vector would copy: mpq_class's move is not noexcept).
            std::vector<PeriodicTransfer> larger;
            larger.reserve(2 * slot.transfers.size() + 8);
            for (auto& transfer : slot.transfers) larger.push_back(std::move(transfer));
            slot.transfers.swap(larger);
          }
          slot.transfers.push_back({edge.from, edge.to, MessageType::broadcast(), std::move(messages),
                                    static_cast<int>(next_tree[e])});
          units -= take;
          left[e] -= take;
          if (sgn(left[e]) == 0) {
            ++next_tree[e];
            advance(e);
          }
        }
        if (sgn(units) > 0) {
          throw std::logic_error("periodic_broadcast_schedule: the colouring gives an edge more time than its trees use");
        }
      }
      plan.slots.push_back(std::move(slot));
    }
    plan.steady_stats.matchings = static_cast<int>(plan.slots.size());
  }
  if (!free_transfers.empty()) {
    if (plan.slots.empty()) plan.slots.push_back(Slot{Rational(0), {}});
    auto& first = plan.slots.front().transfers;
    first.insert(first.end(), free_transfers.begin(), free_transfers.end());
  }
  // The slots fill the period: idle time (no port busy) is a slot without
  // transfers.
  Rational used = 0;
  for (const auto& slot : plan.slots) used += slot.length;
  if (used < Rational(period)) plan.slots.push_back(Slot{Rational(Rational(period) - used), {}});
  // A zero-length first slot (free transfers only) takes the idle time.
  if (!plan.slots.empty() && sgn(plan.slots.front().length) == 0 && plan.slots.size() > 1 &&
      plan.slots.back().transfers.empty()) {
    plan.slots.front().length = plan.slots.back().length;
    plan.slots.pop_back();
  }
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

PeriodicPlan practical_multi_tree_schedule(const Platform& platform, ProcessorIndex source,
                                           const std::vector<double>& slice_times, const SsbSolution& optimum,
                                           const MultiTreePacking& packing, const BigInteger& period,
                                           const BigInteger& exact_period) {
  std::vector<WeightedBroadcastTree> rounded;
  for (const auto& tree : packing.trees) {
    const BigInteger slices = floor_of(tree.weight * Rational(period));
    if (sgn(slices) == 0) continue;
    rounded.push_back({Rational(slices) / Rational(period), tree.tree});
  }
  if (rounded.empty()) {
    throw InputError(fmt::format("period_max: {} is too small: rounding the trees down keeps no slice per period (the "
                                 "exact period is {})",
                                 period.get_str(), exact_period.get_str()));
  }
  PeriodicPlan plan = periodic_broadcast_schedule(platform, source, slice_times, rounded, /*rational_slots=*/true);
  // The weights' lcm divides the period; the schedule runs over the period asked for.
  if (plan.period != period) {
    const Rational scale = Rational(period) / Rational(plan.period);
    for (auto& slot : plan.slots) {
      slot.length *= scale;
      for (auto& transfer : slot.transfers) transfer.messages *= scale;
    }
    for (auto& flow : plan.flows) flow.messages *= scale;
    plan.period = period;
    plan.operations_per_period = whole_number(plan.throughput * Rational(period));
  }
  plan.algorithm = "ssb-multi-tree";
  plan.targets = optimum.targets;
  plan.throughput_bound = optimum.throughput;
  plan.certificate = optimum.certificate;
  plan.period_limit = period;
  plan.exact_period = exact_period;
  plan.loss_bound = Rational(BigInteger(static_cast<unsigned long>(packing.trees.size()))) / Rational(period);
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
