// The plan of the exact broadcast search (optimal_search.h) and the
// no-delay schedule the searches rebuild their plans from.

#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"

#include <limits>
#include <queue>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/claims.h"

namespace hetcoll {

namespace {

constexpr double kNoDelayInfinity = std::numeric_limits<double>::infinity();

}  // namespace

std::vector<Transfer> no_delay_transfers(const Cluster& cluster, ProcessorIndex source,
                                         const std::vector<ProcessorIndex>& sequence) {
  struct Pending {
    double finish;
    double send_time;
    ProcessorIndex sender;
    bool operator>(const Pending& other) const {
      if (finish != other.finish) return finish > other.finish;
      if (send_time != other.send_time) return send_time > other.send_time;
      return sender > other.sender;
    }
  };
  const double tolerance = cluster.tolerance();
  // Ties within the tolerance (core/ids.h), so that rounding noise (decimal
  // times, rescaled instances) never changes who serves whom: of the
  // holders whose next send ends within the tolerance of the earliest, the
  // faster sender serves, then the lower index.
  auto preferred = [&](const Pending& a, const Pending& b) {
    if (!time_equal(a.send_time, b.send_time, tolerance)) return a.send_time < b.send_time;
    return a.sender < b.sender;
  };
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> holders;
  holders.push({cluster.transmission_time(source), cluster.transmission_time(source), source});
  std::vector<Transfer> transfers;
  transfers.reserve(sequence.size());
  std::vector<Pending> tied;
  for (ProcessorIndex receiver : sequence) {
    tied.clear();
    tied.push_back(holders.top());
    holders.pop();
    while (!holders.empty() && holders.top().finish <= tied.front().finish + tie_tolerance(tied.front().finish, tied.front().finish, tolerance)) {
      tied.push_back(holders.top());
      holders.pop();
    }
    auto chosen = std::min_element(tied.begin(), tied.end(), preferred);
    const Pending send = *chosen;
    tied.erase(chosen);
    for (const auto& other : tied) holders.push(other);
    transfers.push_back({send.sender, receiver, send.finish - send.send_time, send.finish, Payload::broadcast_value});
    holders.push({send.finish + send.send_time, send.send_time, send.sender});
    const double t = cluster.transmission_time(receiver);
    holders.push({send.finish + t, t, receiver});
  }
  return transfers;
}

MakespanPlan plan_broadcast_optimal(const Cluster& cluster, ProcessorIndex source, const SearchLimits& limits,
                                    const OptimalBroadcastOptions& options) {
  std::vector<ProcessorIndex> receivers;
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != source) receivers.push_back(p);
  }
  OptimalBroadcastOptions with_fnf = options;
  with_fnf.fnf_incumbent = true;  // the plan must never be worse than FNF
  BroadcastSearchResult result = optimal_broadcast(cluster, source, receivers, limits, kNoDelayInfinity, with_fnf);
  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.algorithm = "optimal";
  plan.root = source;
  plan.transfers = std::move(result.transfers);
  plan.makespan = last_completion(plan.transfers);
  plan.stats = result.stats;
  plan.status = result.status;
  // Never worse than FNF (its first incumbent): FNF's guarantee always holds.
  const bool source_is_fastest = time_leq(cluster.transmission_time(source), cluster.fastest_time(), cluster.tolerance());
  plan.guarantee = Guarantee::at_most(source_is_fastest ? 1.5 : 2.0);
  const double proven = std::max(result.lower_bound, broadcast_lower_bound(cluster, source));
  settle_claims(plan, proven, cluster.tolerance(),
                result.complete()
                    ? fmt::format("branch-and-bound finished ({} nodes): Liu 2002 eq. 1 / Thm 4.1 sequences, exchange "
                                  "rule, {}proven lower bounds",
                                  result.stats.nodes, result.used_fastest_first ? "Thm 4.3, " : "")
                    : kBoundMetProof);
  if (!result.complete()) {
    plan.notes.push_back(fmt::format("search stopped ({}) after {} nodes: best schedule so far (at worst FNF)",
                                     to_string(result.status), result.stats.nodes));
  } else {
    settle_merged_classes(plan, "search");
  }
  return plan;
}

}  // namespace hetcoll
