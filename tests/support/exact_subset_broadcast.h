// A second, deliberately simple exact broadcast search over a subset of
// receivers, independent of the library's searches, used by the tests to
// cross-check them (and the PTAS) on small instances.
//
// Search: depth-first over the class (distinct time) of the next receiver
// (Liu 2002 eq. 1 / Thm 4.1: an optimal schedule is a receive order, each
// receiver served by the holder that can finish first); processors of
// equal time are interchangeable. Bound: every remaining receiver made as
// fast as the fastest remaining one, served greedily — the exact optimum of
// that relaxation. No limits: for small instances only (r! worst case).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll::testing {

struct SubsetSearchResult {
  std::vector<Transfer> transfers;  // empty when nothing beats the incumbent
  double makespan = std::numeric_limits<double>::infinity();
  std::uint64_t nodes = 0;
};

// The exact broadcast from `source` to exactly `receivers`; finds a
// schedule strictly better than `incumbent` if one exists.
SubsetSearchResult exact_subset_broadcast(const Cluster& cluster, ProcessorIndex source,
                                          const std::vector<ProcessorIndex>& receivers,
                                          double incumbent = std::numeric_limits<double>::infinity());

}  // namespace hetcoll::testing
