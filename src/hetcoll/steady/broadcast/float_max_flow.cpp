#include "hetcoll/steady/broadcast/float_max_flow.h"

#include <deque>
#include <limits>

namespace hetcoll {

FloatFlow float_max_flow(const Platform& platform, ProcessorIndex source, ProcessorIndex target,
                         const std::vector<double>& capacity, double tolerance) {
  const auto n = static_cast<size_t>(platform.size());
  FloatFlow result;
  result.flow.assign(platform.edges().size(), 0.0);
  auto& flow = result.flow;
  auto& seen = result.reached_from_source;
  seen.assign(n, 0);
  std::vector<std::pair<size_t, bool>> parent(n);  // (edge, forward?)
  for (;;) {
    std::fill(seen.begin(), seen.end(), 0);
    std::deque<ProcessorIndex> queue{source};
    seen[static_cast<size_t>(source)] = 1;
    while (!queue.empty()) {
      auto u = queue.front();
      queue.pop_front();
      for (auto e : platform.out_edges(u)) {
        auto v = static_cast<size_t>(platform.edges()[e].to);
        if (!seen[v] && capacity[e] - flow[e] > tolerance) {
          seen[v] = 1;
          parent[v] = {e, true};
          queue.push_back(platform.edges()[e].to);
        }
      }
      for (auto e : platform.in_edges(u)) {
        auto v = static_cast<size_t>(platform.edges()[e].from);
        if (!seen[v] && flow[e] > tolerance) {
          seen[v] = 1;
          parent[v] = {e, false};
          queue.push_back(platform.edges()[e].from);
        }
      }
    }
    if (!seen[static_cast<size_t>(target)]) return result;
    double bottleneck = std::numeric_limits<double>::infinity();
    for (auto v = target; v != source;) {
      auto [e, forward] = parent[static_cast<size_t>(v)];
      bottleneck = std::min(bottleneck, forward ? capacity[e] - flow[e] : flow[e]);
      v = forward ? platform.edges()[e].from : platform.edges()[e].to;
    }
    for (auto v = target; v != source;) {
      auto [e, forward] = parent[static_cast<size_t>(v)];
      flow[e] += forward ? bottleneck : -bottleneck;
      v = forward ? platform.edges()[e].from : platform.edges()[e].to;
    }
    result.value += bottleneck;
  }
}

}  // namespace hetcoll
