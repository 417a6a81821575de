// The papers' generic branch-and-bound for reduce — Liu, Kuo, Wang 2009 sec. 6.2, the
// "generic branch-and-bound" columns of Table 1 — kept as the baseline the
// optimal search (optimal_search.h) is measured against.
//
// Problem: the reduce of ep.h. Search: depth-first over the sequences of
// sender *classes* (the seed's search tree: its size N in Table 1 is the
// number of distinct class-sequence prefixes, e.g. 7,765 expected for
// P = 10 senders of 3 equiprobable classes against 7,852 measured there),
// in class order (fastest first), each prefix timed by EP (Fig. 2, the same
// tie rule as ep.cpp); a prefix whose latest completion already reaches the
// best makespan found is pruned. No incumbent at the start, no dominance
// rule, no memo: "the standard branch-and-bound technique" of sec. 6.2.
// Counting: one node per prefix examined (the empty prefix included).
// Guarantee: exact when it finishes (EP sequences contain an optimal
// schedule, sec. 3). Complexity: O(N) nodes x O(P) each in the worst case.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/makespan/sender_speed/reduce/mcp_tree.h"

namespace hetcoll {

struct GenericReduceSearchResult {
  std::vector<int> class_sequence;  // the best EP sequence of classes found
  double best = std::numeric_limits<double>::infinity();
  SearchStatus status = SearchStatus::finished;
  std::uint64_t nodes = 0;

  bool finished() const { return status == SearchStatus::finished; }
};

// `processor_count` = senders + 1 (the destination); class_times ascending.
GenericReduceSearchResult generic_reduce_search(const std::vector<double>& class_times, const std::vector<int>& counts,
                                                double tolerance, const SearchLimits& limits = {});

// `--algo generic-bnb` for reduce: the better of the best sequence found and
// SNF (so <= 2 x optimal, Thm 2, even when a limit stops it).
MakespanPlan plan_reduce_generic_bnb(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits = {});

}  // namespace hetcoll
