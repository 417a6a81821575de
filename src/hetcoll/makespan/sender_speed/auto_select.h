// The default algorithm selector (`--algo auto`): "the best guaranteed
// algorithm that finishes quickly" (docs/FORMATS.md).
//
// Broadcast and reduce: run the greedy planner (FNF / SNF, O(n log n)). If a
// theorem proves it optimal, that is the answer. Otherwise run the exact
// search (makespan/sender_speed/broadcast/optimal_search.h, makespan/reduce/
// optimal_search.h), on clusters of at most kAutoSearchMaxProcessors,
// within a budget (AutoBudget):
//  * by default a wall-clock budget of max(kAutoBudgetFloorSeconds,
//    kAutoBudgetGreedyFactor x the greedy planner's own time), so `auto`
//    costs about kAutoBudgetGreedyFactor x the greedy plus a floor (a
//    multiple of a few microseconds would leave the search nothing to do);
//    AutoBudget::seconds (the CLI's --auto-budget) raises or lowers it.
//    A search this budget stops before kAutoMinimumNodes nodes (a loaded
//    machine) runs again with a node budget of kAutoMinimumNodes instead,
//    so a small search ends alike everywhere. What a time budget makes non-deterministic: where an unfinished
//    search stops — so its plan, bound and node count may differ from run
//    to run and machine to machine (a search that finishes within the
//    budget gives the same proven optimum everywhere);
//  * AutoBudget::nodes: a node budget instead — the same plan on every
//    machine (the MPI runtime uses it: every rank must plan alike);
//  * the user's node limit (SearchLimits::node_limit, --node-limit) is
//    honoured exactly: the search runs up to that many nodes, with no time
//    budget of ours (deterministic), and a stop there is the user's.
// A finished search gives a proven optimum; an unfinished one still
// returns the better of the two plans, with the greedy guarantee and the
// search's proven lower bound, and a note says what was tried.
// The user's limits (core/limits.h) are honoured: a stop caused by them (a
// node limit, a time limit below the budget, the callback) is reported
// with its status (exit code 4); a stop at our own budget is the normal
// end of `auto` (status finished).
// All-reduce: the same selection for each phase (reduce into a fastest
// processor, then broadcast of the result from it, Liu, Kuo, Wang 2009 Thm 3). The
// guarantee adds the phases' factors: reduce 1 (exact) or 2 (SNF);
// broadcast from a fastest root 1 or 1.5, from another root 2 or 4 (see
// makespan/sender_speed/allreduce/reduce_broadcast.h, which also gives the lower bound
// and what is proven about the composition).
// Complexity: O(n log n) plus at most the budget of search work per phase.
#pragma once

#include <cstdint>
#include <optional>

#include "hetcoll/core/limits.h"
#include "hetcoll/makespan/request.h"
#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// The MPI runtime's deterministic node budget (AutoBudget::nodes).
inline constexpr std::uint64_t kAutoSearchNodeBudget = 20000;
inline constexpr double kAutoBudgetGreedyFactor = 10;
inline constexpr double kAutoBudgetFloorSeconds = 0.005;
inline constexpr std::uint64_t kAutoMinimumNodes = 256;

// AutoBudget (the request's search budget for `auto`): makespan/request.h.
// Above this many processors the search is not tried (its per-node cost
// grows with n, and the greedy guarantee is what one gets anyway).
inline constexpr ProcessorIndex kAutoSearchMaxProcessors = 64;

// Throws InputError naming `auto_budget` for a budget that is not a
// positive number of seconds or nodes.
void validate_auto_budget(const AutoBudget& budget);

MakespanPlan plan_broadcast_auto(const Cluster& cluster, ProcessorIndex source, const SearchLimits& limits = {},
                                 const AutoBudget& budget = {});
MakespanPlan plan_reduce_auto(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits = {},
                              const AutoBudget& budget = {});
// root = kNoProcessor picks a fastest processor. Each phase gets the budget.
MakespanPlan plan_allreduce_auto(const Cluster& cluster, ProcessorIndex root, const SearchLimits& limits = {},
                                 const AutoBudget& budget = {});

}  // namespace hetcoll
