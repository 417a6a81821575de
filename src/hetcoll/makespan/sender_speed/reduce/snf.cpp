#include "hetcoll/makespan/sender_speed/reduce/snf.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <ranges>

#include "hetcoll/core/distinct_values.h"
#include "hetcoll/core/ids.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/sender_speed/reduce/ep.h"
#include "hetcoll/makespan/sender_speed/theorems.h"

namespace hetcoll {

namespace {

// snf_order in one pass over the senders when their times take at most
// kFewDistinctTimes exact values, any two more than the tolerance apart (a
// class of the tolerance rule is then one exact time): each sender's class
// among the values seen so far, then a counting sort, slowest class first,
// by index within a class — what sort_by_time_class gives then. `distinct`
// gets the values, ascending. nullopt otherwise.
std::optional<std::vector<ProcessorIndex>> snf_order_by_class(const Cluster& cluster, ProcessorIndex root,
                                                              std::vector<double>& distinct) {
  static_assert(kFewDistinctTimes <= std::numeric_limits<std::uint8_t>::max());
  const auto n = static_cast<std::size_t>(cluster.size());
  const double* times = cluster.transmission_times().data();
  std::vector<double> found;  // in order of discovery
  std::vector<std::uint8_t> class_of(n);
  bool have_last = false;
  double last = 0;
  std::uint8_t last_class = 0;
  for (std::size_t p = 0; p < n; ++p) {
    if (static_cast<ProcessorIndex>(p) == root) continue;
    const double t = times[p];
    if (!have_last || t != last) {
      const auto c = static_cast<std::size_t>(std::find(found.begin(), found.end(), t) - found.begin());
      if (c == found.size()) {
        if (found.size() == kFewDistinctTimes) return std::nullopt;
        found.push_back(t);
      }
      last_class = static_cast<std::uint8_t>(c);
      last = t;
      have_last = true;
    }
    class_of[p] = last_class;
  }
  const std::size_t k = found.size();
  std::vector<std::uint8_t> by_time(k);  // classes, fastest first
  for (std::size_t c = 0; c < k; ++c) by_time[c] = static_cast<std::uint8_t>(c);
  std::sort(by_time.begin(), by_time.end(), [&](std::uint8_t a, std::uint8_t b) { return found[a] < found[b]; });
  distinct.resize(k);
  for (std::size_t r = 0; r < k; ++r) distinct[r] = found[by_time[r]];
  for (std::size_t r = 1; r < k; ++r) {
    if (time_equal(distinct[r - 1], distinct[r], cluster.tolerance())) return std::nullopt;
  }
  // Where each class starts in the order, slowest class first.
  std::vector<std::size_t> count(k, 0);
  for (std::size_t p = 0; p < n; ++p) {
    if (static_cast<ProcessorIndex>(p) != root) ++count[class_of[p]];
  }
  std::vector<std::size_t> fill(k, 0);
  std::size_t at = 0;
  for (std::size_t r = k; r-- > 0;) {
    fill[by_time[r]] = at;
    at += count[by_time[r]];
  }
  std::vector<ProcessorIndex> order(at);
  for (std::size_t p = 0; p < n; ++p) {
    if (static_cast<ProcessorIndex>(p) != root) order[fill[class_of[p]]++] = static_cast<ProcessorIndex>(p);
  }
  return order;
}

// snf_optimality with the senders' times given as `sender_times`: every
// sender's time, or only their distinct values (the theorem checks depend
// on the set of values alone, theorems.h).
std::string snf_optimality_over(const Cluster& cluster, const std::vector<double>& sender_times) {
  if (cluster.size() <= 2) return "trivial: at most one message";
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

}  // namespace

std::vector<ProcessorIndex> snf_order(const Cluster& cluster, ProcessorIndex root) {
  std::vector<double> distinct;
  if (auto order = snf_order_by_class(cluster, root, distinct)) return std::move(*order);
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
  // The senders' distinct times when they are few (one pass, no copy of n
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
  return snf_optimality_over(cluster, sender_times);
}

MakespanPlan plan_reduce_snf(const Cluster& cluster, ProcessorIndex root) {
  MakespanPlan plan;
  plan.operation = Operation::reduce;
  plan.algorithm = "snf";
  plan.root = root;
  // The order and the senders' distinct times in one pass when they are few
  // (snf_order_by_class), else snf_order and snf_optimality as they are.
  std::vector<double> distinct;
  auto by_class = snf_order_by_class(cluster, root, distinct);
  const std::vector<ProcessorIndex> order = by_class ? std::move(*by_class) : snf_order(cluster, root);
  plan.transfers = ep_transfers(cluster, root, order);
  plan.makespan = last_completion(plan.transfers);
  plan.guarantee = Guarantee::at_most(2.0);
  const std::string theorem = by_class ? snf_optimality_over(cluster, distinct) : snf_optimality(cluster, root);
  settle_claims(plan, theorem.empty() ? reduce_lower_bound(cluster, root) : plan.makespan, cluster.tolerance(),
                theorem.empty() ? std::string(kBoundMetProof) : theorem);
  return plan;
}

}  // namespace hetcoll
