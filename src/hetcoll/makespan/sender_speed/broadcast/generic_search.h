// The seed's generic branch-and-bound for broadcast — Liu 2002 sec. 5, the
// "generic branch-and-bound" columns of Table 1 — kept as the baseline the
// optimal search (optimal_search.h) is measured against, side by side.
//
// Problem: optimal broadcast from a given source to a set of receivers
// (sender-speed model). Search: depth-first over the sequences of receiver
// *classes* (distinct transmission times, equal up to the cluster
// tolerance), each prefix timed by Liu 2002 eq. 1 (the next receiver is
// served by the holder whose next send ends first); classes are tried
// fastest first, so the first leaf is the FNF sequence. The only pruning is
// the incumbent: a prefix whose next ready time already reaches the best
// makespan found is cut. No incumbent at the start, no dominance rule, no
// bound, no memo — "the standard branch-and-bound technique" of sec. 5.
// The seed's N (Table 1) is the number of class-sequence prefixes, which
// this search would examine without the incumbent.
// Counting: one node per prefix examined (the empty prefix included).
// Guarantee: exact when it finishes (eq. 1 sequences contain an optimal
// schedule, Thm 4.1). Complexity: O(N) nodes x O(n) each in the worst case.
// Limits as in optimal_search.h: best plan so far, limit_reached = true.
#pragma once

#include <limits>
#include <vector>

#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"

namespace hetcoll {

// Same contract as optimal_broadcast() (the incumbent, if finite, is only a
// cut-off: nothing is returned unless strictly better).
BroadcastSearchResult generic_bnb_broadcast(const Cluster& cluster, ProcessorIndex source,
                                            const std::vector<ProcessorIndex>& receivers,
                                            const SearchLimits& limits = {},
                                            double incumbent = std::numeric_limits<double>::infinity());

// `--algo generic-bnb` for broadcast.
MakespanPlan plan_broadcast_generic_bnb(const Cluster& cluster, ProcessorIndex source, const SearchLimits& limits = {});

}  // namespace hetcoll
