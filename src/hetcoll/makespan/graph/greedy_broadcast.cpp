#include "hetcoll/makespan/graph/greedy_broadcast.h"

#include <functional>
#include <queue>
#include <tuple>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

EngineResult greedy_broadcast(const GraphNetwork& /*network*/, FlatBroadcast& state, const char* planner,
                              GreedyRule& rule) {
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
  auto push_all_senders = [&] {
    for (std::size_t from = 0; from < k; ++from) {
      if (state.builder.informed(from)) push_from(from);
    }
  };
  push_all_senders();
  while (state.waiting > 0) {
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
