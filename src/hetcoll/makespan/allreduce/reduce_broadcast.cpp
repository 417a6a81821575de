#include "hetcoll/makespan/allreduce/reduce_broadcast.h"

#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/broadcast/fnf.h"
#include "hetcoll/makespan/reduce/ep.h"
#include "hetcoll/makespan/reduce/snf.h"

namespace hetcoll {

MakespanPlan plan_allreduce_snf_fnf(const Cluster& cluster, ProcessorIndex root) {
  const bool root_chosen = root != kNoProcessor;
  if (!root_chosen) root = cluster.fastest_processor();
  MakespanPlan plan;
  plan.operation = Operation::allreduce;
  plan.algorithm = "snf+fnf";
  plan.root = root;
  plan.transfers = ep_transfers(cluster, root, snf_order(cluster, root));
  const double reduce_end = last_completion(plan.transfers);
  std::vector<ProcessorIndex> receivers;
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != root) receivers.push_back(p);
  }
  auto broadcast = fnf_transfers(cluster, root, receivers, reduce_end);
  plan.transfers.insert(plan.transfers.end(), broadcast.begin(), broadcast.end());
  plan.makespan = last_completion(plan.transfers);
  plan.lower_bound = allreduce_lower_bound(cluster);
  const bool root_is_fastest = cluster.transmission_time(root) <= cluster.fastest_time() + cluster.tolerance();
  plan.guarantee = Guarantee::at_most(root_is_fastest ? 3.5 : 6.0);
  if (!root_is_fastest) {
    plan.notes.push_back("the root is not a fastest processor: the guarantee is 6 x optimal instead of 3.5 "
                         "(see makespan/allreduce/reduce_broadcast.h)");
  }
  return plan;
}

MakespanPlan reduce_then_broadcast(const Cluster& cluster, const MakespanPlan& reduce, const MakespanPlan& broadcast) {
  MakespanPlan plan;
  plan.operation = Operation::allreduce;
  plan.root = reduce.root;
  plan.transfers = reduce.transfers;
  const double reduce_end = reduce.makespan;
  for (Transfer transfer : broadcast.transfers) {
    transfer.start += reduce_end;
    transfer.end += reduce_end;
    transfer.payload = Payload::broadcast_value;
    plan.transfers.push_back(transfer);
  }
  plan.makespan = last_completion(plan.transfers);
  plan.lower_bound = allreduce_lower_bound(cluster);
  return plan;
}

}  // namespace hetcoll
