#include "hetcoll/makespan/graph/binomial_tree.h"

#include <bit>
#include <vector>

#include "hetcoll/makespan/graph/graph_schedule.h"

namespace hetcoll {

EngineResult broadcast_binomial(const GraphNetwork& network, const BroadcastTask& task) {
  // Only the source and the members that must receive take part.
  BroadcastTask taking_part = task;
  taking_part.members.clear();
  taking_part.must_receive.clear();
  for (std::size_t i = 0; i < task.members.size(); ++i) {
    if (task.members[i] != task.source && !task.must_receive[i]) continue;
    taking_part.members.push_back(task.members[i]);
    taking_part.must_receive.push_back(task.must_receive[i]);
  }
  FlatBroadcast state(network, taking_part, "binomial");
  const std::size_t k = state.table.size();
  const std::size_t source = state.table.index_of(task.source);
  auto member_of_relative = [&](std::size_t relative) { return (relative + source) % k; };
  const std::size_t top = k > 1 ? std::bit_floor(k - 1) : 0;
  for (std::size_t mask = top; mask >= 1; mask /= 2) {
    for (std::size_t relative = 0; relative + mask < k; relative += 2 * mask) {
      state.send(member_of_relative(relative), member_of_relative(relative + mask));
    }
  }
  EngineResult result;
  result.transfers = state.builder.transfers();
  return result;
}

}  // namespace hetcoll
