// What the two exact reduce-tree searches (optimal_search.h, top-down;
// bottom_up_search.h) share: their result, their argument checks and their
// tolerance rule.
#pragma once

#include <cstdint>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/makespan/sender_speed/reduce/mcp_tree.h"

namespace hetcoll {

struct ReduceTreeSearchResult {
  McpTree tree;          // the best tree found; empty when nothing beat the incumbent
  double best = 0;       // its length (or the incumbent's)
  // Proven: no tree over the class times is shorter (the given lower bound,
  // raised by failed passes; equals `best` when the search finished).
  double lower_bound = 0;
  bool improved = false;
  // finished: the whole space was searched, `best` is optimal; else why it stopped.
  SearchStatus status = SearchStatus::finished;
  std::uint64_t nodes = 0;
  std::uint64_t memo_hits = 0;

  bool finished() const { return status == SearchStatus::finished; }
};

// Throws
// InputError unless the class times are positive and strictly ascending,
// with one count >= 0 each.
void check_reduce_search_classes(const std::vector<double>& class_times, const std::vector<int>& counts);
// `tolerance` when it is >= 0, else the rule of core/ids.h on the class times.
double reduce_search_tolerance(const std::vector<double>& class_times, double tolerance);

}  // namespace hetcoll
