#include "hetcoll/makespan/sender_speed/broadcast/sequence_local_search.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace hetcoll {

double no_delay_makespan(const Cluster& cluster, ProcessorIndex source, const std::vector<ProcessorIndex>& sequence) {
  using Slot = std::pair<double, double>;  // (next send end, period): equal ends, the faster sender first
  std::priority_queue<Slot, std::vector<Slot>, std::greater<>> holders;
  const double ts = cluster.transmission_time(source);
  holders.push({ts, ts});
  double makespan = 0;
  for (ProcessorIndex receiver : sequence) {
    const auto [end, period] = holders.top();
    holders.pop();
    makespan = end;
    holders.push({end + period, period});
    const double t = cluster.transmission_time(receiver);
    holders.push({end + t, t});
  }
  return makespan;
}

double improve_order_by_swaps(std::vector<ProcessorIndex>& order,
                              const std::function<double(const std::vector<ProcessorIndex>&)>& makespan,
                              const std::function<bool(ProcessorIndex, ProcessorIndex)>& interchangeable,
                              double tolerance, std::size_t max_evaluations) {
  double best = makespan(order);
  std::size_t evaluations = 1;
  bool improved = true;
  while (improved && evaluations < max_evaluations) {
    improved = false;
    for (size_t i = 0; i < order.size() && !improved && evaluations < max_evaluations; ++i) {
      for (size_t j = i + 1; j < order.size() && evaluations < max_evaluations; ++j) {
        if (interchangeable(order[i], order[j])) continue;
        std::swap(order[i], order[j]);
        const double value = makespan(order);
        ++evaluations;
        if (time_less(value, best, tolerance)) {
          best = value;
          improved = true;
          break;
        }
        std::swap(order[i], order[j]);
      }
    }
  }
  return best;
}

double improve_sequence_by_swaps(const Cluster& cluster, ProcessorIndex source, std::vector<ProcessorIndex>& sequence,
                                 std::size_t max_evaluations) {
  return improve_order_by_swaps(
      sequence, [&](const std::vector<ProcessorIndex>& order) { return no_delay_makespan(cluster, source, order); },
      [&](ProcessorIndex a, ProcessorIndex b) { return cluster.transmission_time(a) == cluster.transmission_time(b); },
      cluster.tolerance(), max_evaluations);
}

}  // namespace hetcoll
