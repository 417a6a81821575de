// The default algorithm selector (`--algo auto`): "the best guaranteed
// algorithm that finishes quickly" (docs/FORMATS.md).
//
// Broadcast and reduce: run the greedy planner (FNF / SNF, O(n log n)). If a
// theorem proves it optimal, that is the answer. Otherwise run the exact
// search (makespan/broadcast/optimal_search.h, makespan/reduce/
// optimal_search.h), on clusters of at most kAutoSearchMaxProcessors, within
// a fixed budget of kAutoSearchNodeBudget nodes —
// a node budget, not a time budget, so the answer is the same on every
// machine. A finished search gives a proven optimum; an unfinished one
// still returns the better of the two plans, with the greedy guarantee.
// The user's limits (core/limits.h) are honoured: a stop caused by them (a
// node limit below the budget, the time limit, the callback) is reported
// with its status (exit code 4); a stop at our own budget is the normal
// end of `auto` (status finished).
// All-reduce: the same selection for each phase (reduce into a fastest
// processor, then broadcast of the result from it, Liu, Kuo, Wang 2009 Thm 3). The
// guarantee adds the phases' factors: reduce 1 (exact) or 2 (SNF);
// broadcast from a fastest root 1 or 1.5, from another root 2 or 4 (see
// makespan/allreduce/reduce_broadcast.h, which also gives the lower bound
// and what is proven about the composition).
// Complexity: O(n log n) plus at most the node budget of search work per
// phase.
#pragma once

#include <cstdint>

#include "hetcoll/core/limits.h"
#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

inline constexpr std::uint64_t kAutoSearchNodeBudget = 20000;
// Above this many processors the search is not tried (its per-node cost
// grows with n, and the greedy guarantee is what one gets anyway).
inline constexpr ProcessorIndex kAutoSearchMaxProcessors = 64;

MakespanPlan plan_broadcast_auto(const Cluster& cluster, ProcessorIndex source, const SearchLimits& limits = {});
MakespanPlan plan_reduce_auto(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits = {});
// root = kNoProcessor picks a fastest processor.
MakespanPlan plan_allreduce_auto(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits = {});

}  // namespace hetcoll
