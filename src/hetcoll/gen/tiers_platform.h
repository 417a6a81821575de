// Tiers-like three-level WAN/MAN/LAN platforms (Doar 1996, the model behind
// the Tiers generator of Calvert, Doar, Zegura 1997, used by Beaumont,
// Marchal, Robert 2004 sec. 5.1 for its 30- and 65-node platforms).
//
// One WAN of `wan_nodes` nodes placed uniformly at random in a square of
// side 1000; `mans` MANs, each hung off a WAN node drawn at random, with
// `man_nodes` nodes placed in a square of side 100 around it; each MAN has
// `lans_per_man` LANs, each hung off a node of that MAN, of `lan_nodes` nodes
// in a square of side 10 around it. Inside the WAN and each MAN the nodes are
// joined by a Euclidean minimum spanning tree (Prim, ties to the lower
// index), then redundancy edges: each node in index order is joined to its
// nearest non-neighbours until its degree inside the network reaches
// `wan_redundancy` / `man_redundancy` (or it is adjacent to all). A LAN is a
// star on its first node (`lan_redundancy` > 1 adds nearest-neighbour edges
// among the leaves the same way). A MAN is joined to the WAN by
// `man_wan_links` links, a LAN to its MAN by `lan_man_links` links: the first
// joins the attachment node to its nearest node of the lower network, each
// further one the nearest (lower, upper) pair not yet linked.
// Link bandwidths follow link_draws.h (the paper uses "the same
// distribution of T_{u,v} as for random platforms"); latencies per level.
// Node ids: wan3, man1.2 (MAN 1, node 2), lan1.0.3 (MAN 1, LAN 0, node 3).
//
// Presets (`tiers_preset`): 30 nodes = WAN 6, 2 MANs x 6, 2 LANs x 3 per MAN;
// 65 nodes = WAN 5, 3 MANs x 5, 3 LANs x 5 per MAN, 3 links between levels. Redundancy counts are
// chosen so that the density (links / pairs) falls in the paper's range,
// 0.05 to 0.15.
// Deterministic for a seed; O(N^2) per network.
#pragma once

#include <cstdint>

#include "hetcoll/gen/link_draws.h"
#include "hetcoll/model/platform.h"

namespace hetcoll {

struct TiersPlatformOptions {
  int wan_nodes = 5;
  int mans = 3;
  int man_nodes = 5;
  int lans_per_man = 3;
  int lan_nodes = 5;
  int wan_redundancy = 3;
  int man_redundancy = 3;
  int lan_redundancy = 1;
  int man_wan_links = 2;
  int lan_man_links = 2;
  double wan_latency = 0.0;  // seconds
  double man_latency = 0.0;
  double lan_latency = 0.0;
  std::uint64_t seed = 1;
  LinkDrawOptions links;

  int total_nodes() const { return wan_nodes + mans * (man_nodes + lans_per_man * lan_nodes); }
};

// The sizes of Beaumont, Marchal, Robert 2004 sec. 5.1: 30 or 65 nodes.
// Throws InputError for another size.
TiersPlatformOptions tiers_preset(int nodes);

// Throws InputError naming the parameter on out-of-range options.
Platform generate_tiers_platform(const TiersPlatformOptions& options);

}  // namespace hetcoll
