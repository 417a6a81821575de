// Local improvement of a broadcast tree by re-hanging subtrees (ours; goes
// beyond Beaumont, Marchal, Robert 2004, whose best heuristics reach 70-82%
// of the multi-tree optimum).
//
// State: a spanning tree of platform edges (every node but the source has a
// parent edge). Move: give node v another parent u over a platform edge
// (u, v), u not in v's subtree; only v's old parent, u and v change period.
// A move is taken when it makes the vector of node periods, sorted in
// non-increasing order, lexicographically smaller: the tree's period never
// grows, the bottleneck is attacked first, and as every move strictly
// decreases a finite order the descent ends. Comparing the two sorted
// vectors needs only the three changed values (the largest value in the
// symmetric difference decides), so a move is tested in O(depth) time.
// First improvement in (node, edge) index order.
//
// improve_tree() runs the descent from each given start tree, then
// `perturbations` rounds of random kicks (re-hang `kick_size` random nodes to
// random feasible parents, descend again, keep the result when it is better),
// seeded so the result is the same on every run. Returns the best tree by
// the lexicographic order above. Guarantee: none (heuristic), never worse
// than its best start tree. Time: O(rounds x moves x m x depth) in the worst
// case.
// Start trees with routed edges (Alg. 4) are skipped.
#pragma once

#include <cstdint>
#include <vector>

#include "hetcoll/steady/broadcast/tree_building.h"

namespace hetcoll {

struct ImprovementOptions {
  int perturbations = 40;
  int kick_size = 3;
  std::uint64_t seed = 1;
};

BroadcastTree improve_tree(const TreeProblem& problem, const std::vector<BroadcastTree>& starts,
                           const ImprovementOptions& options = {});

}  // namespace hetcoll
