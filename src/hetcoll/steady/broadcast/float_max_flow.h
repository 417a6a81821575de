// Max-flow in doubles (Edmonds-Karp) on a platform graph, shared by the SSB
// cut generation (ssb_lp.cpp) and the multi-tree packing (multi_tree.cpp).
// Only used to find cuts and guide searches: every claim is re-checked with
// exact rationals (exact_max_flow in ssb_lp.h). O(n m^2) time, O(n + m) space.
#pragma once

#include <vector>

#include "hetcoll/model/platform.h"

namespace hetcoll {

struct FloatFlow {
  double value = 0;
  std::vector<double> flow;                 // per platform edge
  std::vector<char> reached_from_source;    // in the final residual graph (the source side of a minimum cut)
};

// Residual capacities below `tolerance` count as saturated.
FloatFlow float_max_flow(const Platform& platform, ProcessorIndex source, ProcessorIndex target,
                         const std::vector<double>& capacity, double tolerance);

}  // namespace hetcoll
