// Random platform graphs (Beaumont, Marchal, Robert 2004, sec. 5.1, Table 2).
//
// `nodes` nodes named n0..n{N-1}; each unordered pair is joined by a
// full-duplex link with probability `density`; a link's bandwidth is
// Gaussian (link_draws.h) and its latency `latency` seconds. A graph that
// comes out disconnected is repaired, not redrawn (redrawing could loop for
// ever at low density): the components are taken in order of their smallest
// node, and each is joined to the union of the earlier ones by one link
// between a node drawn uniformly from each side; this adds the fewest links
// that make the graph (strongly, since links go both ways) connected.
// Deterministic for a seed (std::mt19937_64, fixed draw order). O(N^2).
#pragma once

#include <cstdint>

#include "hetcoll/gen/link_draws.h"
#include "hetcoll/model/platform.h"

namespace hetcoll {

struct RandomPlatformOptions {
  int nodes = 30;
  double density = 0.1;   // probability of a link between two nodes
  double latency = 0.0;   // seconds, every link
  std::uint64_t seed = 1;
  LinkDrawOptions links;
};

// Throws InputError naming the parameter on out-of-range options.
Platform generate_random_platform(const RandomPlatformOptions& options);

}  // namespace hetcoll
