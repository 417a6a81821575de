#include "hetcoll/makespan/sender_speed/allreduce/recursive_doubling.h"

#include <algorithm>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/sender_speed/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/claims.h"

namespace hetcoll {

MakespanPlan plan_allreduce_recursive_doubling(const Cluster& cluster, ProcessorIndex first_rank) {
  const std::int64_t n = cluster.size();
  if (static_cast<std::size_t>(n) > kMaxExchangeAllreduceProcessors) {
    throw InputError("cluster", fmt::format("recursive doubling is planned for at most {} processors (what the "
                                            "verifier checks for exchange plans), got {}",
                                            kMaxExchangeAllreduceProcessors, n));
  }
  MakespanPlan plan;
  plan.operation = Operation::allreduce;
  plan.algorithm = "recursive-doubling";
  plan.root = first_rank;  // rank 0; not a root: every rank ends with the result
  auto processor_of = [&](std::int64_t rank) { return static_cast<ProcessorIndex>((rank + first_rank) % n); };
  auto send = [&](std::int64_t from, std::int64_t to, double start, Payload payload) {
    const double end = start + cluster.transmission_time(processor_of(from));
    plan.transfers.push_back({processor_of(from), processor_of(to), start, end, payload});
    return end;
  };

  std::int64_t power = 1;
  while (power * 2 <= n) power *= 2;
  const std::int64_t folded = n - power;  // ranks 0, 2, ..., 2 (folded - 1) sit the exchanges out
  // free_at[rank]: when the rank's port is free and its value up to date.
  std::vector<double> free_at(static_cast<std::size_t>(n), 0.0);
  for (std::int64_t even = 0; even < 2 * folded; even += 2) {
    free_at[static_cast<std::size_t>(even + 1)] = send(even, even + 1, 0.0, Payload::partial_reduction);
  }
  // The rank playing new rank k in the exchanges.
  auto rank_of = [&](std::int64_t new_rank) { return new_rank < folded ? 2 * new_rank + 1 : new_rank + folded; };
  for (std::int64_t mask = 1; mask < power; mask *= 2) {
    for (std::int64_t lower = 0; lower < power; ++lower) {
      const std::int64_t upper = lower ^ mask;
      if (upper < lower) continue;
      const std::int64_t u = rank_of(lower), v = rank_of(upper);
      const double start = std::max(free_at[static_cast<std::size_t>(u)], free_at[static_cast<std::size_t>(v)]);
      const double combined = send(u, v, start, Payload::partial_reduction);
      const double done = send(v, u, combined, Payload::broadcast_value);
      free_at[static_cast<std::size_t>(u)] = done;
      free_at[static_cast<std::size_t>(v)] = done;
    }
  }
  for (std::int64_t even = 0; even < 2 * folded; even += 2) {
    send(even + 1, even, free_at[static_cast<std::size_t>(even + 1)], Payload::broadcast_value);
  }

  plan.makespan = last_completion(plan.transfers);
  plan.guarantee = Guarantee::none();
  plan.guarantee.text = "none (ignores speeds; MPI's recursive doubling)";
  settle_claims(plan, allreduce_any_schedule_lower_bound(cluster), cluster.tolerance(),
                "the bound t_max + t_min (ceil(log2 n) - 1) for any all-reduce schedule meets the makespan");
  plan.notes.push_back(fmt::format(
      "recursive doubling in rank order ({} exchange rounds{}): in the one-port model each exchange is two "
      "messages in turn, the second carrying the pair's combined value",
      ceil_log2(power), folded > 0 ? fmt::format(", {} ranks folded in first", folded) : std::string()));
  plan.notes.push_back("the lower bound holds for any all-reduce schedule, not only reduce-then-broadcast ones");
  return plan;
}

}  // namespace hetcoll
