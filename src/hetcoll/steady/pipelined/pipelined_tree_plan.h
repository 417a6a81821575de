// One-shot planning of a pipelined broadcast along a single tree: what
// `hetcoll tree` prints (docs/FORMATS.md "Pipelined broadcast plans").
//
// Builds the tree with the named heuristic (tree_heuristics.h) or, for
// "optimal", the exact search (optimal_tree_search.h), evaluates it under the
// port model, checks it with verify/, and, given a message size, predicts the
// whole broadcast's makespan (slice_makespan.h) and picks the best slice size
// when none is given. `lp_edge_rates` and `optimal_throughput` come from the
// SSB linear program when the caller solved it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hetcoll/steady/broadcast/optimal_tree_search.h"
#include "hetcoll/steady/pipelined/slice_makespan.h"
#include "hetcoll/steady/broadcast/tree_building.h"

namespace hetcoll {

struct PipelinedTreeRequest {
  ProcessorIndex source = 0;
  std::string heuristic = "improve";  // a tree_heuristics() name, or "optimal"
  BroadcastModel model = BroadcastModel::one_port;
  std::optional<double> slice_size;    // bytes
  std::optional<double> message_size;  // bytes
  std::vector<double> lp_edge_rates;   // for lp-prune / lp-grow
  std::optional<double> optimal_throughput;  // the multi-tree optimum, to print the ratio
  // "optimal" only: the search's limits (core/limits.h); a stop at one is
  // reported in search_status, with the best tree found.
  // One budget for the whole call: every build of the tree (the slice-size
  // rounds), the optimal search's starting tree included.
  SearchLimits search_limits = default_tree_search_limits();
};

// PipelinedTreePlan (what it returns): plan/pipelined_tree_plan.h.

// Throws InputError (unknown heuristic, missing slice size, LP heuristic
// without rates) and NoSolutionError (a participant unreachable).
PipelinedTreePlan plan_pipelined_tree(const Platform& platform, const PipelinedTreeRequest& request);

}  // namespace hetcoll
