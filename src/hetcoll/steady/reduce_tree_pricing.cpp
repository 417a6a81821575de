#include "hetcoll/steady/reduce_tree_pricing.h"
#include "hetcoll/core/elapsed.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <type_traits>
#include <utility>


namespace hetcoll {

namespace {

constexpr int kOwnValue = -2;     // via: the owner's own value
constexpr int kUnreached = -1;    // via: no way to have this type here
constexpr int kRoundCap = 20000;  // floating pricing rounds
constexpr int kExactPricingRounds = 20;  // trees added by the exact pricing

// A tree: how many times it uses each send and task column.
using Tree = std::map<int, long>;

class TreePricing {
 public:
  TreePricing(const lp::Model& model, const ReduceLpIndex& index) : model_(model), index_(index) {
    const auto n = static_cast<std::size_t>(index.nodes);
    types_ = index.participants * (index.participants + 1) / 2;
    const auto types = static_cast<std::size_t>(types_);
    out_.resize(types * n);
    splits_.resize(static_cast<std::size_t>(index.participants) * types);
    column_role_.assign(static_cast<std::size_t>(model.column_count()), 0);
    for (std::size_t s = 0; s < index.sends.size(); ++s) {
      const auto& send = index.sends[s];
      out_[static_cast<std::size_t>(send.type) * n + static_cast<std::size_t>(send.from)].push_back(s);
      column_role_[static_cast<std::size_t>(send.column)] = static_cast<long>(s) + 1;
    }
    for (std::size_t k = 0; k < index.tasks.size(); ++k) {
      const auto& task = index.tasks[k];
      const auto type = static_cast<std::size_t>(partial_index(index.participants, task.first, task.last));
      splits_[static_cast<std::size_t>(task.position) * types + type].push_back(k);
      column_role_[static_cast<std::size_t>(task.column)] = -static_cast<long>(k) - 1;
    }
    // Edges (from, to) that carry sends, and the send column of each type on each.
    std::map<std::pair<ProcessorIndex, ProcessorIndex>, int> edge_id;
    for (const auto& send : index.sends) {
      auto [it, inserted] = edge_id.try_emplace({send.from, send.to}, static_cast<int>(edge_ends_.size()));
      if (inserted) {
        edge_ends_.push_back({send.from, send.to});
        edge_column_.push_back(send.column);
      }
    }
    send_column_.assign(types * edge_ends_.size(), -1);
    for (const auto& send : index.sends) {
      const auto e = static_cast<std::size_t>(edge_id.at({send.from, send.to}));
      send_column_[static_cast<std::size_t>(send.type) * edge_ends_.size() + e] = send.column;
    }
    out_edges_.resize(n);
    for (std::size_t e = 0; e < edge_ends_.size(); ++e) out_edges_[static_cast<std::size_t>(edge_ends_[e].first)].push_back(e);
    std::vector<int> master_row(static_cast<std::size_t>(model.row_count()), -1);
    for (std::size_t r = 0; r < index.resource_rows.size(); ++r) {
      master_row[static_cast<std::size_t>(index.resource_rows[r])] = static_cast<int>(r);
    }
    usage_.resize(static_cast<std::size_t>(model.column_count()));
    usage_double_.resize(static_cast<std::size_t>(model.column_count()));
    for (int j = 0; j < model.column_count(); ++j) {
      for (const auto& [row, value] : model.column(j)) {
        if (int r = master_row[static_cast<std::size_t>(row)]; r >= 0) {
          usage_[static_cast<std::size_t>(j)].emplace_back(r, value);
          usage_double_[static_cast<std::size_t>(j)].emplace_back(r, value.get_d());
        }
      }
    }
  }

  // Cheapest ways to have each type on each node, for row prices `prices`.
  template <class Number>
  struct Labels {
    std::vector<Number> cost;  // per node * types + type
    std::vector<int> via;      // column, kOwnValue or kUnreached
  };

  template <class Number>
  Labels<Number> cheapest(const std::vector<Number>& prices) const {
    const auto n = static_cast<std::size_t>(index_.nodes);
    const auto types = static_cast<std::size_t>(types_);
    std::vector<Number> column_cost(usage_.size(), Number(0));
    for (const auto& send : index_.sends) column_cost[static_cast<std::size_t>(send.column)] = usage_cost(send.column, prices);
    for (const auto& task : index_.tasks) column_cost[static_cast<std::size_t>(task.column)] = usage_cost(task.column, prices);

    Labels<Number> labels{std::vector<Number>(n * types, Number(0)), std::vector<int>(n * types, kUnreached)};
    const auto at = [&](std::size_t v, int type) { return v * types + static_cast<std::size_t>(type); };
    const int count = index_.participants;
    std::vector<char> settled(n);
    std::vector<std::pair<Number, std::size_t>> heap;
    // Max-heap order for the earliest (cheapest, then lowest node) on top.
    const auto later = [](const std::pair<Number, std::size_t>& a, const std::pair<Number, std::size_t>& b) {
      return b.first < a.first || (!(a.first < b.first) && b.second < a.second);
    };
    for (int length = 0; length < count; ++length) {
      for (int first = 0; first + length < count; ++first) {
        const int last = first + length;
        const int type = partial_index(count, first, last);
        if (length == 0) {
          const auto owner = static_cast<std::size_t>(index_.order[static_cast<std::size_t>(first)]);
          labels.via[at(owner, type)] = kOwnValue;
        } else {
          for (int position = 0; position < count; ++position) {
            const auto v = static_cast<std::size_t>(index_.order[static_cast<std::size_t>(position)]);
            for (auto k : splits_[static_cast<std::size_t>(position) * types + static_cast<std::size_t>(type)]) {
              const auto& task = index_.tasks[k];
              const auto left = at(v, partial_index(count, first, task.split));
              const auto right = at(v, partial_index(count, task.split + 1, last));
              if (labels.via[left] == kUnreached || labels.via[right] == kUnreached) continue;
              Number candidate = labels.cost[left] + labels.cost[right] + column_cost[static_cast<std::size_t>(task.column)];
              const auto here = at(v, type);
              if (labels.via[here] == kUnreached || candidate < labels.cost[here]) {
                labels.cost[here] = std::move(candidate);
                labels.via[here] = task.column;
              }
            }
          }
        }
        // Dijkstra over this type's edges (a binary heap of reached labels;
        // ties settle the lower node first, as the linear scan did).
        std::fill(settled.begin(), settled.end(), 0);
        heap.clear();
        for (std::size_t v = 0; v < n; ++v) {
          if (labels.via[at(v, type)] != kUnreached) heap.push_back({labels.cost[at(v, type)], v});
        }
        std::make_heap(heap.begin(), heap.end(), later);
        while (!heap.empty()) {
          std::pop_heap(heap.begin(), heap.end(), later);
          const std::size_t best = heap.back().second;
          const bool stale = settled[best] || heap.back().first != labels.cost[at(best, type)];
          heap.pop_back();
          if (stale) continue;
          settled[best] = 1;
          for (auto s : out_[static_cast<std::size_t>(type) * n + best]) {
            const auto& send = index_.sends[s];
            const auto to = static_cast<std::size_t>(send.to);
            if (settled[to]) continue;
            Number candidate = labels.cost[at(best, type)] + column_cost[static_cast<std::size_t>(send.column)];
            if (labels.via[at(to, type)] == kUnreached || candidate < labels.cost[at(to, type)]) {
              labels.cost[at(to, type)] = candidate;
              labels.via[at(to, type)] = send.column;
              heap.push_back({std::move(candidate), to});
              std::push_heap(heap.begin(), heap.end(), later);
            }
          }
        }
      }
    }
    return labels;
  }

  // The cheapest tree in floating point, without labels on every node: an
  // edge costs the same for every message type, so shortest paths from each
  // participant (Dijkstra, never re-entering it) serve every type, and a
  // type's label at participant p is the cheapest over participants q of
  // (its cost made at q: own value or a task) + dist(q, p). Only the
  // participants' labels feed tasks and the root's result. Same optimum as
  // cheapest<double>; returns the cost and the tree (empty when a path
  // would need a send column the LP excludes).
  std::pair<double, Tree> cheapest_tree(const std::vector<double>& prices) const {
    const auto n = static_cast<std::size_t>(index_.nodes);
    const int count = index_.participants;
    const auto parts = static_cast<std::size_t>(count);
    const auto edges = edge_ends_.size();
    std::vector<double> length(edges);
    for (std::size_t e = 0; e < edges; ++e) length[e] = std::max(0.0, usage_cost(edge_column_[e], prices));
    constexpr double kInfinity = std::numeric_limits<double>::infinity();
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    // dist[q * parts + p], parent[q * n + v] (the edge into v on q's tree).
    std::vector<double> dist(parts * parts, kInfinity);
    std::vector<std::size_t> parent(parts * n, kNone);
    std::vector<double> distance(n);
    using Item = std::pair<double, std::size_t>;
    std::vector<Item> heap;
    for (std::size_t q = 0; q < parts; ++q) {
      const auto source = static_cast<std::size_t>(index_.order[q]);
      std::fill(distance.begin(), distance.end(), kInfinity);
      distance[source] = 0;
      heap.assign(1, {0.0, source});
      while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), std::greater<>());
        const auto [d, v] = heap.back();
        heap.pop_back();
        if (d > distance[v]) continue;
        for (auto e : out_edges_[v]) {
          const auto to = static_cast<std::size_t>(edge_ends_[e].second);
          if (to == source || d + length[e] >= distance[to]) continue;
          distance[to] = d + length[e];
          parent[q * n + to] = e;
          heap.push_back({distance[to], to});
          std::push_heap(heap.begin(), heap.end(), std::greater<>());
        }
      }
      for (std::size_t p = 0; p < parts; ++p) dist[q * parts + p] = distance[static_cast<std::size_t>(index_.order[p])];
    }
    const auto types = static_cast<std::size_t>(types_);
    std::vector<double> column_cost(usage_.size(), 0.0);
    for (const auto& task : index_.tasks) column_cost[static_cast<std::size_t>(task.column)] = usage_cost(task.column, prices);
    // Per (participant, type): the label, where it was made (q) and how (task column or kOwnValue).
    std::vector<double> label(parts * types, kInfinity);
    std::vector<int> made_at(parts * types, -1);
    std::vector<int> made_by(parts * types, kUnreached);
    std::vector<double> made(parts);
    std::vector<int> made_with(parts);
    for (int length_of = 0; length_of < count; ++length_of) {
      for (int first = 0; first + length_of < count; ++first) {
        const int last = first + length_of;
        const auto type = static_cast<std::size_t>(partial_index(count, first, last));
        for (std::size_t q = 0; q < parts; ++q) {
          made[q] = kInfinity;
          made_with[q] = kUnreached;
          if (length_of == 0) {
            if (static_cast<int>(q) == first) {
              made[q] = 0;
              made_with[q] = kOwnValue;
            }
            continue;
          }
          for (auto k : splits_[q * types + type]) {
            const auto& task = index_.tasks[k];
            const double left = label[q * types + static_cast<std::size_t>(partial_index(count, first, task.split))];
            const double right = label[q * types + static_cast<std::size_t>(partial_index(count, task.split + 1, last))];
            const double candidate = left + right + column_cost[static_cast<std::size_t>(task.column)];
            if (candidate < made[q]) {
              made[q] = candidate;
              made_with[q] = task.column;
            }
          }
        }
        for (std::size_t p = 0; p < parts; ++p) {
          auto& here = label[p * types + type];
          for (std::size_t q = 0; q < parts; ++q) {
            if (made_with[q] == kUnreached) continue;
            const double candidate = made[q] + (q == p ? 0.0 : dist[q * parts + p]);
            if (candidate < here) {
              here = candidate;
              made_at[p * types + type] = static_cast<int>(q);
              made_by[p * types + type] = made_with[q];
            }
          }
        }
      }
    }
    std::size_t root = parts;
    for (std::size_t p = 0; p < parts; ++p) {
      if (index_.order[p] == index_.root) root = p;
    }
    const auto final_type = static_cast<std::size_t>(partial_index(count, 0, count - 1));
    if (root == parts || made_by[root * types + final_type] == kUnreached) return {kInfinity, {}};
    Tree tree;
    std::vector<std::pair<std::size_t, std::size_t>> pending{{root, final_type}};  // (participant, type)
    while (!pending.empty()) {
      const auto [p, type] = pending.back();
      pending.pop_back();
      const auto q = static_cast<std::size_t>(made_at[p * types + type]);
      // The path q -> p on q's tree, with this type's send columns.
      for (auto v = static_cast<std::size_t>(index_.order[p]); q != p && v != static_cast<std::size_t>(index_.order[q]);) {
        const auto e = parent[q * n + v];
        if (e == kNone) return {kInfinity, {}};
        const int column = send_column_[type * edges + e];
        if (column < 0) return {kInfinity, {}};
        ++tree[column];
        v = static_cast<std::size_t>(edge_ends_[e].first);
      }
      const int column = made_by[p * types + type];
      if (column == kOwnValue) continue;
      ++tree[column];
      const auto& task = index_.tasks[static_cast<std::size_t>(-column_role_[static_cast<std::size_t>(column)] - 1)];
      pending.push_back({q, static_cast<std::size_t>(partial_index(count, task.first, task.split))});
      pending.push_back({q, static_cast<std::size_t>(partial_index(count, task.split + 1, task.last))});
    }
    return {label[root * types + final_type], std::move(tree)};
  }

  std::size_t result_label() const {
    return static_cast<std::size_t>(index_.root) * static_cast<std::size_t>(types_) +
           static_cast<std::size_t>(partial_index(index_.participants, 0, index_.participants - 1));
  }

  // The tree behind a label: its send and task columns, with multiplicity.
  Tree extract(const std::vector<int>& via) const {
    Tree tree;
    const auto types = static_cast<std::size_t>(types_);
    std::vector<std::size_t> pending{result_label()};
    while (!pending.empty()) {
      const auto label = pending.back();
      pending.pop_back();
      const int column = via[label];
      if (column == kOwnValue) continue;
      ++tree[column];
      const long role = column_role_[static_cast<std::size_t>(column)];
      const auto type = static_cast<int>(label % types);
      if (role > 0) {
        const auto& send = index_.sends[static_cast<std::size_t>(role - 1)];
        pending.push_back(static_cast<std::size_t>(send.from) * types + static_cast<std::size_t>(type));
      } else {
        const auto& task = index_.tasks[static_cast<std::size_t>(-role - 1)];
        const auto node = label / types;
        pending.push_back(node * types + static_cast<std::size_t>(partial_index(index_.participants, task.first, task.split)));
        pending.push_back(node * types + static_cast<std::size_t>(partial_index(index_.participants, task.split + 1, task.last)));
      }
    }
    return tree;
  }

  // Appends the tree as a master column: objective 1, its row usage.
  void add_to_master(lp::Model& master, const Tree& tree) const {
    const int column = master.add_column(1);
    for (const auto& [j, times] : tree) {
      for (const auto& [row, value] : usage_[static_cast<std::size_t>(j)]) master.add_entry(row, column, value * times);
    }
  }

 private:
  template <class Number>
  Number usage_cost(int column, const std::vector<Number>& prices) const {
    Number total(0);
    if constexpr (std::is_same_v<Number, double>) {
      for (const auto& [row, value] : usage_double_[static_cast<std::size_t>(column)]) {
        total += value * prices[static_cast<std::size_t>(row)];
      }
    } else {
      for (const auto& [row, value] : usage_[static_cast<std::size_t>(column)]) {
        total += value * prices[static_cast<std::size_t>(row)];
      }
    }
    return total;
  }

  const lp::Model& model_;
  const ReduceLpIndex& index_;
  int types_ = 0;
  std::vector<std::vector<std::size_t>> out_;     // (type, from) -> sends
  std::vector<std::vector<std::size_t>> splits_;  // (position, type) -> tasks
  std::vector<long> column_role_;                 // send s: s + 1; task k: -k - 1; else 0
  std::vector<std::vector<std::pair<int, Rational>>> usage_;  // column -> (master row, coefficient)
  std::vector<std::vector<std::pair<int, double>>> usage_double_;  // the same in doubles, for floating pricing
  std::vector<std::pair<ProcessorIndex, ProcessorIndex>> edge_ends_;  // edges carrying sends
  std::vector<int> edge_column_;               // per edge: one of its send columns (all cost the same)
  std::vector<int> send_column_;               // per type * edges + edge: the send column, -1 when excluded
  std::vector<std::vector<std::size_t>> out_edges_;  // per node
};

}  // namespace

std::optional<lp::Solution> solve_reduce_by_tree_pricing(const lp::Model& model, const ReduceLpIndex& index) {
  // No port or compute row: every tree is free, the throughput unbounded.
  if (index.resource_rows.empty()) return std::nullopt;
  const TreePricing pricing(model, index);
  lp::Model master;
  for (int row : index.resource_rows) master.add_row(model.sense(row), model.rhs(row), model.label(row));
  std::vector<Tree> trees;
  const auto add_tree = [&](Tree tree) {
    pricing.add_to_master(master, tree);
    trees.push_back(std::move(tree));
  };
  // Any tree will do to start: the cheapest at zero prices.
  add_tree(pricing.extract(pricing.cheapest(std::vector<double>(index.resource_rows.size(), 0.0)).via));

  int rounds = 0;
  const lp::PricingOracle oracle = [&](lp::Model&, const std::vector<double>& duals) {
    if (++rounds > kRoundCap) return;
    auto [cost, tree] = pricing.cheapest_tree(duals);
    if (cost < 1 - 1e-9 && !tree.empty()) {
      add_tree(std::move(tree));
      return;
    }
    // The per-node labels (every path the LP allows), when the fast pricer finds nothing.
    const auto labels = pricing.cheapest(duals);
    if (labels.cost[pricing.result_label()] < 1 - 1e-9) add_tree(pricing.extract(labels.via));
  };

  double floating_seconds = 0;
  double exact_seconds = 0;
  int simplex_iterations = 0;
  for (int exact_round = 0; exact_round <= kExactPricingRounds; ++exact_round) {
    auto master_solution = lp::solve_with_pricing(master, oracle);
    floating_seconds += master_solution.floating_seconds;
    exact_seconds += master_solution.exact_seconds;
    simplex_iterations += master_solution.simplex_iterations;
    if (master_solution.status != lp::SolveStatus::optimal) return std::nullopt;

    // Exact pricing with the master's exact duals.
    const auto exact_start = std::chrono::steady_clock::now();
    const auto labels = pricing.cheapest(master_solution.dual);
    if (labels.cost[pricing.result_label()] < 1) {
      add_tree(pricing.extract(labels.via));
      exact_seconds += seconds_since(exact_start);
      continue;
    }
    // The full LP's primal: the trees' columns times their weights.
    lp::Solution solution;
    solution.primal.assign(static_cast<std::size_t>(model.column_count()), Rational(0));
    for (std::size_t t = 0; t < trees.size(); ++t) {
      const auto& weight = master_solution.primal[t];
      if (weight == 0) continue;
      solution.primal[static_cast<std::size_t>(index.throughput_column)] += weight;
      for (const auto& [j, times] : trees[t]) solution.primal[static_cast<std::size_t>(j)] += weight * times;
    }
    // Its dual: the master's prices and minus the cheapest-way labels.
    solution.dual.assign(static_cast<std::size_t>(model.row_count()), Rational(0));
    for (std::size_t r = 0; r < index.resource_rows.size(); ++r) {
      solution.dual[static_cast<std::size_t>(index.resource_rows[r])] = master_solution.dual[r];
    }
    Rational unreached(0);
    for (std::size_t label = 0; label < labels.cost.size(); ++label) {
      if (labels.via[label] != kUnreached && labels.cost[label] > unreached) unreached = labels.cost[label];
    }
    for (std::size_t label = 0; label < index.conservation.size(); ++label) {
      const int row = index.conservation[label];
      if (row < 0) continue;
      solution.dual[static_cast<std::size_t>(row)] = labels.via[label] == kUnreached ? -unreached : -labels.cost[label];
    }
    solution.dual[static_cast<std::size_t>(index.throughput_row)] = -1;
    const auto check = lp::check_optimality(model, solution.primal, solution.dual);
    exact_seconds += seconds_since(exact_start);
    if (!check.ok()) return std::nullopt;
    solution.status = lp::SolveStatus::optimal;
    solution.objective = check.primal_objective;
    solution.floating_objective = master_solution.floating_objective;
    solution.method = "reduction-tree pricing (" + std::to_string(trees.size()) + " trees, " +
                      std::to_string(rounds) + " rounds), master " + master_solution.method +
                      ", exact pricing";
    solution.floating_seconds = floating_seconds;
    solution.exact_seconds = exact_seconds;
    solution.simplex_iterations = simplex_iterations;
    solution.columns_loaded = static_cast<int>(trees.size());
    solution.generation_rounds = rounds;
    return solution;
  }
  return std::nullopt;
}

}  // namespace hetcoll
