// Multicast by FNF with the k fastest helpers, every k — Khuller, Kim, Woeginger 2003 sec. 4
// (which helpers), Liu 2002 sec. 3 (FNF). Contract in multicast.h.
// Every k in 0..min(#non-members, |targets|) is tried while that costs at
// most kFullScanWork steps; beyond, k runs over 0, 1, 2, 3, 4, 6, 9, ... and
// the plan then claims no ratio (the optimum's k may not have been tried).
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/sender_speed/multicast/multicast.h"
#include "hetcoll/makespan/sender_speed/multicast/multicast_internal.h"

namespace hetcoll {

namespace {
constexpr double kFullScanWork = 5e7;
}

MakespanPlan plan_multicast_fnf(const Cluster& cluster, ProcessorIndex source,
                                const std::vector<ProcessorIndex>& targets, std::optional<int> max_helpers) {
  MulticastGroup group = make_multicast_group(cluster, source, targets);
  int k_max = std::min(static_cast<int>(group.candidates.size()), static_cast<int>(group.targets.size()));
  if (max_helpers) k_max = std::clamp(*max_helpers, 0, k_max);
  const double group_size = static_cast<double>(group.targets.size()) + k_max + 1;
  const bool full_scan = (k_max + 1.0) * group_size * std::max(1.0, std::log2(group_size)) <= kFullScanWork;
  std::vector<int> ks;
  if (full_scan) {
    for (int k = 0; k <= k_max; ++k) ks.push_back(k);
  } else {
    for (int k = 0; k <= k_max; k = k < 4 ? k + 1 : k + k / 2) ks.push_back(k);
    if (ks.back() != k_max) ks.push_back(k_max);
  }
  multicast_detail::BestHelperRun best;
  for (int k : ks) best.offer(cluster, group, fnf_transfers(cluster, source, group.receivers_with_helpers(k)), k);
  MakespanPlan plan = multicast_detail::finish_plan(cluster, group, best.transfers, "fnf", k_max);
  plan.notes.push_back(fmt::format("best FNF run: {} offered as helpers", multicast_detail::fastest_non_members(best.helpers)));
  if (!full_scan) {
    plan.notes.push_back(fmt::format("large group: {} helper counts tried on a geometric grid, not all {}", ks.size(),
                                     k_max + 1));
  }
  const bool all_useful_tried = full_scan && k_max >= group.max_useful_helpers;
  if (all_useful_tried && multicast_detail::source_fastest_for_helpers(cluster, group, group.max_useful_helpers)) {
    plan.guarantee = Guarantee::at_most(1.5);
    plan.guarantee.text = "<= 1.5 x optimal (FNF from a fastest source on the optimum's helper set; Khuller, Kim, Woeginger 2003 secs. 1, 4)";
  } else if (all_useful_tried) {
    plan.guarantee = Guarantee::at_most(2.0);
    plan.guarantee.text = "<= 2 x optimal (FNF, any source, on the optimum's helper set; Liu 2002 Thm 4.7, Khuller, Kim, Woeginger 2003 sec. 4)";
  } else {
    plan.guarantee = Guarantee::none();
    plan.guarantee.text = "none: not every helper count was tried";
  }
  settle_claims(plan, plan.lower_bound, cluster.tolerance(), kBoundMetProof);
  return plan;
}

}  // namespace hetcoll
