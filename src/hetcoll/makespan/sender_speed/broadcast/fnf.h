// Fastest-node-first (FNF) broadcast — Liu 2002 sec. 3 (Banikazemi et al.),
// Khuller, Kim, Woeginger 2003 sec. 1.
//
// Problem: sender-speed cluster, a source holding one message; every other
// processor must receive it; minimise the last receive time.
// Rule: repeatedly, the informed processor that can *finish* a send earliest
// sends to the fastest uninformed processor (no-delay tree, Thm 4.1).
// Ties: senders whose finish times agree within the cluster tolerance
// (core/ids.h) form one group; within a group, faster senders (then lower
// index) take the faster receivers; receivers of equal time go by index.
// Guarantee: <= 2 x optimal for any source (Liu 2002 Thms 4.6, 4.7);
// <= 1.5 x optimal when the source is a fastest processor (Khuller–Kim,
// quoted in Khuller, Kim, Woeginger 2003 sec. 1). Optimal when the source is a fastest processor
// and there are at most two classes (Thm 4.4) or the times form a
// divisibility chain (Thm 4.5); with any source on a power-2 cluster
// (sec. 4.4, Lemmas 4.7–4.8). See fnf_optimality() for what we claim.
// Complexity: O(n log n) time, O(n) space; O(n (k + log g)) with one FIFO
// per class when the processors have k <= 16 distinct times, any two more
// than the tolerance apart (g: the largest group; fnf_internal.h). A
// broadcast plan then reads its receivers from the processor indices and
// checks its theorems on the k distinct times (no list of n receivers, no
// pass over n times per theorem).
#pragma once

#include <string>
#include <vector>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// The FNF schedule from `source` to `receivers` (any subset of the other
// processors; each served in fastest-first order). Only the transfers are
// filled in; building block for broadcast, multicast and all-reduce.
// `start_time` shifts the whole schedule (the source holds the message then).
std::vector<Transfer> fnf_transfers(const Cluster& cluster, ProcessorIndex source,
                                    const std::vector<ProcessorIndex>& receivers, double start_time = 0.0);

// A complete broadcast plan: transfers, makespan, lower bound, guarantee and
// the optimality claim where a theorem backs it.
MakespanPlan plan_broadcast_fnf(const Cluster& cluster, ProcessorIndex source);

// Why FNF is provably optimal for this cluster and source, or "" if no
// theorem applies.
std::string fnf_optimality(const Cluster& cluster, ProcessorIndex source);

}  // namespace hetcoll
