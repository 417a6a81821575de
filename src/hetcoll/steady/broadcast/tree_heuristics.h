// The registry of pipelined broadcast-tree heuristics (Beaumont, Marchal,
// Robert 2004 Algs. 1-7 and ours), by name: what `hetcoll tree --heuristic`
// dispatches through and what the bcast-trees experiment iterates over.
//
// Every heuristic takes a TreeProblem (platform, source, slice times and
// port model; the LP-based ones also the SSB LP's edge rates) and returns a
// tree reaching every participant. Throws NoSolutionError when a participant
// cannot be reached from the source.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/steady/broadcast/tree_building.h"

namespace hetcoll {

struct TreeHeuristic {
  std::string name;        // "refined-prune"
  std::string paper_name;  // "Topo-Prune-Degree" (the paper's figure labels), or "ours"
  std::string reference;   // "Beaumont, Marchal, Robert 2004, Alg. 2"
  std::string summary;
  bool needs_lp = false;   // reads TreeProblem::lp_edge_rates
  std::function<BroadcastTree(const TreeProblem&)> build;
};

// In a fixed order: simple-prune, refined-prune, grow, binomial,
// multiport-grow, multiport-prune, lp-prune, lp-grow, improve.
const std::vector<TreeHeuristic>& tree_heuristics();
const TreeHeuristic* find_tree_heuristic(std::string_view name);

// The default single-tree method: local improvement (local_improvement.h)
// started from every other heuristic's tree that applies (the LP-based ones
// when lp_edge_rates is set).
BroadcastTree best_single_tree(const TreeProblem& problem);

}  // namespace hetcoll
