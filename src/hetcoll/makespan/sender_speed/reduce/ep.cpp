#include "hetcoll/makespan/sender_speed/reduce/ep.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <queue>

#include <fmt/format.h>

#include "hetcoll/core/distinct_values.h"
#include "hetcoll/core/error.h"
#include "hetcoll/core/ids.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/sender_speed/reduce/ep_internal.h"

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
    while (!active.empty() && active.top().completion <= earliest + tie_tolerance(earliest, earliest, tolerance)) {
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

std::vector<Transfer> ep_transfers_by_heap(const Cluster& cluster, ProcessorIndex root,
                                           const std::vector<ProcessorIndex>& sender_order, double start_time) {
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

namespace {

// The senders' classes for ep_by_class (see ep_internal.h): the class of
// each position of the order and, per class, its run [first, end) in the
// order; nullopt when the times or the order do not allow it.
struct OrderClasses {
  std::vector<double> times;            // per class
  std::vector<std::uint8_t> of_position;
  std::vector<std::size_t> first, end;  // per class: its run of positions
};

std::optional<OrderClasses> order_classes(const Cluster& cluster, const std::vector<ProcessorIndex>& order) {
  static_assert(kFewDistinctTimes <= std::numeric_limits<std::uint8_t>::max());
  OrderClasses classes;
  classes.of_position.resize(order.size());
  const double* times = cluster.transmission_times().data();
  int current = -1;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const double t = times[order[i]];
    if (current < 0 || t != classes.times[static_cast<std::size_t>(current)]) {
      // A new run: its class must be new (each class in one run).
      if (std::find(classes.times.begin(), classes.times.end(), t) != classes.times.end()) return std::nullopt;
      if (classes.times.size() == kFewDistinctTimes) return std::nullopt;
      current = static_cast<int>(classes.times.size());
      classes.times.push_back(t);
      classes.first.push_back(i);
      classes.end.push_back(i);
    }
    classes.of_position[i] = static_cast<std::uint8_t>(current);
    classes.end[static_cast<std::size_t>(current)] = i + 1;
  }
  const double tolerance = cluster.tolerance();
  std::vector<double> ascending = classes.times;
  std::sort(ascending.begin(), ascending.end());
  for (std::size_t c = 1; c < ascending.size(); ++c) {
    if (time_equal(ascending[c - 1], ascending[c], tolerance)) return std::nullopt;
  }
  return classes;
}

// EP with one window of active sends per class (ep_internal.h), writing the
// transfers directly: starts and ends as the sends are timed, receivers by
// Lemma 1 as in ep_transfers_by_heap. Tokens are 32-bit send indices.
std::vector<Transfer> ep_by_class(const Cluster& cluster, ProcessorIndex root,
                                  const std::vector<ProcessorIndex>& order, double start_time,
                                  const OrderClasses& classes) {
  constexpr std::int32_t kInitial = -1;
  const std::size_t senders = order.size();
  const std::size_t k = classes.times.size();
  const double tolerance = cluster.tolerance();
  std::vector<Transfer> transfers;
  transfers.reserve(senders);
  std::vector<std::array<std::int32_t, 2>> consumed(senders);
  std::size_t initial_tokens = senders + 1;  // n processors, each free at first
  // Receivers of completed sends, oldest first: few at a time (a send starts
  // as soon as two tokens are free), so a vector compacted now and then.
  std::vector<std::int32_t> completed_tokens;
  std::size_t token_head = 0;
  std::vector<std::size_t> active(classes.first);  // per class: its oldest active send (a position)
  double now = start_time;
  std::size_t next = 0;
  auto take_token = [&]() -> std::int32_t {
    if (initial_tokens > 0) {
      --initial_tokens;
      return kInitial;
    }
    return completed_tokens[token_head++];
  };
  while (next < senders) {
    while (next < senders && initial_tokens + (completed_tokens.size() - token_head) >= 2) {
      const std::int32_t first = take_token();
      const std::int32_t second = take_token();
      consumed[next] = {first, second};
      transfers.push_back({order[next], kNoProcessor, now, now + classes.times[classes.of_position[next]],
                           Payload::partial_reduction});
      ++next;
    }
    if (next == senders) break;
    if (token_head > 0) {  // (at most one token is left: drop the consumed ones)
      completed_tokens.erase(completed_tokens.begin(), completed_tokens.begin() + static_cast<std::ptrdiff_t>(token_head));
      token_head = 0;
    }
    // Complete the group of sends that end together (within the tolerance):
    // a prefix of each class's window, in order of send index class run by
    // class run.
    double earliest = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < k; ++c) {
      if (active[c] < next && active[c] < classes.end[c]) earliest = std::min(earliest, transfers[active[c]].end);
    }
    double group_end = earliest;
    for (std::size_t c = 0; c < k; ++c) {
      const std::size_t started = std::min(next, classes.end[c]);
      while (active[c] < started && transfers[active[c]].end <= earliest + tie_tolerance(earliest, earliest, tolerance)) {
        group_end = std::max(group_end, transfers[active[c]].end);
        completed_tokens.push_back(static_cast<std::int32_t>(active[c]));
        ++active[c];
      }
    }
    now = group_end;
  }
  if (senders == 0) return transfers;
  // The send completing last is the root's (see ep_transfers_by_heap).
  std::size_t last = 0;
  for (std::size_t i = 0; i < senders; ++i) {
    if (transfers[i].end > transfers[last].end || (transfers[i].end == transfers[last].end && i > last)) last = i;
  }
  transfers[last].to = root;
  for (std::size_t j = senders; j-- > 0;) {
    if (transfers[j].to == kNoProcessor) {
      throw std::logic_error("EP destination assignment: a send has no receiver");
    }
    const auto& tokens = consumed[j];
    const ProcessorIndex owners[2] = {transfers[j].to, order[j]};
    for (int side = 0; side < 2; ++side) {
      if (tokens[side] != kInitial) transfers[static_cast<std::size_t>(tokens[side])].to = owners[side];
    }
  }
  return transfers;
}

}  // namespace

std::optional<std::vector<Transfer>> ep_transfers_by_class(const Cluster& cluster, ProcessorIndex root,
                                                           const std::vector<ProcessorIndex>& sender_order,
                                                           double start_time) {
  auto classes = order_classes(cluster, sender_order);
  if (!classes) return std::nullopt;
  return ep_by_class(cluster, root, sender_order, start_time, *classes);
}

std::vector<Transfer> ep_transfers(const Cluster& cluster, ProcessorIndex root,
                                   const std::vector<ProcessorIndex>& sender_order, double start_time) {
  check_order(cluster, root, sender_order);
  if (auto transfers = ep_transfers_by_class(cluster, root, sender_order, start_time)) return std::move(*transfers);
  return ep_transfers_by_heap(cluster, root, sender_order, start_time);
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
