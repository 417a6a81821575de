#include "hetcoll/steady/broadcast/tree_heuristics.h"

#include "hetcoll/steady/broadcast/binomial_tree.h"
#include "hetcoll/steady/broadcast/grow_tree.h"
#include "hetcoll/steady/broadcast/local_improvement.h"
#include "hetcoll/steady/broadcast/lp_grow.h"
#include "hetcoll/steady/broadcast/lp_prune.h"
#include "hetcoll/steady/broadcast/multiport_grow.h"
#include "hetcoll/steady/broadcast/refined_prune.h"
#include "hetcoll/steady/broadcast/simple_prune.h"

namespace hetcoll {
namespace {

TreeProblem with_model(const TreeProblem& problem, BroadcastModel model) {
  TreeProblem copy = problem;
  copy.costs.model = model;
  return copy;
}

}  // namespace

BroadcastTree best_single_tree(const TreeProblem& problem) {
  std::vector<BroadcastTree> starts{grow_tree(problem), refined_prune_tree(problem),
                                    multiport_grow_tree(problem),
                                    refined_prune_tree(with_model(problem, BroadcastModel::multi_port))};
  if (problem.lp_edge_rates.size() == problem.graph().edges().size()) {
    starts.push_back(lp_grow_tree(problem));
    starts.push_back(lp_prune_tree(problem));
  }
  return improve_tree(problem, starts);
}

const std::vector<TreeHeuristic>& tree_heuristics() {
  static const std::vector<TreeHeuristic> all = {
      {"simple-prune", "Topo-Prune-Simple", "Beaumont, Marchal, Robert 2004, Alg. 1",
       "delete the heaviest edges while every node stays reachable", false, simple_prune_tree},
      {"refined-prune", "Topo-Prune-Degree", "Beaumont, Marchal, Robert 2004, Alg. 2",
       "delete the heaviest edge of the most loaded node, repeatedly (load per port model)", false,
       refined_prune_tree},
      {"grow", "Topo-Grow-Tree", "Beaumont, Marchal, Robert 2004, Alg. 3",
       "Prim-like growth minimising the sender's weighted out-degree (one-port)", false, grow_tree},
      {"binomial", "Binomial-Tree", "Beaumont, Marchal, Robert 2004, Alg. 4",
       "MPI's binomial tree, transfers routed along shortest paths", false, binomial_tree},
      {"multiport-grow", "Multi-Port Growing Tree", "Beaumont, Marchal, Robert 2004, Alg. 5",
       "Prim-like growth minimising the sender's multi-port period", false, multiport_grow_tree},
      {"multiport-prune", "Multiport-Prune-Degree", "Beaumont, Marchal, Robert 2004, sec. 5.2.2",
       "refined pruning with the multi-port period as the node load", false,
       [](const TreeProblem& problem) { return refined_prune_tree(with_model(problem, BroadcastModel::multi_port)); }},
      {"lp-prune", "LP-Prune", "Beaumont, Marchal, Robert 2004, Alg. 6",
       "delete the edges carrying the fewest slices in the SSB LP", true, lp_prune_tree},
      {"lp-grow", "LP-Grow-Tree", "Beaumont, Marchal, Robert 2004, Alg. 7",
       "Prim-like growth along the edges carrying the most slices in the SSB LP", true, lp_grow_tree},
      {"improve", "ours", "hetcoll (local improvement)",
       "re-hang subtrees to lower the sorted node periods, from every other heuristic's tree, with random kicks",
       false, best_single_tree},
  };
  return all;
}

const TreeHeuristic* find_tree_heuristic(std::string_view name) {
  for (const auto& heuristic : tree_heuristics()) {
    if (heuristic.name == name) return &heuristic;
  }
  return nullptr;
}

}  // namespace hetcoll
