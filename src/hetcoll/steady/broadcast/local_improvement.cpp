#include "hetcoll/steady/broadcast/local_improvement.h"

#include <algorithm>
#include <random>

#include "hetcoll/core/error.h"
#include "hetcoll/model/shortest_paths.h"

namespace hetcoll {
namespace {

// Is the sorted-descending vector with `removed` replaced by `added` smaller?
// Values equal up to a relative 1e-12 cancel.
bool lexicographically_better(std::vector<double> removed, std::vector<double> added) {
  std::sort(removed.rbegin(), removed.rend());
  std::sort(added.rbegin(), added.rend());
  size_t i = 0, j = 0;
  while (i < removed.size() && j < added.size()) {
    double a = removed[i], b = added[j];
    double tolerance = 1e-12 * std::max(a, b);
    if (std::abs(a - b) <= tolerance) {
      ++i;
      ++j;
    } else {
      return a > b;  // the larger distinct value is removed: better
    }
  }
  return i < removed.size() && j == added.size() && removed[i] > 0;
}

class TreeState {
 public:
  TreeState(const TreeProblem& problem, const BroadcastTree& tree)
      : problem_(&problem), platform_(&problem.graph()), n_(static_cast<size_t>(problem.graph().size())) {
    parent_edge_.assign(n_, kNoEdge);
    children_.assign(n_, {});
    in_tree_.assign(n_, 0);
    in_tree_[static_cast<size_t>(problem.source)] = 1;
    for (const auto& edge : tree.edges) {
      auto e = edge.route.front();
      parent_edge_[static_cast<size_t>(edge.to)] = e;
      children_[static_cast<size_t>(edge.from)].push_back(e);
      in_tree_[static_cast<size_t>(edge.to)] = 1;
    }
    period_.assign(n_, 0.0);
    for (size_t v = 0; v < n_; ++v) period_[v] = node_period(v, children_[v], parent_edge_[v]);
  }

  // Period of node v with these children edges and parent edge.
  double node_period(size_t v, const std::vector<size_t>& children, size_t parent_edge) const {
    const auto& time = problem_->costs.edge_time;
    NodeLoad load;
    if (parent_edge != kNoEdge) load.in_sum = load.in_longest = time[parent_edge];
    for (auto e : children) load = load.with_send(time[e]);
    return hetcoll::node_period(problem_->costs, static_cast<ProcessorIndex>(v), load);
  }

  bool in_subtree(ProcessorIndex u, ProcessorIndex v) const {  // is u in v's subtree?
    for (ProcessorIndex w = u; w != problem_->source; w = platform_->edges()[parent_edge_[static_cast<size_t>(w)]].from) {
      if (w == v) return true;
    }
    return u == v;
  }

  // Tries edge e = (u, v) as v's new parent edge; applies it when better.
  bool try_move(size_t e, bool only_if_better) {
    const auto& link = platform_->edges()[e];
    auto u = static_cast<size_t>(link.from), v = static_cast<size_t>(link.to);
    if (link.to == problem_->source || !in_tree_[u] || !in_tree_[v]) return false;
    size_t old_edge = parent_edge_[v];
    if (old_edge == e) return false;
    auto p = static_cast<size_t>(platform_->edges()[old_edge].from);
    if (p == u) return false;
    if (in_subtree(link.from, link.to)) return false;
    auto p_children = children_[p];
    p_children.erase(std::find(p_children.begin(), p_children.end(), old_edge));
    auto u_children = children_[u];
    u_children.push_back(e);
    double new_p = node_period(p, p_children, parent_edge_[p]);
    double new_u = node_period(u, u_children, parent_edge_[u]);
    double new_v = node_period(v, children_[v], e);
    if (only_if_better && !lexicographically_better({period_[p], period_[u], period_[v]}, {new_p, new_u, new_v})) {
      return false;
    }
    children_[p] = std::move(p_children);
    children_[u] = std::move(u_children);
    parent_edge_[v] = e;
    period_[p] = new_p;
    period_[u] = new_u;
    period_[v] = new_v;
    return true;
  }

  void descend() {
    for (bool moved = true; moved;) {
      moved = false;
      for (size_t e = 0; e < platform_->edges().size(); ++e) moved |= try_move(e, true);
    }
  }

  void kick(std::mt19937_64& rng, int count) {
    std::uniform_int_distribution<size_t> pick_node(0, n_ - 1);
    for (int k = 0; k < count; ++k) {
      auto v = static_cast<ProcessorIndex>(pick_node(rng));
      const auto& incoming = platform_->in_edges(v);
      if (incoming.empty()) continue;
      std::uniform_int_distribution<size_t> pick_edge(0, incoming.size() - 1);
      try_move(incoming[pick_edge(rng)], false);
    }
  }

  std::vector<double> sorted_periods() const {
    auto periods = period_;
    std::sort(periods.rbegin(), periods.rend());
    return periods;
  }

  BroadcastTree tree() const {
    // Breadth-first from the source, so parents come before children.
    std::vector<size_t> order;
    std::vector<ProcessorIndex> queue{problem_->source};
    for (size_t head = 0; head < queue.size(); ++head) {
      for (auto e : children_[static_cast<size_t>(queue[head])]) {
        order.push_back(e);
        queue.push_back(platform_->edges()[e].to);
      }
    }
    return trim_router_leaves(*platform_, tree_from_edges(problem_->source, *platform_, order));
  }

 private:
  // Pointers, not references: states are copied and assigned.
  const TreeProblem* problem_;
  const Platform* platform_;
  size_t n_;
  std::vector<size_t> parent_edge_;
  std::vector<std::vector<size_t>> children_;
  std::vector<char> in_tree_;
  std::vector<double> period_;
};

bool physical(const BroadcastTree& tree) {
  return std::all_of(tree.edges.begin(), tree.edges.end(), [](const RoutedTreeEdge& e) { return e.route.size() == 1; });
}

}  // namespace

BroadcastTree improve_tree(const TreeProblem& problem, const std::vector<BroadcastTree>& starts,
                           const ImprovementOptions& options) {
  std::optional<TreeState> best;
  std::vector<double> best_periods;
  auto consider = [&](const TreeState& state) {
    auto periods = state.sorted_periods();
    if (!best || std::lexicographical_compare(periods.begin(), periods.end(), best_periods.begin(),
                                              best_periods.end())) {
      best = state;
      best_periods = std::move(periods);
    }
  };
  for (const auto& start : starts) {
    if (!physical(start) || start.source != problem.source) continue;
    TreeState state(problem, start);
    state.descend();
    consider(state);
  }
  if (!best) throw InputError("starts: local improvement needs at least one tree of platform edges");
  std::mt19937_64 rng(options.seed);
  for (int round = 0; round < options.perturbations; ++round) {
    TreeState state = *best;
    state.kick(rng, options.kick_size);
    state.descend();
    consider(state);
  }
  return best->tree();
}

}  // namespace hetcoll
