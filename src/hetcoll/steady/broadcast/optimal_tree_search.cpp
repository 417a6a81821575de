#include "hetcoll/steady/broadcast/optimal_tree_search.h"

#include <algorithm>
#include <limits>

#include "hetcoll/core/error.h"
#include "hetcoll/model/shortest_paths.h"

namespace hetcoll {
namespace {

class TreeSearch {
 public:
  TreeSearch(const TreeProblem& problem, const SearchLimits& limits)
      : problem_(problem), platform_(problem.graph()), budget_(limits) {
    const auto n = static_cast<size_t>(platform_.size());
    parent_edge_.assign(n, kNoEdge);
    children_.assign(n, 0);
    out_sum_.assign(n, 0.0);
    longest_.assign(n, 0.0);
    absent_.assign(n, 0);
    for (ProcessorIndex v = 0; v < platform_.size(); ++v) {
      if (v != problem.source) order_.push_back(v);
    }
    const auto& time = problem.costs.edge_time;
    auto cheapest_in = [&](ProcessorIndex v) {
      double best = std::numeric_limits<double>::infinity();
      for (auto e : platform_.in_edges(v)) best = std::min(best, time[e]);
      return best;
    };
    std::stable_sort(order_.begin(), order_.end(), [&](ProcessorIndex a, ProcessorIndex b) {
      auto da = platform_.in_edges(a).size(), db = platform_.in_edges(b).size();
      if (da != db) return da < db;
      return cheapest_in(a) > cheapest_in(b);
    });
  }

  void set_incumbent(const BroadcastTree& tree, double period) {
    best_period_ = period;
    best_edges_.clear();
    for (const auto& edge : tree.edges) best_edges_.push_back(edge.route.front());
    have_best_ = true;
  }

  bool has_incumbent() const { return have_best_; }

  OptimalTreeResult run() {
    search(0);
    OptimalTreeResult result;
    result.status = budget_.status();
    result.finished = !budget_.stopped();
    result.nodes = budget_.nodes();
    result.period = best_period_;
    result.tree = order_tree(best_edges_);
    return result;
  }

 private:
  NodeLoad load_of(size_t u) const {
    NodeLoad load;
    if (parent_edge_[u] != kNoEdge) load.in_sum = load.in_longest = problem_.costs.edge_time[parent_edge_[u]];
    load.out_sum = out_sum_[u];
    load.out_longest = longest_[u];
    load.out_count = children_[u];
    return load;
  }
  double period_of(size_t u) const { return node_period(problem_.costs, static_cast<ProcessorIndex>(u), load_of(u)); }

  // Would u's ancestor chain (as far as assigned) run into v?
  bool closes_cycle(ProcessorIndex u, ProcessorIndex v) const {
    for (ProcessorIndex w = u; w != problem_.source;) {
      if (w == v) return true;
      auto e = parent_edge_[static_cast<size_t>(w)];
      if (e == kNoEdge) return false;
      w = platform_.edges()[e].from;
    }
    return false;
  }

  void search(size_t depth) {
    if (!budget_.admit(best_period_)) return;
    if (depth == order_.size()) {
      finish_leaf();
      return;
    }
    auto v = order_[depth];
    auto vi = static_cast<size_t>(v);
    const auto& time = problem_.costs.edge_time;
    struct Choice {
      size_t edge;
      double period;
    };
    std::vector<Choice> choices;
    for (auto e : platform_.in_edges(v)) {
      auto u = static_cast<size_t>(platform_.edges()[e].from);
      if (absent_[u]) continue;
      double period = node_period(problem_.costs, static_cast<ProcessorIndex>(u), load_of(u).with_send(time[e]));
      choices.push_back({e, std::max(period, time[e])});
    }
    std::stable_sort(choices.begin(), choices.end(), [](const Choice& a, const Choice& b) { return a.period < b.period; });
    for (const auto& choice : choices) {
      if (have_best_ && choice.period >= best_period_ * (1 - 1e-12)) break;
      auto u = platform_.edges()[choice.edge].from;
      if (closes_cycle(u, v)) continue;
      auto ui = static_cast<size_t>(u);
      parent_edge_[vi] = choice.edge;
      out_sum_[ui] += time[choice.edge];
      ++children_[ui];
      double saved_longest = longest_[ui];
      longest_[ui] = std::max(longest_[ui], time[choice.edge]);
      search(depth + 1);
      longest_[ui] = saved_longest;
      --children_[ui];
      out_sum_[ui] -= time[choice.edge];
      parent_edge_[vi] = kNoEdge;
      if (budget_.stopped()) return;
    }
    if (platform_.node(v).router && children_[vi] == 0) {
      absent_[vi] = 1;
      search(depth + 1);
      absent_[vi] = 0;
    }
  }

  void finish_leaf() {
    // Every assigned chain must reach the source; an absent router has no child.
    double period = 0;
    for (ProcessorIndex v = 0; v < platform_.size(); ++v) {
      auto vi = static_cast<size_t>(v);
      if (absent_[vi] && children_[vi] > 0) return;
      period = std::max(period, period_of(vi));
    }
    if (have_best_ && period >= best_period_) return;
    best_period_ = period;
    best_edges_.clear();
    for (auto e : parent_edge_) {
      if (e != kNoEdge) best_edges_.push_back(e);
    }
    have_best_ = true;
  }

  BroadcastTree order_tree(const std::vector<size_t>& edges) const {
    std::vector<std::vector<size_t>> children(static_cast<size_t>(platform_.size()));
    for (auto e : edges) children[static_cast<size_t>(platform_.edges()[e].from)].push_back(e);
    std::vector<size_t> order;
    std::vector<ProcessorIndex> queue{problem_.source};
    for (size_t head = 0; head < queue.size(); ++head) {
      for (auto e : children[static_cast<size_t>(queue[head])]) {
        order.push_back(e);
        queue.push_back(platform_.edges()[e].to);
      }
    }
    return trim_router_leaves(platform_, tree_from_edges(problem_.source, platform_, order));
  }

  const TreeProblem& problem_;
  const Platform& platform_;
  SearchBudget budget_;
  std::vector<ProcessorIndex> order_;
  std::vector<size_t> parent_edge_;
  std::vector<int> children_;
  std::vector<double> out_sum_, longest_;
  std::vector<char> absent_;
  std::vector<size_t> best_edges_;
  double best_period_ = std::numeric_limits<double>::infinity();
  bool have_best_ = false;
};

}  // namespace

OptimalTreeResult optimal_tree_search(const TreeProblem& problem, const BroadcastTree& initial,
                                      const SearchLimits& limits) {
  require_all_reachable(problem);
  validate_limits(limits);
  TreeSearch search(problem, limits);
  bool physical = std::all_of(initial.edges.begin(), initial.edges.end(),
                              [](const RoutedTreeEdge& e) { return e.route.size() == 1; });
  if (physical && initial.source == problem.source && !initial.edges.empty()) {
    search.set_incumbent(initial, evaluate_tree(problem.graph(), initial, problem.costs).period);
  }
  OptimalTreeResult result = search.run();
  if (!result.finished && !search.has_incumbent() && initial.source == problem.source && !initial.edges.empty()) {
    // Stopped before its first leaf with a routed starting tree (not an
    // incumbent of the edge search): the starting tree is the best known.
    result.tree = initial;
    result.period = evaluate_tree(problem.graph(), initial, problem.costs).period;
  }
  return result;
}

}  // namespace hetcoll
