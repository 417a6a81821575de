#include "hetcoll/makespan/allreduce/binomial.h"

#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/broadcast/binomial.h"
#include "hetcoll/makespan/reduce/binomial.h"

namespace hetcoll {

MakespanPlan plan_allreduce_binomial(const Cluster& cluster, ProcessorIndex root) {
  if (root == kNoProcessor) root = 0;
  MakespanPlan reduce = plan_reduce_binomial(cluster, root);
  MakespanPlan broadcast = plan_broadcast_binomial(cluster, root);
  MakespanPlan plan;
  plan.operation = Operation::allreduce;
  plan.algorithm = "binomial";
  plan.root = root;
  plan.transfers = std::move(reduce.transfers);
  const double reduce_end = reduce.makespan;
  for (Transfer transfer : broadcast.transfers) {
    transfer.start += reduce_end;
    transfer.end += reduce_end;
    transfer.payload = Payload::broadcast_value;
    plan.transfers.push_back(transfer);
  }
  plan.makespan = last_completion(plan.transfers);
  plan.lower_bound = allreduce_lower_bound(cluster);
  plan.guarantee = Guarantee::none();
  plan.guarantee.text = "none (ignores speeds; MPI's binomial reduce + broadcast)";
  return plan;
}

}  // namespace hetcoll
