#include "hetcoll/makespan/bounds.h"

#include <algorithm>

namespace hetcoll {

int ceil_log2(std::int64_t n) {
  int levels = 0;
  std::int64_t reach = 1;
  while (reach < n) {
    reach *= 2;
    ++levels;
  }
  return levels;
}

double broadcast_lower_bound(const Cluster& cluster, ProcessorIndex source) {
  const std::int64_t n = cluster.size();
  if (n < 2) return 0;
  // ceil(log2(n / 2)) = ceil(log2 n) - 1 for n >= 2.
  return cluster.transmission_time(source) + cluster.fastest_time() * (ceil_log2(n) - 1);
}

double reduce_lower_bound(const Cluster& cluster, ProcessorIndex root) {
  const std::int64_t n = cluster.size();
  if (n < 2) return 0;
  double slowest_sender = 0;
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != root) slowest_sender = std::max(slowest_sender, cluster.transmission_time(p));
  }
  return std::max(cluster.fastest_time() * ceil_log2(n), slowest_sender);
}

}  // namespace hetcoll
