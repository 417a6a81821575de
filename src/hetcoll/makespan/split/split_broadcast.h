// Split broadcast in the eager model: the source cuts the message into
// pieces, hands each piece to a "spreader", and every spreader sends its
// piece to all the other participants — a scatter followed by an
// all-gather, with the pieces sized to the spreaders' speeds and each piece
// cut into chunks so that spreading starts before the scatter ends.
//
// Problem: broadcast a message of `elements` elements (each `element_bytes`
// bytes; every message also carries `envelope_bytes`) from a source to k
// participants on a platform graph, moving parts of the message rather
// than the whole. The whole-message plans (eager_broadcast.h) send the
// message once per tree edge, so the source's or some forwarder's link
// carries the whole message several times; here every participant's link
// carries a share, so the time approaches the total bytes the participants
// must receive divided by the links' joint capacity.
//
// Plan: pieces (a spreader and a contiguous range of elements; at most one
// piece per spreader; together they cover the message once), a number of
// chunks K (piece p's elements split into K near-equal chunks,
// split_chunk_range; empty chunks send nothing) and the transfers:
// the source hands each chunk to its piece's spreader, and every spreader
// forwards each chunk, as it arrives, to every other participant
// (split_broadcast.cpp: the orders).
// Times follow the eager model (model/eager_model.h): a sender's link
// carries one message at a time, each for its occupancy, latencies overlap,
// receiving is free; a spreader sends a chunk once it holds it. Costs are
// affine in the bytes: occupancy(u, v, S) = fixed + S / bandwidth along
// u's route to v, the delay its latencies (SplitCosts, read from the eager
// matrices of two message sizes; routes are those of the whole message).
// The makespan is the last arrival.
//
// Planner: for each chunk count K, three starting piece sizes, each refined
// by moving elements from the pieces that finish last to those that finish
// first (split_broadcast.cpp); the best schedule seen wins (ties: the first
// found), so the plan is never slower, in the model, than the flat tree.
// Guarantee: none (a heuristic in the eager model); no lower bound is
// claimed.
// Complexity: one schedule is O(K · k²) (every chunk to every member);
// planning O(8 · 60 · K · k²) plus the two eager matrices (O(k · route
// search)).
// References: the homogeneous scheme is the scatter + all-gather broadcast
// of long messages (Barnett, Gupta, Payne, Shuler, van de Geijn, Watts,
// "Interprocessor collective communication library (InterCom)", 1994;
// Thakur, Rabenseifner, Gropp, "Optimization of collective communication
// operations in MPICH", 2005); the sizing to heterogeneous links is
// hetcoll's.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "hetcoll/model/split_costs.h"
#include "hetcoll/plan/split_plans.h"

namespace hetcoll {

// SplitPiece, SplitTransfer, SplitBroadcastPlan, split_chunk_range: plan/split_plans.h.

// The schedule of the header for given pieces and chunk count: fills
// `transfers` and `makespan` of `plan` (members, source, elements, sizes,
// chunks and pieces set).
void schedule_split_broadcast(SplitBroadcastPlan& plan, const SplitCosts& costs);

// The planner of the header. `source` is a member index. Throws InputError
// naming the parameter (elements, element_bytes, envelope_bytes, source).
SplitBroadcastPlan plan_split_broadcast(const SplitCosts& costs, std::size_t source, std::size_t elements,
                                        double element_bytes, double envelope_bytes = 0);

}  // namespace hetcoll
