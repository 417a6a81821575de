// All-reduce as a reduce followed by a broadcast — Liu, Kuo, Wang 2009 sec. 5.2, Thm 3.
//
// Phase 1: SNF reduce (makespan/reduce/snf.h) to a root r. Phase 2: FNF
// broadcast (makespan/broadcast/fnf.h) of the result from r, starting when
// the last partial result has reached r.
// Guarantee: with r a fastest processor (the default), <= 3.5 x optimal
// (Thm 3: the reduce is <= 2 x the optimal reduce into r, the FNF broadcast
// from a fastest source <= 1.5 x the optimal broadcast, and an all-reduce
// costs at least each of these). With a root chosen by the user that is not
// a fastest processor: <= 6 x optimal — the reduce part is unchanged, and
// FNF from r is <= 2 x the optimal broadcast from r (Liu 2002 Thm 4.7),
// which is <= t(r) + the optimal broadcast from a fastest processor
// (r first sends to it) <= 2 x the optimal all-reduce, since r must send
// its own contribution at least once.
// Complexity: O(n log n) time, O(n) space.
#pragma once

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// root = kNoProcessor picks a fastest processor.
MakespanPlan plan_allreduce_snf_fnf(const Cluster& cluster, ProcessorIndex root);

// The all-reduce made of `reduce` (into its root) followed by `broadcast`
// (from the same root), shifted to start when the reduce ends: operation,
// root, transfers, makespan and the all-reduce lower bound are filled in;
// the algorithm, guarantee and claims are the caller's to set.
MakespanPlan reduce_then_broadcast(const Cluster& cluster, const MakespanPlan& reduce, const MakespanPlan& broadcast);

}  // namespace hetcoll
