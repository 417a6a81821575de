// Building blocks the broadcast-tree heuristics share (one file per
// heuristic beside this one): the problem they solve, edge deletion that
// keeps every participant reachable from the source (the pruning heuristics,
// Beaumont, Marchal, Robert 2004 Algs. 1, 2, 6), Prim-style growth from the
// source with a heuristic-specific key (Algs. 3, 5, 7), and router trimming.
//
// Tie rule everywhere: equal keys go to the lower platform edge index, so a
// heuristic returns the same tree on every run.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "hetcoll/plan/broadcast_tree.h"

namespace hetcoll {

struct TreeProblem {
  const Platform* platform = nullptr;
  ProcessorIndex source = kNoProcessor;
  TreeCosts costs;
  // n_{u,v} per platform edge from the SSB linear program (eq. 2), for the
  // LP-based heuristics; empty otherwise.
  std::vector<double> lp_edge_rates;

  const Platform& graph() const { return *platform; }
};

// Edge deletion that keeps every participant reachable from the source.
class ReachabilityPruner {
 public:
  explicit ReachabilityPruner(const TreeProblem& problem);

  bool alive(std::size_t edge) const { return alive_[edge]; }
  // Removes `edge` when every participant stays reachable from the source
  // without it; returns whether it did. O(n + m).
  bool try_remove(std::size_t edge);
  // The surviving edges, once no edge can be removed, form an arborescence
  // over the nodes they reach: returned in breadth-first order from the source.
  BroadcastTree tree() const;

 private:
  bool all_participants_reached_without(std::size_t edge) const;

  const TreeProblem& problem_;
  std::vector<char> alive_;
  mutable std::vector<char> seen_;
  mutable std::vector<ProcessorIndex> queue_;
};

// Prim-style growth: starting from the source, repeatedly adds the edge
// (u, v), u in the tree and v not, of smallest `key(edge)` until no node
// outside can be reached; `added(edge)` is called after each addition so the
// heuristic can update the state its key reads. O(n m) key evaluations.
using GrowthKey = std::function<double(std::size_t edge)>;
using GrowthUpdate = std::function<void(std::size_t edge)>;
BroadcastTree grow_tree_by_key(const TreeProblem& problem, const GrowthKey& key, const GrowthUpdate& added);

// Drops routers that lead to no participant (leaves, repeatedly).
BroadcastTree trim_router_leaves(const Platform& platform, BroadcastTree tree);

// Throws NoSolutionError naming a participant the source cannot reach.
void require_all_reachable(const TreeProblem& problem);

}  // namespace hetcoll
