// The one rule that ties a makespan plan's claims together (docs/ALGORITHMS.md,
// "What a plan claims"), applied by every planner when it finishes a plan:
//  * `lower_bound` is a proven lower bound on the optimum in the plan's
//    model — never capped at the makespan, so a wrong bound stays visible
//    to verify/;
//  * `optimal` is true exactly when that bound meets the makespan within
//    the instance's tolerance (core/ids.h); the bound is then printed equal
//    to the makespan, and the guarantee is `exact`;
//  * otherwise `optimal` is false and the planner's own guarantee stands.
// verify/ checks the same rule from the plan alone. O(1).
#pragma once

#include <string>

#include "hetcoll/plan/plan.h"

namespace hetcoll {

// `proof` says why the bound is proven (a theorem, a finished search); it
// becomes plan.optimality_proof when the bound meets the makespan.
void settle_claims(MakespanPlan& plan, double proven_lower_bound, double tolerance, std::string proof);

// After settle_claims, for an exact search or DP that *finished* over times
// merged into classes within the tolerance: when its bound (lowered by the
// merge) misses the makespan, the plan is within makespan / bound of the
// optimum — that becomes its ratio guarantee (when tighter) and a note says
// why `optimal` is not claimed. `what` is "search" or "DP".
void settle_merged_classes(MakespanPlan& plan, const char* what);

// The proof text when only a closed-form bound meets the makespan.
inline constexpr const char* kBoundMetProof = "the makespan equals a proven lower bound";

}  // namespace hetcoll
