// All-reduce by recursive doubling, as MPI libraries run it for small
// messages on a communicator they treat as homogeneous (MPICH's
// MPIR_Allreduce_intra_recursive_doubling; Open MPI's coll_tuned all-reduce
// algorithm 3): processors exchange partial results pairwise, doubling the
// contributions each holds, log2 of the rank count times. A baseline for the
// MPI comparison; `hetcoll allreduce --algo recursive-doubling` prints it.
//
// Ranks are processors in index order from `first_rank` (MPI's rank order;
// rank r is processor (first_rank + r) mod n, as in the binomial baselines).
// No rank is a root: every processor ends with the result. With p the
// largest power of two <= n and r = n - p: first the 2r lowest ranks fold in
// pairs (rank 2i sends its value to 2i + 1 and then waits); the p remaining
// ranks (the odd ones among the first 2r, and every rank >= 2r) exchange
// with the rank whose new number differs in bit k, for k = 0, 1, ...;
// finally rank 2i + 1 sends the result back to 2i (MPICH's scheme).
//
// One-port model (the sender-speed model: a processor sends or receives,
// never both at once): an exchange between u and v cannot be two messages at
// the same time as MPI's MPI_Sendrecv is, so it is two messages in turn,
// starting when both are free: the lower new rank sends its partial result
// (payload "partial": the receiver combines it), then the other sends the
// pair's combined value back (payload "value": the receiver replaces its
// own with it, no contribution counted twice). The pair is done after
// t(u) + t(v), whichever sends first. verify/ checks such exchange plans by
// the contributions every message carries (verify.h).
// Guarantee: none — rank order ignores the transmission times. Lower bound:
// t_max + t_min (ceil(log2 n) - 1), proven for any all-reduce schedule in
// this model (makespan/sender_speed/allreduce/reduce_broadcast.h); `optimal` only when it
// meets the makespan, which exchanges in turn rarely allow.
// Complexity: O(n log n) time and transfers, O(n) extra space.
// Limits: n <= kMaxExchangeAllreduceProcessors (plan/plan.h), what verify/
// checks for plans of this shape.
#pragma once

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// plan.root is `first_rank`. Throws InputError("cluster", ...) beyond
// kMaxExchangeAllreduceProcessors.
MakespanPlan plan_allreduce_recursive_doubling(const Cluster& cluster, ProcessorIndex first_rank = 0);

}  // namespace hetcoll
