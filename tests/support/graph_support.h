// Random platform graphs and an exhaustive graph broadcast optimum for the
// graph planner tests, written independently of the library's planners.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "hetcoll/model/graph_network.h"
#include "hetcoll/model/platform.h"

namespace hetcoll::testing {

struct RandomGraphOptions {
  int hosts = 6;
  int routers = 2;
  double extra_edge_probability = 0.35;  // beyond a random cycle through every node (strong connectivity)
  double one_way_probability = 0.3;      // an extra edge without its reverse
  bool speeds = false;                   // give hosts a compute speed (reduce combines cost time)
  bool two_sites = false;                // hosts split in two sites joined by one slow link pair
};

// Costs are small integers or halves (exact ties), asymmetric (u->v and v->u
// drawn separately), some pairs missing (routes fill them in), routers
// included (half of them one-port, half unlimited; one host in ten has
// unlimited ports). Strongly connected.
Platform random_graph(std::mt19937_64& rng, const RandomGraphOptions& options);

// The optimal broadcast (or multicast to `targets`; empty = every other
// participant) makespan by exhaustive depth-first search over every
// (informed participant, uninformed participant) transfer, each placed as
// early as its sender's data, its ports and its route links allow, no
// pruning except by the best makespan found. Reversed = the time-reversed
// problem of a reduce into `source` without computation (its optimum is
// the reduce's). For <= 6 participants.
double brute_force_broadcast(const GraphNetwork& network, ProcessorIndex source,
                             const std::vector<ProcessorIndex>& targets = {});
double brute_force_reduce(const GraphNetwork& network, ProcessorIndex root);

}  // namespace hetcoll::testing
