// Eager-model test helpers (model/eager_model.h), written without the
// library's eager code: a pair's eager cost from the platform's route,
// random platforms of latencies and bandwidths, homogeneous complete graphs,
// and exhaustive optima of the eager broadcast and reduce over cost
// matrices (for a handful of members).
#pragma once

#include <cstddef>
#include <limits>
#include <random>
#include <vector>

#include "hetcoll/model/platform.h"

namespace hetcoll::testing {

struct Pair {
  double occupancy = std::numeric_limits<double>::infinity();
  double delay = std::numeric_limits<double>::infinity();
  bool connected() const { return occupancy < std::numeric_limits<double>::infinity(); }
};

// A pair's eager cost from the platform's route, written without the
// library's eager_cost: latencies add up; fixed costs and size / narrowest
// bandwidth occupy the link.
Pair independent_cost(const Platform& platform, ProcessorIndex from, ProcessorIndex to, double size);

// Random strongly connected platforms: hosts and a few routers on a random
// cycle plus extra edges, most with latency and bandwidth, some with a
// fixed cost.
Platform random_eager_platform(std::mt19937_64& rng, int hosts, int routers, bool fixed_costs_too);

// Every host to every other: latency L, bandwidth B.
Platform homogeneous_complete(int hosts, double latency, double bandwidth);

// Liu, Kuo, Wang 2009 sec. 6.1's 8 hosts as a complete graph at the
// senders' speeds: host h < 4 sends at 50 us and 12.5 MB/s, the others 1.6x
// slower (latency 80 us, 7.8125 MB/s); named h0..h7, platform "sec6.1".
Platform liu_kuo_wang_sender_speed_graph();

// cost[a][b] for the participants a, b (indices into platform.participants()).
using PairMatrix = std::vector<std::vector<Pair>>;
PairMatrix independent_costs(const Platform& platform, double size);
PairMatrix transpose(const PairMatrix& cost);

// The optimal eager broadcast from member s: every tree (a parent for each
// member) and every send order of every node's children; a node's child j
// arrives at t(u) + delay + the occupancies of its first j sends.
double brute_force_eager_broadcast(const PairMatrix& cost, std::size_t s);

// The optimal eager reduce to member r, computed forwards in its own model
// (no reversal): every tree and every receive order of every node's
// children; with the children of u in receive order c_1..c_m, child c_j
// arrives at a_j = max(ready(c_j) + delay + occupancy, a_{j-1} + occupancy)
// (its window on u's link, [a_j - occupancy, a_j], after the previous one;
// ready(leaf) = 0), ready(u) = a_m; the makespan is ready(r).
double brute_force_eager_reduce(const PairMatrix& cost, std::size_t r);

}  // namespace hetcoll::testing
