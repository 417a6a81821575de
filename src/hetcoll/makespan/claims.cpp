#include "hetcoll/makespan/claims.h"

#include "hetcoll/core/ids.h"

#include <cmath>
#include <string>

namespace hetcoll {

void settle_claims(MakespanPlan& plan, double proven_lower_bound, double tolerance, std::string proof) {
  plan.lower_bound = proven_lower_bound;
  plan.optimal = std::isfinite(plan.makespan) && std::isfinite(proven_lower_bound) &&
                 time_equal(plan.makespan, proven_lower_bound, tolerance);
  if (plan.optimal) {
    plan.lower_bound = plan.makespan;
    plan.guarantee = Guarantee::exact();
    plan.optimality_proof = std::move(proof);
  } else {
    plan.optimality_proof.clear();
  }
}

void settle_merged_classes(MakespanPlan& plan, const char* what) {
  if (plan.optimal || !(plan.lower_bound > 0)) return;
  const double ratio = plan.makespan / plan.lower_bound;
  if (plan.guarantee.kind != Guarantee::Kind::ratio || ratio < plan.guarantee.ratio) {
    plan.guarantee = Guarantee::at_most(ratio);
  }
  plan.notes.push_back(std::string("the ") + what +
                       " is exact on the times merged into classes within the tolerance; on the true times the plan "
                       "is within the printed ratio of optimal");
}

}  // namespace hetcoll
