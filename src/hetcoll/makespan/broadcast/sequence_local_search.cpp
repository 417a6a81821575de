#include "hetcoll/makespan/broadcast/sequence_local_search.h"

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

double improve_sequence_by_swaps(const Cluster& cluster, ProcessorIndex source, std::vector<ProcessorIndex>& sequence,
                                 std::size_t max_evaluations) {
  double best = no_delay_makespan(cluster, source, sequence);
  const double tolerance = cluster.tolerance();
  std::size_t evaluations = 1;
  bool improved = true;
  while (improved && evaluations < max_evaluations) {
    improved = false;
    for (size_t i = 0; i < sequence.size() && !improved && evaluations < max_evaluations; ++i) {
      for (size_t j = i + 1; j < sequence.size() && evaluations < max_evaluations; ++j) {
        if (cluster.transmission_time(sequence[i]) == cluster.transmission_time(sequence[j])) continue;
        std::swap(sequence[i], sequence[j]);
        const double makespan = no_delay_makespan(cluster, source, sequence);
        ++evaluations;
        if (makespan < best - tolerance) {
          best = makespan;
          improved = true;
          break;
        }
        std::swap(sequence[i], sequence[j]);
      }
    }
  }
  return best;
}

}  // namespace hetcoll
