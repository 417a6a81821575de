// Pairwise-interchange local search over processor orders — the first
// incumbents of the exact broadcast search (optimal_search.h: receiver
// sequences) and reduce search (reduce/optimal_search.h: EP sender orders,
// reduce/ep.h) when every processor has its own time.
//
// Problem: sender-speed cluster, a source, a receiver sequence; its
// schedule is the no-delay one (Liu 2002 eq. 1, Thm 4.1: the i-th receiver
// is served by the holder whose next send ends first). Starting from the
// given sequence (FNF's), swap two receivers of different times whenever
// the swap shortens the makespan (first improvement, rescanning from the
// start), until no swap does or the evaluation budget is spent.
// Guarantee: the result is never longer than the start (so FNF's
// guarantees hold: <= 2 x optimal, Liu 2002 Thm 4.7; <= 1.5 from a fastest
// source; for reduce, SNF's <= 2 x optimal, Liu, Kuo, Wang 2009 Thm 2); no
// other. It only feeds the searches a better first incumbent (on
// all-distinct times FNF and SNF are often above what the swaps reach, and
// the searches' bisection passes start from that gap).
// Complexity: O(n log n) per evaluation (a heap), at most
// `max_evaluations` of them; O(n) memory.
// Reference: pairwise interchange is the classical neighbourhood of
// sequencing local search (e.g. Aarts, Lenstra, "Local Search in
// Combinatorial Optimization", 1997, ch. 1).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "hetcoll/model/cluster.h"

namespace hetcoll {

// The makespan of the no-delay schedule of `sequence` from `source` (ties:
// the faster sender serves; exact time comparisons).
double no_delay_makespan(const Cluster& cluster, ProcessorIndex source, const std::vector<ProcessorIndex>& sequence);

// The generic search: improves `order` in place by interchanging two
// entries that are not `interchangeable` whenever `makespan` drops by more
// than `tolerance`; returns the final makespan.
double improve_order_by_swaps(std::vector<ProcessorIndex>& order,
                              const std::function<double(const std::vector<ProcessorIndex>&)>& makespan,
                              const std::function<bool(ProcessorIndex, ProcessorIndex)>& interchangeable,
                              double tolerance, std::size_t max_evaluations);

// Improves `sequence` in place by pairwise interchanges; returns its
// makespan (no_delay_makespan). Only improvements larger than the cluster
// tolerance are taken.
double improve_sequence_by_swaps(const Cluster& cluster, ProcessorIndex source, std::vector<ProcessorIndex>& sequence,
                                 std::size_t max_evaluations);

}  // namespace hetcoll
