#include "hetcoll/makespan/graph/lookahead.h"

#include <algorithm>

#include "hetcoll/makespan/graph/greedy_broadcast.h"

namespace hetcoll {

namespace {

class LookAhead final : public GreedyRule {
 public:
  explicit LookAhead(const FlatBroadcast& state) : next_(state.table.size(), 0) {
    const std::size_t k = state.table.size();
    cheapest_.resize(k);
    for (std::size_t v = 0; v < k; ++v) {
      auto& list = cheapest_[v];
      for (std::size_t w = 0; w < k; ++w) {
        if (w != v && state.must_receive[w] && state.table.connected(v, w)) list.push_back(w);
      }
      std::stable_sort(list.begin(), list.end(),
                       [&](std::size_t a, std::size_t b) { return state.table.cost(v, a) < state.table.cost(v, b); });
    }
  }

  double key(const FlatBroadcast& state, std::size_t from, std::size_t to) override {
    const double completion = state.builder.window(from, to).end;
    if (!(completion < kNoRoute)) return kNoRoute;
    return completion + look_ahead(state, to);
  }

 private:
  // The cheapest route from v to a member still waiting (other than v).
  // Only grows as members get informed, which the lazy queue needs.
  double look_ahead(const FlatBroadcast& state, std::size_t v) {
    const auto& list = cheapest_[v];
    std::size_t& next = next_[v];
    while (next < list.size() && state.builder.informed(list[next])) ++next;
    return next < list.size() ? state.table.cost(v, list[next]) : 0.0;
  }

  std::vector<std::vector<std::size_t>> cheapest_;  // per member: waiting members by route cost
  std::vector<std::size_t> next_;
};

}  // namespace

EngineResult broadcast_lookahead(const GraphNetwork& network, const BroadcastTask& task) {
  FlatBroadcast state(network, task, "lookahead");
  LookAhead rule(state);
  return greedy_broadcast(network, state, "lookahead", rule);
}

void run_lookahead(const GraphNetwork& network, FlatBroadcast& state) {
  LookAhead rule(state);
  greedy_broadcast(network, state, "lookahead", rule);
}

}  // namespace hetcoll
