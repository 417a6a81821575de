#include "hetcoll/steady/broadcast/tree_building.h"

#include <limits>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/shortest_paths.h"

namespace hetcoll {

ReachabilityPruner::ReachabilityPruner(const TreeProblem& problem)
    : problem_(problem),
      alive_(problem.graph().edges().size(), 1),
      seen_(static_cast<size_t>(problem.graph().size()), 0) {}

bool ReachabilityPruner::all_participants_reached_without(std::size_t removed) const {
  const auto& platform = problem_.graph();
  std::fill(seen_.begin(), seen_.end(), 0);
  queue_.clear();
  queue_.push_back(problem_.source);
  seen_[static_cast<size_t>(problem_.source)] = 1;
  for (size_t head = 0; head < queue_.size(); ++head) {
    for (auto e : platform.out_edges(queue_[head])) {
      if (e == removed || !alive_[e]) continue;
      auto to = platform.edges()[e].to;
      if (!seen_[static_cast<size_t>(to)]) {
        seen_[static_cast<size_t>(to)] = 1;
        queue_.push_back(to);
      }
    }
  }
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    if (!seen_[static_cast<size_t>(v)] && !platform.node(v).router) return false;
  }
  return true;
}

bool ReachabilityPruner::try_remove(std::size_t edge) {
  if (!alive_[edge]) return false;
  if (!all_participants_reached_without(edge)) return false;
  alive_[edge] = 0;
  return true;
}

BroadcastTree ReachabilityPruner::tree() const {
  const auto& platform = problem_.graph();
  std::vector<size_t> order;
  std::fill(seen_.begin(), seen_.end(), 0);
  queue_.assign(1, problem_.source);
  seen_[static_cast<size_t>(problem_.source)] = 1;
  for (size_t head = 0; head < queue_.size(); ++head) {
    for (auto e : platform.out_edges(queue_[head])) {
      auto to = platform.edges()[e].to;
      if (!alive_[e] || seen_[static_cast<size_t>(to)]) continue;
      seen_[static_cast<size_t>(to)] = 1;
      queue_.push_back(to);
      order.push_back(e);
    }
  }
  return trim_router_leaves(platform, tree_from_edges(problem_.source, platform, order));
}

BroadcastTree grow_tree_by_key(const TreeProblem& problem, const GrowthKey& key, const GrowthUpdate& added) {
  const auto& platform = problem.graph();
  std::vector<char> in_tree(static_cast<size_t>(platform.size()), 0);
  in_tree[static_cast<size_t>(problem.source)] = 1;
  std::vector<size_t> chosen;
  for (;;) {
    size_t best = kNoEdge;
    double best_key = std::numeric_limits<double>::infinity();
    for (size_t e = 0; e < platform.edges().size(); ++e) {
      const auto& edge = platform.edges()[e];
      if (!in_tree[static_cast<size_t>(edge.from)] || in_tree[static_cast<size_t>(edge.to)]) continue;
      double k = key(e);
      if (best == kNoEdge || k < best_key) {
        best = e;
        best_key = k;
      }
    }
    if (best == kNoEdge) break;
    chosen.push_back(best);
    added(best);
    in_tree[static_cast<size_t>(platform.edges()[best].to)] = 1;
  }
  return trim_router_leaves(platform, tree_from_edges(problem.source, platform, chosen));
}

BroadcastTree trim_router_leaves(const Platform& platform, BroadcastTree tree) {
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<int> children(static_cast<size_t>(platform.size()), 0);
    for (const auto& edge : tree.edges) ++children[static_cast<size_t>(edge.from)];
    std::vector<RoutedTreeEdge> kept;
    for (auto& edge : tree.edges) {
      if (platform.node(edge.to).router && children[static_cast<size_t>(edge.to)] == 0) {
        changed = true;
      } else {
        kept.push_back(std::move(edge));
      }
    }
    tree.edges = std::move(kept);
  }
  return tree;
}

void require_all_reachable(const TreeProblem& problem) {
  const auto& platform = problem.graph();
  std::vector<char> seen(static_cast<size_t>(platform.size()), 0);
  std::vector<ProcessorIndex> queue{problem.source};
  seen[static_cast<size_t>(problem.source)] = 1;
  for (size_t head = 0; head < queue.size(); ++head) {
    for (auto e : platform.out_edges(queue[head])) {
      auto to = platform.edges()[e].to;
      if (!seen[static_cast<size_t>(to)]) {
        seen[static_cast<size_t>(to)] = 1;
        queue.push_back(to);
      }
    }
  }
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    if (!seen[static_cast<size_t>(v)] && !platform.node(v).router) {
      throw NoSolutionError(fmt::format("node {} cannot be reached from the source {}", platform.id(v),
                                        platform.id(problem.source)));
    }
  }
}

}  // namespace hetcoll
