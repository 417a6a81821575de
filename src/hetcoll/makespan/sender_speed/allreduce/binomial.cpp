#include "hetcoll/makespan/sender_speed/allreduce/binomial.h"

#include "hetcoll/makespan/sender_speed/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/sender_speed/broadcast/binomial.h"
#include "hetcoll/makespan/sender_speed/reduce/binomial.h"

namespace hetcoll {

MakespanPlan plan_allreduce_binomial(const Cluster& cluster, ProcessorIndex root) {
  if (root == kNoProcessor) root = 0;
  // The composition carries the claims rule: the binomial tree ignores
  // speeds, so it has no guarantee, yet may still be proven optimal when the
  // composition bound meets its makespan.
  MakespanPlan plan = compose_allreduce(cluster, root, plan_reduce_binomial(cluster, root),
                                        plan_broadcast_binomial(cluster, root), "binomial");
  plan.guarantee = Guarantee::none();
  plan.guarantee.text = "none (ignores speeds; MPI's binomial reduce + broadcast)";
  return plan;
}

}  // namespace hetcoll
