// Random sender-speed clusters, as in the papers' experiments (Liu 2002
// sec. 5, Liu, Kuo, Wang 2009 sec. 6.2: "for each processor we randomly assigned a
// communication speed from the three possible values").
//
// k-class clusters: `classes` distinct transmission times spread
// geometrically over [min_time, max_time] (or given explicitly); each
// processor draws its class uniformly. Deterministic for a given seed (the
// std::mt19937_64 stream and the draw order are fixed). O(n).
#pragma once

#include <cstdint>
#include <vector>

#include "hetcoll/model/cluster.h"

namespace hetcoll {

struct ClusterGeneratorOptions {
  int processors = 16;
  int classes = 3;
  double min_time = 1.0;
  double max_time = 4.0;
  std::vector<double> class_times;  // overrides classes/min/max when non-empty
  std::uint64_t seed = 1;
};

// Throws InputError on nonsensical options (n < 1, classes < 1, bad times).
Cluster generate_cluster(const ClusterGeneratorOptions& options);

}  // namespace hetcoll
