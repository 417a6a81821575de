// Internals shared by the multicast planners (not part of the public API).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "hetcoll/makespan/sender_speed/broadcast/ordered_tree.h"
#include "hetcoll/makespan/sender_speed/multicast/multicast.h"

namespace hetcoll::multicast_detail {

// The source is at least as fast as every target and the first `max_k`
// candidates (so the broadcast guarantees for a fastest source apply to
// every sub-instance with k <= max_k helpers).
bool source_fastest_for_helpers(const Cluster& cluster, const MulticastGroup& group, int max_k);

// A multicast plan from a broadcast schedule over targets + helpers: idle
// helpers pruned and the tree re-timed, helpers listed (field and note),
// lower bound = multicast_lower_bound.
MakespanPlan finish_plan(const Cluster& cluster, const MulticastGroup& group, const std::vector<Transfer>& transfers,
                         std::string algorithm, int helpers_allowed);

// The best of a planner's runs over helper counts k: each run's schedule
// with its idle helpers pruned; a run replaces the best only when it ends
// earlier by more than the cluster tolerance (ties keep the earlier k).
struct BestHelperRun {
  std::vector<Transfer> transfers;
  double makespan = std::numeric_limits<double>::infinity();
  int helpers = 0;  // the k of the best run (-1: none offered beat the start)

  void offer(const Cluster& cluster, const MulticastGroup& group, const std::vector<Transfer>& run, int k);
};
// "no non-member", "the fastest non-member", "the 3 fastest non-members".
inline std::string fastest_non_members(int count) {
  if (count <= 0) return "no non-member";
  if (count == 1) return "the fastest non-member";
  return "the " + std::to_string(count) + " fastest non-members";
}

}  // namespace hetcoll::multicast_detail
