// Shared pieces of the multicast planners (contract in multicast.h): the
// group, the lower bound, the finishing of a plan, and the registration.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/core/listed_once.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/sender_speed/multicast/multicast.h"
#include "hetcoll/makespan/sender_speed/multicast/multicast_internal.h"

namespace hetcoll {

std::vector<ProcessorIndex> MulticastGroup::receivers_with_helpers(int k) const {
  std::vector<ProcessorIndex> receivers = targets;
  receivers.insert(receivers.end(), candidates.begin(), candidates.begin() + k);
  return receivers;
}

MulticastGroup make_multicast_group(const Cluster& cluster, ProcessorIndex source,
                                    const std::vector<ProcessorIndex>& targets) {
  if (source < 0 || source >= cluster.size()) throw InputError("source", "not a processor of the cluster");
  MulticastGroup group;
  group.source = source;
  std::vector<char> member(static_cast<size_t>(cluster.size()), 0);
  member[static_cast<size_t>(source)] = 1;
  require_listed_once(targets, cluster.size(), "targets", [&](ProcessorIndex p) { return cluster.id(p); });
  for (ProcessorIndex target : targets) {
    if (target < 0 || target >= cluster.size()) throw InputError("targets", "names a processor outside the cluster");
    if (!member[static_cast<size_t>(target)]) {
      member[static_cast<size_t>(target)] = 1;
      group.targets.push_back(target);
    }
  }
  if (group.targets.empty()) {
    throw InputError("targets", "a multicast needs at least one target other than the source");
  }
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (!member[static_cast<size_t>(p)]) group.candidates.push_back(p);
  }
  sort_by_time_class(cluster, group.candidates);  // fastest first; equal times (core/ids.h) by index
  group.max_useful_helpers =
      std::min(static_cast<int>(group.candidates.size()), static_cast<int>(group.targets.size()) - 1);
  return group;
}

double multicast_lower_bound(const Cluster& cluster, const MulticastGroup& group) {
  double fastest = cluster.transmission_time(group.source);
  for (ProcessorIndex target : group.targets) fastest = std::min(fastest, cluster.transmission_time(target));
  double best = std::numeric_limits<double>::infinity();
  for (int k = 0; k <= group.max_useful_helpers; ++k) {
    if (k > 0) fastest = std::min(fastest, cluster.transmission_time(group.candidates[static_cast<size_t>(k - 1)]));
    const auto participants = static_cast<std::int64_t>(group.targets.size()) + k + 1;
    best = std::min(best, cluster.transmission_time(group.source) + fastest * (ceil_log2(participants) - 1));
  }
  return best;
}

namespace multicast_detail {

bool source_fastest_for_helpers(const Cluster& cluster, const MulticastGroup& group, int max_k) {
  const double source_time = cluster.transmission_time(group.source);
  const double tolerance = cluster.tolerance();
  for (ProcessorIndex target : group.targets) {
    if (time_less(cluster.transmission_time(target), source_time, tolerance)) return false;
  }
  for (int k = 0; k < max_k; ++k) {
    if (time_less(cluster.transmission_time(group.candidates[static_cast<size_t>(k)]), source_time, tolerance)) return false;
  }
  return true;
}

MakespanPlan finish_plan(const Cluster& cluster, const MulticastGroup& group, const std::vector<Transfer>& transfers,
                         std::string algorithm, int helpers_allowed) {
  MakespanPlan plan;
  plan.operation = Operation::multicast;
  plan.algorithm = std::move(algorithm);
  plan.root = group.source;
  plan.targets = group.targets;
  plan.transfers = prune_idle_helpers(cluster, group.source, transfers, group.targets);
  plan.makespan = last_completion(plan.transfers);
  std::vector<char> is_target(static_cast<size_t>(cluster.size()), 0);
  for (ProcessorIndex target : group.targets) is_target[static_cast<size_t>(target)] = 1;
  for (const auto& transfer : plan.transfers) {
    if (!is_target[static_cast<size_t>(transfer.to)]) plan.helpers.push_back(transfer.to);
  }
  std::sort(plan.helpers.begin(), plan.helpers.end());
  std::string names;
  for (ProcessorIndex helper : plan.helpers) {
    if (!names.empty()) names += ", ";
    names += cluster.id(helper);
  }
  plan.notes.push_back(plan.helpers.empty()
                           ? fmt::format("helpers: none (up to {} tried)", fastest_non_members(helpers_allowed))
                           : fmt::format("helpers (non-members that forward): {} (up to {} tried)", names,
                                         fastest_non_members(helpers_allowed)));
  plan.lower_bound = multicast_lower_bound(cluster, group);
  return plan;
}

void BestHelperRun::offer(const Cluster& cluster, const MulticastGroup& group, const std::vector<Transfer>& run,
                          int k) {
  auto pruned = prune_idle_helpers(cluster, group.source, run, group.targets);
  const double run_makespan = last_completion(pruned);
  // Shorter beyond the rounding of its sums (1e-12 of the makespan), not
  // only beyond a tie of the rule: ties do not chain, and a run within a tie
  // of the last one may be more than a tie below the first (1e4 + 2e-5,
  // 1e4 + 1.002e-5, an optimum of 1e4 + 6e-8). Rounding alone (rescaled or
  // decimal times) never makes a run with more helpers win.
  constexpr double kRoundingNoise = 1e-12;
  if (!std::isfinite(makespan) ? run_makespan < makespan : run_makespan < makespan - kRoundingNoise * std::fabs(makespan)) {
    makespan = run_makespan;
    transfers = std::move(pruned);
    helpers = k;
  }
}

}  // namespace multicast_detail

}  // namespace hetcoll
