// Lower bounds on the optimal makespan on a platform graph
// (model/graph_network.h). Every graph plan carries one.
//
// Broadcast / multicast from s to the targets T (broadcast: every other
// participant), N = |T ∪ {s}|:
//  (a) distance: T >= max_{t in T} chain(s, t), chain = the least time of
//      any chain of transfers from s to t: the value reaches t through such
//      a chain, whose routes join into a walk from s to t. A walk P takes at
//      least its fixed costs and latencies plus size / its narrowest
//      bandwidth (each route's time counts its own latencies, and the
//      narrowest link lies on one of them); minimised by one Dijkstra per
//      bandwidth threshold (on fixed-cost graphs: the cheapest path).
//  (b) one-port doubling: T >= c_s + δ · ceil(log2(N / 2)) for N >= 2, where
//      c_s = the cheapest edge leaving s and δ = max(cheapest edge leaving a
//      participant, cheapest edge entering one) <= any transfer's duration.
//      Proof: count the participants holding the message. A holder
//      completes at most one send per half-open window of length δ (one send
//      port, every transfer lasts >= δ), and a transfer completing in a
//      window started before it, from a holder. So the count at most doubles
//      per δ, and it is at most 2 before c_s + δ.
//      (The sender-speed bound of makespan/bounds.h, Liu 2002, on a graph.)
//      Left out when a participant has unlimited ports (it can send many at
//      once).
// Reduce into r, w_r = the root's combine time (0 without speed):
//  T >= w_r + max(max_p dist(p, r), c^in_r + δ · ceil(log2(N / 2))),
//  by the same two arguments on the time-reversed schedule (a reduce read
//  backwards is a broadcast on the reversed graph; combines only delay it),
//  and the root combines the last partial it receives.
// All-reduce (any schedule, not only a reduce followed by a broadcast):
//  every participant r ends holding a value that depends on every input, so
//  for each r the two reduce arguments above hold without the root's
//  combine (r may receive the finished result and combine nothing):
//  T >= max_r max(max_p dist(p, r), c^in_r + δ · ceil(log2(N / 2))).
//  The doubling argument still holds: the set of inputs a node depends on
//  grows by at most one other node's set per completed receive, and a node
//  completes at most one receive per window of length δ, so the largest
//  such set at most doubles per δ. The maximum is taken over every
//  participant up to kBoundRootsWithDistances of them, else over the given
//  root (or the first participant): a maximum over any subset is valid.
//  hetcoll's all-reduce plans are a reduce then a broadcast; a sum of the
//  two phases' bounds would hold for those plans only, so it is not used.
// Complexity: one Dijkstra per distinct bandwidth (at most 33), O(m log n)
// each (all-reduce over roots: 2n times that, or O(n + m) without the
// distance terms).
#pragma once

#include <vector>

#include "hetcoll/model/graph_network.h"

namespace hetcoll {

inline constexpr std::size_t kBoundRootsWithDistances = 64;

double graph_broadcast_lower_bound(const GraphNetwork& network, ProcessorIndex source);
double graph_multicast_lower_bound(const GraphNetwork& network, ProcessorIndex source,
                                   const std::vector<ProcessorIndex>& targets);
double graph_reduce_lower_bound(const GraphNetwork& network, ProcessorIndex root);
// A bound on every all-reduce schedule; `root` (or kNoProcessor) is only
// used to pick the term kept on large platforms.
double graph_allreduce_lower_bound(const GraphNetwork& network, ProcessorIndex root);

// The one-port doubling term δ · ceil(log2(N / 2)) for N participants.
double doubling_term(const GraphNetwork& network, std::size_t participants);

}  // namespace hetcoll
