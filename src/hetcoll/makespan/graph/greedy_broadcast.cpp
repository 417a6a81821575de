#include "hetcoll/makespan/graph/greedy_broadcast.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <queue>
#include <tuple>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

namespace {

// Leaves hold values (+infinity: inactive); a node keeps the leaf of its
// subtree with the smallest value, the lowest index among equals.
class MinTree {
 public:
  static constexpr std::size_t npos = SIZE_MAX;
  explicit MinTree(std::size_t n) {
    while (size_ < n) size_ *= 2;
    value_.assign(size_, kNoRoute);
    best_.assign(2 * size_, npos);
  }
  void set(std::size_t i, double value) {
    value_[i] = value;
    std::size_t node = size_ + i;
    best_[node] = value < kNoRoute ? i : npos;
    for (node /= 2; node >= 1; node /= 2) {
      const std::size_t a = best_[2 * node], b = best_[2 * node + 1];
      best_[node] = a == npos ? b : b == npos ? a : value_[b] < value_[a] ? b : a;
    }
  }
  std::size_t best() const { return best_[1]; }
  // The lowest index satisfying `pred`, when pred holds for a subtree's best
  // leaf exactly when it holds for some leaf of the subtree.
  template <class Pred>
  std::size_t first(Pred pred) const {
    if (best_[1] == npos || !pred(best_[1])) return npos;
    std::size_t node = 1;
    while (node < size_) {
      const std::size_t left = best_[2 * node];
      node = left != npos && pred(left) ? 2 * node : 2 * node + 1;
    }
    return node - size_;
  }

 private:
  std::size_t size_ = 1;
  std::vector<double> value_;
  std::vector<std::size_t> best_;
};

// Every 64 transfers: past the task's deadline, the run is dropped.
void check_deadline(const FlatBroadcast& state, const char* planner, std::size_t& placed) {
  if (++placed % 64 != 0 || state.deadline == std::chrono::steady_clock::time_point::max()) return;
  if (std::chrono::steady_clock::now() > state.deadline) {
    throw LimitError(fmt::format("{}: still running at the time limit ({} steps, {} members)", planner, placed,
                                 state.table.size()));
  }
}

bool uniform_case(const FlatBroadcast& state, const GreedyRule& rule) {
  if (!rule.uniform_keys() || !state.table.through_hub() || !state.table.uniform_cost()) return false;
  for (std::size_t i = 0; i < state.table.size(); ++i) {
    if (!state.builder.informed(i) && !state.must_receive[i]) return false;
  }
  return true;
}

// key(f, t) grows with max(sender_free(f), receiver_free(t)) (uniform_keys
// on a through_hub table), so the smallest key is that of the earliest free
// sender and the earliest free receiver; the lowest sender reaching it is
// the first whose key with that receiver equals it, and then the lowest
// receiver likewise: the queue's (key, from, to) order. After a transfer,
// only members whose side shares one of its ports change.
EngineResult uniform_greedy(FlatBroadcast& state, const char* planner, GreedyRule& rule) {
  const std::size_t k = state.table.size();
  auto& builder = state.builder;
  std::vector<std::pair<PortId, std::size_t>> sender_side, receiver_side;  // (port, member), sorted
  for (std::size_t i = 0; i < k; ++i) {
    for (auto port : state.table.port_parts(i, i == 0 ? 1 : 0).first) sender_side.emplace_back(port, i);
    for (auto port : state.table.port_parts(i == 0 ? 1 : 0, i).second) receiver_side.emplace_back(port, i);
  }
  std::sort(sender_side.begin(), sender_side.end());
  std::sort(receiver_side.begin(), receiver_side.end());
  MinTree senders(k), receivers(k);
  for (std::size_t i = 0; i < k; ++i) {
    if (builder.informed(i)) {
      senders.set(i, builder.sender_free(i));
    } else {
      receivers.set(i, builder.receiver_free(i));
    }
  }
  std::vector<std::size_t> lowered;
  auto refresh = [&](std::span<const PortId> ports) {
    for (auto port : ports) {
      for (auto it = std::lower_bound(sender_side.begin(), sender_side.end(), std::pair{port, std::size_t{0}});
           it != sender_side.end() && it->first == port; ++it) {
        if (builder.informed(it->second)) senders.set(it->second, builder.sender_free(it->second));
      }
      for (auto it = std::lower_bound(receiver_side.begin(), receiver_side.end(), std::pair{port, std::size_t{0}});
           it != receiver_side.end() && it->first == port; ++it) {
        if (!builder.informed(it->second)) receivers.set(it->second, builder.receiver_free(it->second));
      }
    }
  };
  std::size_t placed = 0;
  while (state.waiting > 0) {
    check_deadline(state, planner, placed);
    const std::size_t f0 = senders.best(), t0 = receivers.best();
    if (f0 == MinTree::npos || t0 == MinTree::npos) {
      throw NoSolutionError(fmt::format("{}: some participants cannot be reached through routes and relays", planner));
    }
    const double best = rule.key(state, f0, t0);
    const std::size_t from = senders.first([&](std::size_t f) { return rule.key(state, f, t0) == best; });
    const std::size_t to = receivers.first([&](std::size_t t) { return rule.key(state, from, t) == best; });
    state.send(from, to);
    rule.placed(state, from, to);
    lowered.clear();
    rule.take_lowered(lowered);  // keys are evaluated afresh here
    receivers.set(to, kNoRoute);
    const auto ports = state.table.port_parts(from, to);
    refresh(ports.first);
    refresh(ports.second);
    senders.set(from, builder.sender_free(from));
    senders.set(to, builder.sender_free(to));
  }
  EngineResult result;
  result.transfers = state.builder.transfers();
  return result;
}

}  // namespace

EngineResult greedy_broadcast(const GraphNetwork& /*network*/, FlatBroadcast& state, const char* planner,
                              GreedyRule& rule) {
  if (uniform_case(state, rule)) return uniform_greedy(state, planner, rule);
  const std::size_t k = state.table.size();
  using Candidate = std::tuple<double, std::size_t, std::size_t>;  // (key, from, to)
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
  std::vector<char> is_candidate_receiver(state.must_receive.begin(), state.must_receive.end());

  auto push_from = [&](std::size_t from) {
    for (std::size_t to = 0; to < k; ++to) {
      if (!is_candidate_receiver[to] || state.builder.informed(to)) continue;
      const double key = rule.key(state, from, to);
      if (key < kNoRoute) queue.emplace(key, from, to);
    }
  };
  auto push_to = [&](std::size_t to) {
    if (!is_candidate_receiver[to] || state.builder.informed(to)) return;
    for (std::size_t from = 0; from < k; ++from) {
      if (!state.builder.informed(from)) continue;
      const double key = rule.key(state, from, to);
      if (key < kNoRoute) queue.emplace(key, from, to);
    }
  };
  std::vector<std::size_t> lowered;
  auto push_all_senders = [&] {
    for (std::size_t from = 0; from < k; ++from) {
      if (state.builder.informed(from)) push_from(from);
    }
  };
  push_all_senders();
  std::size_t placed = 0;
  while (state.waiting > 0) {
    check_deadline(state, planner, placed);
    if (queue.empty()) {
      // Multicast: no target is reachable directly; let other participants
      // relay (they become helpers).
      bool widened = false;
      for (std::size_t to = 0; to < k; ++to) {
        if (!is_candidate_receiver[to] && !state.builder.informed(to)) {
          is_candidate_receiver[to] = 1;
          widened = true;
        }
      }
      if (!widened) {
        throw NoSolutionError(fmt::format("{}: some participants cannot be reached through routes and relays",
                                          planner));
      }
      push_all_senders();
      continue;
    }
    auto [key, from, to] = queue.top();
    queue.pop();
    if (state.builder.informed(to) || !is_candidate_receiver[to]) continue;
    const double current = rule.key(state, from, to);
    if (current > key) {
      if (current < kNoRoute) queue.emplace(current, from, to);
      continue;
    }
    state.send(from, to);
    rule.placed(state, from, to);
    lowered.clear();
    rule.take_lowered(lowered);
    for (auto v : lowered) push_to(v);
    if (!state.must_receive[to]) {
      // A helper was informed: back to targets only.
      for (std::size_t j = 0; j < k; ++j) is_candidate_receiver[j] = state.must_receive[j];
    }
    push_from(to);
  }
  EngineResult result;
  result.transfers = state.builder.transfers();
  return result;
}

}  // namespace hetcoll
