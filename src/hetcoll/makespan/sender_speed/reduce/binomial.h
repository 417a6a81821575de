// Binomial-tree reduce, as MPI libraries do it (MPICH's MPIR_Reduce
// binomial algorithm), evaluated in the sender-speed model — the baseline
// that ignores how different the processors are (Liu, Kuo, Wang 2009 sec. 6.1 compares
// SNF with MPI_Reduce on a real cluster).
//
// Ranks are the processor indices rotated so that the root is rank 0. Rank r
// receives from r + m for m = 1, 2, 4, ... below lowbit(r) (the root: every
// power of two below n), in that order, each receive as soon as both ends
// are free, then sends its combined value to r - lowbit(r).
// Guarantee: none for heterogeneous clusters. Complexity: O(n log n).
#pragma once

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

MakespanPlan plan_reduce_binomial(const Cluster& cluster, ProcessorIndex root);

}  // namespace hetcoll
