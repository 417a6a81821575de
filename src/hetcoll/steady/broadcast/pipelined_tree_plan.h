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
#include "hetcoll/steady/broadcast/slice_makespan.h"
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
  SearchLimits search_limits = default_tree_search_limits();
};

struct PipelinedTreePlan {
  std::string heuristic;
  std::string heuristic_reference;
  BroadcastModel model = BroadcastModel::one_port;
  ProcessorIndex source = kNoProcessor;
  std::optional<double> slice_size;
  bool slice_size_chosen = false;      // picked by best_slice_size, not given
  // The prediction kept falling with smaller slices (links without latency):
  // the fewest slices within 1% of the finest slicing's makespan were taken.
  bool slice_size_within_one_percent = false;
  BroadcastTree tree;
  TreeEvaluation evaluation;
  std::optional<double> optimal_throughput;
  std::optional<bool> search_finished;  // "optimal" only
  std::optional<SearchStatus> search_status;  // "optimal" only
  std::uint64_t search_nodes = 0;
  std::optional<double> message_size;
  std::optional<SliceMakespan> makespan;
  bool valid = false;                   // verify_broadcast_tree's verdict
  std::string violations;
};

// Throws InputError (unknown heuristic, missing slice size, LP heuristic
// without rates) and NoSolutionError (a participant unreachable).
PipelinedTreePlan plan_pipelined_tree(const Platform& platform, const PipelinedTreeRequest& request);

}  // namespace hetcoll
