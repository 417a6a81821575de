#include "hetcoll/makespan/allreduce/binomial.h"

#include "hetcoll/makespan/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/broadcast/binomial.h"
#include "hetcoll/makespan/reduce/binomial.h"

namespace hetcoll {

MakespanPlan plan_allreduce_binomial(const Cluster& cluster, ProcessorIndex root) {
  if (root == kNoProcessor) root = 0;
  MakespanPlan plan =
      reduce_then_broadcast(cluster, plan_reduce_binomial(cluster, root), plan_broadcast_binomial(cluster, root));
  plan.algorithm = "binomial";
  plan.guarantee = Guarantee::none();
  plan.guarantee.text = "none (ignores speeds; MPI's binomial reduce + broadcast)";
  return plan;
}

}  // namespace hetcoll
