// Split all-reduce in the eager model: every participant's vector is cut
// into the same pieces, each piece reduced at its own aggregator, which
// then sends the reduced piece to everyone — a reduce-scatter followed by
// an all-gather, with the pieces sized to the participants' links and cut
// into chunks so that the two phases overlap.
//
// Problem: combine the `elements` elements of every one of k participants
// with a commutative, associative operation and leave the result with all
// of them. Whole-vector all-reduces (a reduce then a broadcast, or
// recursive doubling) move the whole vector over some links several
// times; here every link carries about 2 (k - 1) / k of it.
//
// Plan: pieces (an aggregator and a contiguous range of elements, at most
// one piece per participant, together covering the vector once), a number
// of chunks K (split_chunk_range) and the transfers:
//  * contributions: every participant sends chunk c of each piece it does
//    not aggregate to that piece's aggregator, for c = 0..K-1, the pieces
//    in the order of their aggregators starting after itself;
//  * results: an aggregator sends each chunk of its piece, once every
//    contribution to that chunk has arrived (combining is free), to every
//    other participant.
// Times follow the eager model (model/eager_model.h, costs affine in the
// bytes as in split_broadcast.h): a sender's link carries one message at a
// time, latencies overlap, receiving is free. Each link sends, whenever it
// is free, the earliest-ready result chunk whose contributions have all
// arrived (its messages one after the other), else its next contribution,
// else waits for a result chunk to become ready. The makespan is the last
// arrival of a result (with k = 1 it is 0: nothing moves).
//
// Planner: for each K in 1, 2, 3, 4, 6, 8, 12, 16 (K x k at most the
// elements), pieces start proportional to each participant's spreading
// rate (1 / its time per byte to all the others) or equal, then up to 60
// rounds scale every piece by sqrt(mean finish / its finish) (finish: the
// last arrival of its results), in whole elements; the best schedule seen
// wins. Guarantee: none (a heuristic in the eager model); no lower bound is
// claimed. Complexity: one schedule O(K k² log k); planning about 8 · 2 ·
// 60 schedules.
// References: the homogeneous scheme is the reduce-scatter + all-gather
// all-reduce (Rabenseifner, "Optimization of collective reduction
// operations", 2004; Thakur, Rabenseifner, Gropp, "Optimization of
// collective communication operations in MPICH", 2005); the sizing to
// heterogeneous links is hetcoll's.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "hetcoll/makespan/split/split_broadcast.h"

namespace hetcoll {

// SplitAllreduceTransfer, SplitAllreducePlan: plan/split_plans.h.

// The schedule of the header for given pieces and chunk count: fills
// `transfers` and `makespan` (members, sizes, chunks and pieces set).
void schedule_split_allreduce(SplitAllreducePlan& plan, const SplitCosts& costs);

// The planner of the header; max_messages > 0: only chunk counts whose
// plan has at most that many messages (2 K k (k - 1)), one chunk always.
// Throws InputError naming the parameter (elements, element_bytes,
// envelope_bytes).
SplitAllreducePlan plan_split_allreduce(const SplitCosts& costs, std::size_t elements, double element_bytes,
                                        double envelope_bytes = 0, std::size_t max_messages = 0);

}  // namespace hetcoll
