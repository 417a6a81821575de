// Lower bounds on the optimal makespan in the sender-speed model. All O(n).
//
// Broadcast from source s, n >= 2 processors, t_min the fastest time:
//   T >= t(s) + t_min * ceil(log2(n / 2)).
// Proof: in any half-open window (a, a + t_min] each processor completes at
// most one send, and only processors informed by time a can complete one,
// so the informed count at most doubles per t_min. Nothing completes before
// t(s), when at most 2 processors are informed. With s a fastest processor
// this is the classical ceil(log2 n) * t_min.
//
// Reduce to root d, n >= 2:
//   T >= max(t_min * ceil(log2 n), max_{p != d} t(p)).
// Proof: a send completing in (a, a + t_min] started by time a, so it pairs
// two processors still holding unsent data at time a; those holding unsent
// data therefore at most halve (rounding up) per t_min. The slowest sender
// must send once.
//
// All-reduce bounds (for reduce-then-broadcast compositions, and for any
// schedule) are in makespan/sender_speed/allreduce/reduce_broadcast.h.
#pragma once

#include <cstdint>

#include "hetcoll/model/cluster.h"

namespace hetcoll {

double broadcast_lower_bound(const Cluster& cluster, ProcessorIndex source);
double reduce_lower_bound(const Cluster& cluster, ProcessorIndex root);

// ceil(log2 n) for n >= 1.
int ceil_log2(std::int64_t n);

}  // namespace hetcoll
