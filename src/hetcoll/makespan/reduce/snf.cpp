#include "hetcoll/makespan/reduce/snf.h"

#include <algorithm>
#include <ranges>

#include "hetcoll/core/distinct_values.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/reduce/ep.h"
#include "hetcoll/makespan/theorems.h"

namespace hetcoll {

std::vector<ProcessorIndex> snf_order(const Cluster& cluster, ProcessorIndex root) {
  std::vector<ProcessorIndex> order;
  order.reserve(static_cast<size_t>(cluster.size()));
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != root) order.push_back(p);
  }
  sort_by_time_class(cluster, order, /*slowest_first=*/true);
  return order;
}

std::string snf_optimality(const Cluster& cluster, ProcessorIndex root) {
  if (cluster.size() <= 2) return "trivial: at most one message";
  // The theorem checks depend on the set of times alone (theorems.h): the
  // senders' distinct times when they are few (one pass, no copy of n
  // times), else every sender's time.
  std::vector<double> sender_times;
  // (The root stands in for another sender, whose time is in the set anyway.)
  const ProcessorIndex stand_in = root == 0 ? 1 : 0;
  const auto time_of_sender = [&](ProcessorIndex p) { return cluster.transmission_time(p == root ? stand_in : p); };
  if (auto distinct = few_distinct_values(std::views::iota(ProcessorIndex{0}, cluster.size()), time_of_sender)) {
    sender_times = std::move(*distinct);
  } else {
    for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
      if (p != root) sender_times.push_back(cluster.transmission_time(p));
    }
  }
  const double tolerance = cluster.tolerance();
  if (auto chain = is_divisibility_chain(sender_times, tolerance)) {
    return "Liu, Kuo, Wang 2009 sec. 1 / Thm 1: every slower sender's time is a multiple of every faster one" +
           chain.caveat();
  }
  if (auto two = has_two_classes_with_ratio_at_least(sender_times, 2.0, tolerance)) {
    return "Liu, Kuo, Wang 2009 Thm 4: two classes of senders with speed ratio >= 2" + two.caveat();
  }
  return "";
}

MakespanPlan plan_reduce_snf(const Cluster& cluster, ProcessorIndex root) {
  MakespanPlan plan;
  plan.operation = Operation::reduce;
  plan.algorithm = "snf";
  plan.root = root;
  plan.transfers = ep_transfers(cluster, root, snf_order(cluster, root));
  plan.makespan = last_completion(plan.transfers);
  plan.guarantee = Guarantee::at_most(2.0);
  const std::string theorem = snf_optimality(cluster, root);
  settle_claims(plan, theorem.empty() ? reduce_lower_bound(cluster, root) : plan.makespan, cluster.tolerance(),
                theorem.empty() ? std::string(kBoundMetProof) : theorem);
  return plan;
}

}  // namespace hetcoll
