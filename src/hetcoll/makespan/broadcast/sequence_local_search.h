// Pairwise-interchange local search over receiver sequences — the first
// incumbent of the exact broadcast search (optimal_search.h) when every
// processor has its own time.
//
// Problem: sender-speed cluster, a source, a receiver sequence; its
// schedule is the no-delay one (Liu 2002 eq. 1, Thm 4.1: the i-th receiver
// is served by the holder whose next send ends first). Starting from the
// given sequence (FNF's), swap two receivers of different times whenever
// the swap shortens the makespan (first improvement, rescanning from the
// start), until no swap does or the evaluation budget is spent.
// Guarantee: the result is never longer than the start (so FNF's
// guarantees hold: <= 2 x optimal, Liu 2002 Thm 4.7; <= 1.5 from a fastest
// source); no other. It only feeds the search a better first incumbent:
// on issue 13's all-distinct instances FNF is often 3-8% above the
// optimum, and the search's bisection passes start from that gap
// (docs/RESULTS.md).
// Complexity: O(n log n) per evaluation (a heap of holders), at most
// `max_evaluations` of them; O(n) memory.
// Reference: pairwise interchange is the classical neighbourhood of
// sequencing local search (e.g. Aarts, Lenstra, "Local Search in
// Combinatorial Optimization", 1997, ch. 1).
#pragma once

#include <cstddef>
#include <vector>

#include "hetcoll/model/cluster.h"

namespace hetcoll {

// The makespan of the no-delay schedule of `sequence` from `source` (ties:
// the faster sender serves; exact time comparisons).
double no_delay_makespan(const Cluster& cluster, ProcessorIndex source, const std::vector<ProcessorIndex>& sequence);

// Improves `sequence` in place by pairwise interchanges; returns its
// makespan (no_delay_makespan). Only improvements larger than the cluster
// tolerance are taken.
double improve_sequence_by_swaps(const Cluster& cluster, ProcessorIndex source, std::vector<ProcessorIndex>& sequence,
                                 std::size_t max_evaluations);

}  // namespace hetcoll
