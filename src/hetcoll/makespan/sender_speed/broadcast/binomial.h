// Binomial-tree broadcast, as MPI libraries do it (MPICH's MPIR_Bcast
// binomial algorithm), evaluated in the sender-speed model — the baseline
// that ignores how different the processors are.
//
// Ranks are the processor indices rotated so that the source is rank 0.
// Rank r receives from r - lowbit(r) and then sends to r + m for
// m = lowbit(r)/2, ..., 2, 1 (the root: from the largest power of two below
// n down to 1), each send right after the previous one.
// Guarantee: none for heterogeneous clusters (optimal when all times are
// equal and n is a power of two). Complexity: O(n log n) time, O(n) space.
#pragma once

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

MakespanPlan plan_broadcast_binomial(const Cluster& cluster, ProcessorIndex source);

}  // namespace hetcoll
