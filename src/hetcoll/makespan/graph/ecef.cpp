#include "hetcoll/makespan/graph/ecef.h"

#include "hetcoll/makespan/graph/greedy_broadcast.h"

namespace hetcoll {

namespace {
class EarliestCompletion final : public GreedyRule {
 public:
  double key(const FlatBroadcast& state, std::size_t from, std::size_t to) override {
    return state.builder.window(from, to).end;
  }
  bool uniform_keys() const override { return true; }  // the window's end: start + the one cost
};
}  // namespace

EngineResult broadcast_ecef(const GraphNetwork& network, const BroadcastTask& task) {
  FlatBroadcast state(network, task, "ecef");
  EarliestCompletion rule;
  return greedy_broadcast(network, state, "ecef", rule);
}

}  // namespace hetcoll
