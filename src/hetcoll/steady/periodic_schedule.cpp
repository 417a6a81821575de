#include "hetcoll/steady/periodic_schedule.h"

#include <map>
#include <stdexcept>

#include "hetcoll/steady/edge_colouring.h"

namespace hetcoll {

bool uses_sender_port(const SteadyPlatform& platform, std::size_t edge) {
  return platform.cost[edge] > 0 && platform.one_port[static_cast<std::size_t>(platform.platform->edges()[edge].from)];
}

bool uses_receiver_port(const SteadyPlatform& platform, std::size_t edge) {
  return platform.cost[edge] > 0 && platform.one_port[static_cast<std::size_t>(platform.platform->edges()[edge].to)];
}

OnePortSchedule build_one_port_schedule(const SteadyPlatform& platform, const BigInteger& period,
                                        const std::vector<ScheduledItem>& items, bool split_messages) {
  const auto& edges = platform.platform->edges();
  const int nodes = platform.size();
  OnePortSchedule result;
  result.period = period;

  // Items per edge, in input order; edges in order of first appearance.
  std::vector<std::size_t> edge_order;
  std::map<std::size_t, std::vector<const ScheduledItem*>> per_edge;
  for (const auto& item : items) {
    if (item.messages <= 0) continue;
    auto [it, inserted] = per_edge.try_emplace(item.edge);
    if (inserted) edge_order.push_back(item.edge);
    it->second.push_back(&item);
  }

  std::vector<RationalColouringEdge> colouring_edges;
  std::vector<std::size_t> colouring_platform_edge;
  std::vector<PeriodicTransfer> free_transfers;
  int next_left = nodes;
  int next_right = nodes;
  for (auto e : edge_order) {
    const bool sender = uses_sender_port(platform, e);
    const bool receiver = uses_receiver_port(platform, e);
    if (!sender && !receiver) {
      for (const auto* item : per_edge[e]) {
        free_transfers.push_back({edges[e].from, edges[e].to, item->type, item->messages, item->tree});
      }
      continue;
    }
    Rational busy = 0;
    for (const auto* item : per_edge[e]) busy += item->messages * platform.cost[e];
    colouring_edges.push_back({sender ? edges[e].from : next_left++, receiver ? edges[e].to : next_right++, busy});
    colouring_platform_edge.push_back(e);
  }
  const auto colouring = weighted_edge_colouring(next_left, next_right, colouring_edges);
  if (colouring.max_degree > Rational(period)) {
    throw std::logic_error("one-port schedule: a port is busy " + to_string(colouring.max_degree) +
                           " per period of " + to_string(period));
  }

  // Fill each matching's edges with their items, continuing across slots.
  std::vector<std::size_t> next_item(colouring_edges.size(), 0);
  std::vector<Rational> sent_of_item(colouring_edges.size(), Rational(0));  // messages of the current item sent
  result.slots.reserve(colouring.matchings.size() + 2);  // a Slot moves by copying (mpq_class's move may throw)
  for (const auto& matching : colouring.matchings) {
    Slot slot;
    slot.length = matching.length;
    for (int c : matching.edges) {
      const auto e = colouring_platform_edge[static_cast<std::size_t>(c)];
      const auto& list = per_edge[e];
      Rational budget = matching.length;  // time
      auto& index = next_item[static_cast<std::size_t>(c)];
      auto& sent = sent_of_item[static_cast<std::size_t>(c)];
      while (budget > 0 && index < list.size()) {
        const auto* item = list[index];
        const Rational remaining = item->messages - sent;
        const Rational can = budget / platform.cost[e];
        const Rational messages = remaining < can ? remaining : can;
        slot.transfers.push_back({edges[e].from, edges[e].to, item->type, messages, item->tree});
        budget -= messages * platform.cost[e];
        sent += messages;
        if (sent == item->messages) {
          ++index;
          sent = 0;
        }
      }
    }
    result.slots.push_back(std::move(slot));
  }
  for (std::size_t c = 0; c < colouring_edges.size(); ++c) {
    if (next_item[c] != per_edge[colouring_platform_edge[c]].size()) {
      throw std::logic_error("one-port schedule: the matchings do not cover an edge's messages");
    }
  }
  result.matchings = static_cast<int>(result.slots.size());
  if (!free_transfers.empty()) {
    if (result.slots.empty()) result.slots.push_back({Rational(0), {}});
    auto& first = result.slots.front().transfers;
    first.insert(first.end(), free_transfers.begin(), free_transfers.end());
  }
  Rational used = 0;
  for (const auto& slot : result.slots) used += slot.length;
  if (used < Rational(period)) result.slots.push_back({Rational(period) - used, {}});
  if (result.slots.empty()) result.slots.push_back({Rational(period), {}});
  // A zero-length slot (only free transfers on a platform with nothing else)
  // is merged away by giving it the idle time, when there is any.
  if (result.slots.front().length == 0 && result.slots.size() > 1 && result.slots.back().transfers.empty()) {
    result.slots.front().length = result.slots.back().length;
    result.slots.pop_back();
  }

  if (!split_messages) {
    std::vector<Rational> counts;
    for (const auto& slot : result.slots) {
      for (const auto& transfer : slot.transfers) counts.push_back(transfer.messages);
    }
    result.scale = lcm_of_denominators(counts);
    if (result.scale != 1) {
      const Rational factor(result.scale);
      result.period *= result.scale;
      for (auto& slot : result.slots) {
        slot.length *= factor;
        for (auto& transfer : slot.transfers) transfer.messages *= factor;
      }
    }
  }
  return result;
}

}  // namespace hetcoll
