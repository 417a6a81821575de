#include "hetcoll/makespan/claims.h"

#include <cmath>

namespace hetcoll {

void settle_claims(MakespanPlan& plan, double proven_lower_bound, double tolerance, std::string proof) {
  plan.lower_bound = proven_lower_bound;
  plan.optimal = std::isfinite(plan.makespan) && std::isfinite(proven_lower_bound) &&
                 std::fabs(plan.makespan - proven_lower_bound) <= tolerance;
  if (plan.optimal) {
    plan.lower_bound = plan.makespan;
    plan.guarantee = Guarantee::exact();
    plan.optimality_proof = std::move(proof);
  } else {
    plan.optimality_proof.clear();
  }
}

}  // namespace hetcoll
