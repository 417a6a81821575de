#include "hetcoll/makespan/sender_speed/broadcast/binomial.h"

#include <algorithm>

#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/claims.h"

namespace hetcoll {

MakespanPlan plan_broadcast_binomial(const Cluster& cluster, ProcessorIndex source) {
  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.algorithm = "binomial";
  plan.root = source;
  const std::int64_t n = cluster.size();
  auto processor_of = [&](std::int64_t rank) { return static_cast<ProcessorIndex>((rank + source) % n); };
  std::vector<double> ready(static_cast<size_t>(n), 0.0);
  // Ranks in order of increasing rank are visited after their parent (a
  // parent's rank is always smaller), so one pass fills every ready time.
  std::int64_t top = 1;
  while (top < n) top *= 2;
  for (std::int64_t rank = 0; rank < n; ++rank) {
    const std::int64_t lowbit = rank == 0 ? top : (rank & -rank);
    const ProcessorIndex sender = processor_of(rank);
    const double send_time = cluster.transmission_time(sender);
    double free_at = ready[static_cast<size_t>(rank)];
    for (std::int64_t mask = lowbit / 2; mask >= 1; mask /= 2) {
      const std::int64_t child = rank + mask;
      if (child >= n) continue;
      plan.transfers.push_back({sender, processor_of(child), free_at, free_at + send_time, Payload::broadcast_value});
      free_at += send_time;
      ready[static_cast<size_t>(child)] = free_at;
    }
  }
  plan.makespan = last_completion(plan.transfers);
  plan.guarantee = Guarantee::none();
  settle_claims(plan, broadcast_lower_bound(cluster, source), cluster.tolerance(), kBoundMetProof);
  plan.notes.push_back("binomial tree in rank order, as MPI libraries build it: ignores the processors' speeds");
  return plan;
}

}  // namespace hetcoll
