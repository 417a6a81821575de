// Reduce planning in the eager model (model/eager_model.h), by time
// reversal of the eager broadcast (eager_broadcast.h).
//
// The eager reduce model: every participant holds its contribution at time
// 0; a transfer v -> u follows the platform's route and lasts its route's
// time, delay(v, u) + occupancy(v, u); it holds the RECEIVER u's link for
// its occupancy at its end, [arrival - occupancy, arrival], and the
// windows of u's incoming transfers never overlap (u's link takes one
// message at a time), while their latencies overlap; every participant but
// the root sends exactly once, its combined value, to its parent, no
// earlier than all of its children's transfers have arrived (it may send
// later); combining costs nothing (small messages: a few elements; the
// model has no computation, like the eager broadcast). The makespan is the
// root's last arrival.
//
// Problem: a tree over the participants rooted at the root, a receive order
// at every node and send times, minimising the makespan.
//
// Algorithm: the eager broadcast planner's tree (the best of its candidate
// trees, each with Jackson's send order) for a broadcast from the root on
// the TRANSPOSED costs c'(u, v) = c(v, u) (EagerMatrix::transposed), with
// makespan T, reversed in time: the broadcast's transfer u -> v, starting
// at s and arriving at a = s + c'(u, v), becomes the reduce's transfer
// v -> u starting at T - a and arriving at T - s.
//
// The reversal is exact both ways (eager_reduce.cpp: the proof), so the
// optima are equal, the broadcast's lower bound on c' bounds the reduce on
// c, and `optimal: true` carries over. When the model holds: small messages
// under an eager MPI protocol, each send paced to its planned start, on a
// network that gives a node's down link to arriving messages one after the
// other once their latency has passed; on a link shared fairly it is an
// upper bound even unpaced (docs/MPI.md).
// Guarantee: that of the eager broadcast planner on c': none (heuristic);
// `optimal: true` only when the makespan meets the lower bound.
// Complexity: that of the eager broadcast planner (eager_broadcast.h) plus
// O(k²) for the transposed matrix. Refused above kEagerMemberCap
// participants.
// References: Bar-Noy, Kipnis, "Designing broadcasting algorithms in the
// postal model for message-passing systems", 1994 (the postal model, its
// optimal broadcast, and the reduce as its reversal); Jackson, "Scheduling a
// production line to minimize maximum tardiness", 1955 (the send order,
// reversed: the receive order).
#pragma once

#include "hetcoll/makespan/eager/eager_broadcast.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// Plans a reduce to `root` from every participant of the network. The
// plan's model is PlanModel::eager, its algorithm "eager-auto" or
// "eager-flat", payload "partial", its transfers sorted by start (each
// lasting its route's time and arriving when its window on the receiver's
// link ends) with their routes, a note "eager model: <shape of the tree>".
// The lower bound is the eager broadcast's on the transposed costs.
// Throws InputError for a router as root or beyond kEagerMemberCap
// participants, NoSolutionError when a participant cannot reach the root.
MakespanPlan plan_eager_reduce(const GraphNetwork& network, ProcessorIndex root,
                               EagerHeuristic heuristic = EagerHeuristic::automatic);

}  // namespace hetcoll
