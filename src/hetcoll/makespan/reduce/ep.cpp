#include "hetcoll/makespan/reduce/ep.h"

#include <algorithm>
#include <array>
#include <deque>
#include <queue>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/claims.h"

namespace hetcoll {

namespace {

constexpr std::int64_t kInitialToken = -1;

struct ActiveSend {
  double completion;
  std::int64_t send;  // index into the sender order
};

struct LaterCompletion {
  bool operator()(const ActiveSend& a, const ActiveSend& b) const {
    return a.completion != b.completion ? a.completion > b.completion : a.send > b.send;
  }
};

// The EP timing of an order. When `consumed` is given, records for each
// send the two tokens it consumed (kInitialToken or the index of the send
// whose receiver left the token).
std::vector<double> ep_start_times(const Cluster& cluster, const std::vector<ProcessorIndex>& order,
                                   double start_time,
                                   std::vector<std::array<std::int64_t, 2>>* consumed) {
  const auto senders = static_cast<std::int64_t>(order.size());
  std::vector<double> start(order.size());
  if (consumed) consumed->assign(order.size(), std::array<std::int64_t, 2>{kInitialToken, kInitialToken});
  const double tolerance = cluster.tolerance();
  std::int64_t initial_tokens = senders + 1;  // n processors, each free at first
  std::deque<std::int64_t> completed_tokens;  // receivers of completed sends, oldest first
  std::priority_queue<ActiveSend, std::vector<ActiveSend>, LaterCompletion> active;
  double now = start_time;
  std::int64_t next = 0;
  std::vector<std::int64_t> group;  // the sends completing together (reused)
  auto take_token = [&]() -> std::int64_t {
    if (initial_tokens > 0) {
      --initial_tokens;
      return kInitialToken;
    }
    std::int64_t token = completed_tokens.front();
    completed_tokens.pop_front();
    return token;
  };
  while (next < senders) {
    while (next < senders && initial_tokens + static_cast<std::int64_t>(completed_tokens.size()) >= 2) {
      start[static_cast<size_t>(next)] = now;
      std::int64_t first = take_token();
      std::int64_t second = take_token();
      if (consumed) (*consumed)[static_cast<size_t>(next)] = {first, second};
      active.push({now + cluster.transmission_time(order[static_cast<size_t>(next)]), next});
      ++next;
    }
    if (next == senders) break;
    // Complete the group of sends that end together (within the tolerance).
    const double earliest = active.top().completion;
    double group_end = earliest;
    group.clear();
    while (!active.empty() && active.top().completion <= earliest + tolerance) {
      group_end = std::max(group_end, active.top().completion);
      group.push_back(active.top().send);
      active.pop();
    }
    std::sort(group.begin(), group.end());
    for (auto send : group) completed_tokens.push_back(send);
    now = group_end;
  }
  return start;
}

void check_order(const Cluster& cluster, ProcessorIndex root, const std::vector<ProcessorIndex>& order) {
  if (static_cast<ProcessorIndex>(order.size()) != cluster.size() - 1) {
    throw InputError("order", fmt::format("must list every processor but the root once ({} processors), got {}",
                                 cluster.size() - 1, order.size()));
  }
  std::vector<bool> seen(static_cast<size_t>(cluster.size()), false);
  for (auto p : order) {
    if (p < 0 || p >= cluster.size()) throw InputError("order", "names a processor outside the cluster");
    if (p == root) throw InputError("order", fmt::format("the root {} never sends; leave it out", cluster.id(p)));
    if (seen[static_cast<size_t>(p)]) throw InputError("order", fmt::format("{} appears twice", cluster.id(p)));
    seen[static_cast<size_t>(p)] = true;
  }
}

}  // namespace

double ep_makespan(const Cluster& cluster, const std::vector<ProcessorIndex>& sender_order) {
  auto start = ep_start_times(cluster, sender_order, 0.0, nullptr);
  double makespan = 0;
  for (size_t i = 0; i < start.size(); ++i) {
    makespan = std::max(makespan, start[i] + cluster.transmission_time(sender_order[i]));
  }
  return makespan;
}

std::vector<Transfer> ep_transfers(const Cluster& cluster, ProcessorIndex root,
                                   const std::vector<ProcessorIndex>& sender_order, double start_time) {
  check_order(cluster, root, sender_order);
  std::vector<std::array<std::int64_t, 2>> consumed;
  auto start = ep_start_times(cluster, sender_order, start_time, &consumed);
  const size_t senders = sender_order.size();
  std::vector<Transfer> transfers(senders);
  if (senders == 0) return transfers;
  // The send completing last leaves the only unconsumed token: its receiver
  // is the root. (Completion times: the latest; ties cannot occur there, as
  // a tied second send's token would have to be consumed later.)
  size_t last = 0;
  for (size_t i = 0; i < senders; ++i) {
    double end_i = start[i] + cluster.transmission_time(sender_order[i]);
    double end_last = start[last] + cluster.transmission_time(sender_order[last]);
    if (end_i > end_last || (end_i == end_last && i > last)) last = i;
  }
  std::vector<ProcessorIndex> receiver(senders, kNoProcessor);
  receiver[last] = root;
  // Top-down over the token tree: a send's consumed tokens are owned by its
  // receiver and its sender; a token left by send j means j's receiver is
  // that owner. Sends are visited from the latest start to the earliest, so
  // each send's receiver is known when it is visited.
  for (size_t k = senders; k-- > 0;) {
    if (receiver[k] == kNoProcessor) {
      throw std::logic_error("EP destination assignment: a send has no receiver");
    }
    const auto& tokens = consumed[k];
    const ProcessorIndex owners[2] = {receiver[k], sender_order[k]};
    for (int side = 0; side < 2; ++side) {
      if (tokens[side] != kInitialToken) receiver[static_cast<size_t>(tokens[side])] = owners[side];
    }
  }
  for (size_t i = 0; i < senders; ++i) {
    const ProcessorIndex sender = sender_order[i];
    transfers[i] = {sender, receiver[i], start[i], start[i] + cluster.transmission_time(sender),
                    Payload::partial_reduction};
  }
  return transfers;
}

MakespanPlan plan_reduce_ep(const Cluster& cluster, ProcessorIndex root, const std::vector<ProcessorIndex>& order) {
  MakespanPlan plan;
  plan.operation = Operation::reduce;
  plan.algorithm = "ep";
  plan.root = root;
  plan.transfers = ep_transfers(cluster, root, order);
  plan.makespan = last_completion(plan.transfers);
  plan.guarantee = Guarantee::none();
  settle_claims(plan, reduce_lower_bound(cluster, root), cluster.tolerance(), kBoundMetProof);
  return plan;
}

}  // namespace hetcoll
