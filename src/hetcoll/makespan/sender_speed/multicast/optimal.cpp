// Exact multicast — Khuller, Kim, Woeginger 2003 sec. 4 (the k fastest
// helpers), Liu 2002 sec. 5 (the optimal broadcast search of
// broadcast/optimal_search.h, run for every helper count k). Contract in
// multicast.h. The tests cross-check it against an independent search
// (tests/support/exact_subset_broadcast.h) and brute force.
#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/sender_speed/multicast/multicast.h"
#include "hetcoll/makespan/sender_speed/multicast/multicast_internal.h"

namespace hetcoll {

MakespanPlan plan_multicast_exact(const Cluster& cluster, ProcessorIndex source,
                                  const std::vector<ProcessorIndex>& targets, const SearchLimits& limits,
                                  std::optional<int> max_helpers) {
  SearchBudget budget(limits);  // the clock and the node count of all k together
  MulticastGroup group = make_multicast_group(cluster, source, targets);
  int k_max = group.max_useful_helpers;
  if (max_helpers) k_max = std::clamp(*max_helpers, 0, k_max);
  // Incumbent (and the fallback when refused): the FNF multicast over the
  // same helper counts.
  MakespanPlan incumbent = plan_multicast_fnf(cluster, source, targets, k_max);
  const int largest = static_cast<int>(group.targets.size()) + k_max;
  if (largest > kExactMulticastMaxReceivers) {
    incumbent.algorithm = "optimal";
    incumbent.status = SearchStatus::refused;
    incumbent.notes.push_back(fmt::format(
        "refused: the exact multicast searches at most {} receivers per helper count; this group needs {} ({} "
        "targets + up to {} helpers); the FNF multicast is returned (algorithm \"ptas\" may do better)",
        kExactMulticastMaxReceivers, largest, group.targets.size(), k_max));
    return incumbent;
  }
  multicast_detail::BestHelperRun best{incumbent.transfers, incumbent.makespan, -1};
  double proven = std::numeric_limits<double>::infinity();  // min over k of each run's bound
  SearchStatus status = SearchStatus::finished;
  std::uint64_t nodes = 0;
  for (int k = 0; k <= k_max && status == SearchStatus::finished; ++k) {
    SearchLimits run;
    run.time_limit_seconds = budget.remaining_seconds();
    run.node_limit = limits.node_limit > nodes ? limits.node_limit - nodes : 0;
    run.progress = limits.progress;
    if (!(run.time_limit_seconds > 0)) {
      status = SearchStatus::time_limit;
      break;
    }
    BroadcastSearchResult found =
        optimal_broadcast(cluster, source, group.receivers_with_helpers(k), run, best.makespan);
    nodes += found.stats.nodes;
    status = found.status;
    proven = std::min(proven, found.lower_bound);
    if (!found.transfers.empty()) best.offer(cluster, group, found.transfers, k);
  }
  MakespanPlan plan = multicast_detail::finish_plan(cluster, group, best.transfers, "optimal", k_max);
  plan.stats.nodes = nodes;
  plan.status = status;
  const bool complete = status == SearchStatus::finished;
  plan.notes.push_back(best.helpers < 0
                           ? std::string("the FNF multicast was the best plan found")
                           : fmt::format("best plan found with {} offered as helpers",
                                         multicast_detail::fastest_non_members(best.helpers)));
  const bool every_k = k_max == group.max_useful_helpers;
  plan.guarantee = incumbent.guarantee;  // never worse than the FNF multicast
  if (complete && every_k) {
    // OPT = min over k of OPT_k (Khuller, Kim, Woeginger 2003 sec. 4), and
    // each finished run proves its OPT_k >= its bound.
    settle_claims(plan, std::max(proven, plan.lower_bound), cluster.tolerance(),
                  fmt::format("optimal broadcast search (Liu 2002 sec. 5) for every k <= {} fastest "
                              "helpers (Khuller, Kim, Woeginger 2003 sec. 4)",
                              k_max));
  } else {
    settle_claims(plan, plan.lower_bound, cluster.tolerance(), kBoundMetProof);
    if (complete && !plan.optimal) {
      plan.guarantee = Guarantee::none();
      plan.guarantee.text = fmt::format("optimal among plans with at most {} helpers", k_max);
    } else if (!complete) {
      plan.notes.push_back(fmt::format("the search stopped ({}): the best plan found is returned, not proven optimal",
                                       to_string(status)));
    }
  }
  return plan;
}

}  // namespace hetcoll
