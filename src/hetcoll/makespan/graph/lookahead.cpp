#include "hetcoll/makespan/graph/lookahead.h"

#include <algorithm>

#include "hetcoll/makespan/graph/greedy_broadcast.h"

namespace hetcoll {

namespace {

class LookAhead final : public GreedyRule {
 public:
  explicit LookAhead(const FlatBroadcast& state) : uniform_(state.table.uniform_cost()) {
    if (uniform_) return;  // every list is every other member, in index order: look_ahead() counts instead
    const std::size_t k = state.table.size();
    next_.assign(k, 0);
    cheapest_.resize(k);
    remaining_.resize(k);
    for (std::size_t v = 0; v < k; ++v) {
      auto& list = cheapest_[v];
      for (std::size_t w = 0; w < k; ++w) {
        if (w != v && state.must_receive[w] && state.table.connected(v, w)) list.push_back(w);
      }
      std::stable_sort(list.begin(), list.end(),
                       [&](std::size_t a, std::size_t b) { return state.table.cost(v, a) < state.table.cost(v, b); });
      for (auto w : list) remaining_[v] += state.builder.informed(w) ? 0 : 1;
    }
  }

  double key(const FlatBroadcast& state, std::size_t from, std::size_t to) override {
    const double completion = state.builder.window(from, to).end;
    if (!(completion < kNoRoute)) return kNoRoute;
    return completion + look_ahead(state, to);
  }

  // The look-ahead of v falls to 0 when the last member of its list is
  // informed: v's keys as a receiver drop, which the loop must be told.
  void placed(const FlatBroadcast& state, std::size_t /*from*/, std::size_t to) override {
    if (!state.must_receive[to]) return;
    if (uniform_) {
      if (state.waiting == 1) {
        for (std::size_t v = 0; v < state.table.size(); ++v) {
          if (state.must_receive[v] && !state.builder.informed(v)) lowered_.push_back(v);
        }
      }
      return;
    }
    for (std::size_t v = 0; v < remaining_.size(); ++v) {
      if (v == to || !state.table.connected(v, to) || remaining_[v] == 0) continue;
      if (--remaining_[v] == 0 && !state.builder.informed(v)) lowered_.push_back(v);
    }
  }
  // Equal costs: the look-ahead is that cost for every waiting member while
  // another one waits, then 0.
  bool uniform_keys() const override { return true; }
  void take_lowered(std::vector<std::size_t>& out) override {
    out.insert(out.end(), lowered_.begin(), lowered_.end());
    lowered_.clear();
  }

 private:
  // The cheapest route from v to a member still waiting (other than v).
  // Grows as members get informed, until none is left and it falls to 0
  // (placed() reports that).
  double look_ahead(const FlatBroadcast& state, std::size_t v) {
    if (uniform_) {
      const std::size_t others = state.waiting - (state.must_receive[v] && !state.builder.informed(v) ? 1 : 0);
      return others > 0 ? state.table.cost(v, v == 0 ? 1 : 0) : 0.0;
    }
    const auto& list = cheapest_[v];
    std::size_t& next = next_[v];
    while (next < list.size() && state.builder.informed(list[next])) ++next;
    return next < list.size() ? state.table.cost(v, list[next]) : 0.0;
  }

  bool uniform_;
  std::vector<std::vector<std::size_t>> cheapest_;  // per member: waiting members by route cost
  std::vector<std::size_t> next_;
  std::vector<std::size_t> remaining_;  // per member: members of its list still waiting
  std::vector<std::size_t> lowered_;
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
