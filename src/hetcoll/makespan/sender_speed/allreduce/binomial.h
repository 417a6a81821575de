// All-reduce as MPI libraries do it for small messages on a heterogeneous
// cluster they treat as homogeneous: a binomial reduce into a root, then a
// binomial broadcast of the result from it (MPICH's MPIR_Allreduce
// reduce + bcast fallback; Open MPI's "nonoverlapping" all-reduce). The
// baseline of `hetcoll experiment mpi-baseline`; `hetcoll allreduce --algo
// binomial` prints the same plan.
//
// Phase 1: makespan/sender_speed/reduce/binomial.h into `root` (ranks in processor order
// starting at the root). Phase 2: makespan/sender_speed/broadcast/binomial.h from `root`,
// starting when the reduce has finished (the root holds the result only
// then; the other processors have nothing to forward before it).
// Guarantee: none — the trees ignore the transmission times; the makespan is
// exactly the reduce's plus the broadcast's.
// Complexity: O(n log n) time, O(n) space.
// Recursive doubling (MPICH's choice for small messages) exchanges partial
// results pairwise instead: makespan/sender_speed/allreduce/recursive_doubling.h.
#pragma once

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// root = kNoProcessor means the first processor (MPI's rank 0).
MakespanPlan plan_allreduce_binomial(const Cluster& cluster, ProcessorIndex root);

}  // namespace hetcoll
