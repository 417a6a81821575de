#include "hetcoll/makespan/sender_speed/reduce/binomial.h"

#include <algorithm>

#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/claims.h"

namespace hetcoll {

MakespanPlan plan_reduce_binomial(const Cluster& cluster, ProcessorIndex root) {
  MakespanPlan plan;
  plan.operation = Operation::reduce;
  plan.algorithm = "binomial";
  plan.root = root;
  const std::int64_t n = cluster.size();
  auto processor_of = [&](std::int64_t rank) { return static_cast<ProcessorIndex>((rank + root) % n); };
  std::int64_t top = 1;
  while (top < n) top *= 2;
  // ready[r]: when rank r has combined everything from its subtree. Children
  // have larger ranks, so a pass from the highest rank down fills them.
  std::vector<double> ready(static_cast<size_t>(n), 0.0);
  for (std::int64_t rank = n - 1; rank >= 0; --rank) {
    const std::int64_t lowbit = rank == 0 ? top : (rank & -rank);
    double free_at = 0;
    for (std::int64_t mask = 1; mask < lowbit; mask *= 2) {
      const std::int64_t child = rank + mask;
      if (child >= n) break;
      const ProcessorIndex sender = processor_of(child);
      const double start = std::max(free_at, ready[static_cast<size_t>(child)]);
      const double end = start + cluster.transmission_time(sender);
      plan.transfers.push_back({sender, processor_of(rank), start, end, Payload::partial_reduction});
      free_at = end;
    }
    ready[static_cast<size_t>(rank)] = free_at;
  }
  plan.makespan = last_completion(plan.transfers);
  plan.guarantee = Guarantee::none();
  settle_claims(plan, reduce_lower_bound(cluster, root), cluster.tolerance(), kBoundMetProof);
  plan.notes.push_back("binomial tree in rank order, as MPI libraries build it: ignores the processors' speeds");
  return plan;
}

}  // namespace hetcoll
