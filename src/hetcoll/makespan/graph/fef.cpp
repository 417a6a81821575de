#include "hetcoll/makespan/graph/fef.h"

#include "hetcoll/makespan/graph/greedy_broadcast.h"

namespace hetcoll {

namespace {
class FastestEdge final : public GreedyRule {
 public:
  double key(const FlatBroadcast& state, std::size_t from, std::size_t to) override {
    return state.table.cost(from, to);
  }
};
}  // namespace

EngineResult broadcast_fef(const GraphNetwork& network, const BroadcastTask& task) {
  FlatBroadcast state(network, task, "fef");
  FastestEdge rule;
  return greedy_broadcast(network, state, "fef", rule);
}

}  // namespace hetcoll
