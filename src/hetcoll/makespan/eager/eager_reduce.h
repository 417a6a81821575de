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
// Why the reversal is exact (both directions map valid schedules to valid
// schedules of no larger makespan, so the optima are equal and a lower
// bound of one is a lower bound of the other):
//  * durations: v -> u lasts a - s = c'(u, v) = c(v, u), its route's time;
//  * links: u's broadcast sends occupy u's link during [s, s + o], disjoint
//    and each no earlier than u holds the message at t(u); reversed, they
//    are u's receive windows [T - s - o, T - s] = [arrival - o, arrival]:
//    disjoint;
//  * causality: u's sends start at s >= t(u), so the reversed arrivals
//    T - s <= T - t(u), which is when the reversal of u's one receive, its
//    send to its parent, starts: u sends after all of its children's
//    transfers have arrived; a node receives once <=> sends once;
//  * every reversed start T - a >= 0 since a <= T, and the root's last
//    arrival is T - (the root's first send start, 0) = T.
// Conversely a reduce schedule of makespan T reversed is a broadcast
// schedule (sends possibly idle between windows, which the broadcast model's
// back-to-back sends only improve) of makespan T - (earliest reduce start)
// <= T. So the optimal eager reduce on c takes exactly the optimal eager
// broadcast's time on c', the broadcast's lower bound on c' bounds the
// reduce on c, and `optimal: true` carries over.
// When it holds: small messages under an eager MPI protocol whose sends
// complete without their receiver, on a network that gives a node's down
// link to arriving messages one after the other once their latency has
// passed (SimGrid: the latency first, then the bandwidth share on the
// links; with each send paced to its planned start the parent's link
// receives one message after the other, and SMPI takes the model's time).
// On a link shared fairly the model is an upper bound even unpaced: a node
// waits for its last child, and sharing is work-conserving, so overlapping
// arrivals end no later (the MPI runtime does not pace reduces by default;
// docs/MPI.md).
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
