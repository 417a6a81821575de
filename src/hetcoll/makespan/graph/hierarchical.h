// Hierarchical grid plans: cross each slow link once. The idea of MagPIe's
// wide-area collectives (Kielmann et al. 1999) and Open MPI's HAN, planned
// here with the platform's costs instead of a fixed pattern.
//
// Problem: broadcast / multicast (and, through graph_planner.h, reduce and
// all-reduce, which are the same plan on the time-reversed problem: gather
// inside each site first, then across) on a platform graph,
// model/graph_network.h.
// Algorithm: detect the sites (sites.h: groups held together by cheap
// links, nested: hosts in clusters, clusters in regions). In the top group,
// pick a gateway in every subgroup — the source in its own, elsewhere the
// member closest to the source (cheapest path; reduce: closest to the
// root) — and broadcast among the gateways with the look-ahead rule
// (lookahead.h). Then, inside every subgroup, the same from its gateway,
// down to the sites, where the look-ahead rule serves the site's members.
// All levels share one timeline: a gateway's wide-area sends come first, its
// local ones after, and a one-port node (a site's WAN link) is never
// crossed twice at once. A multicast only visits groups that hold targets.
// Guarantee: none (heuristic). Each subgroup receives the message once
// across the links joining it to its parent group.
// Complexity: O(m log m) per hierarchy level to find the sites, one
// Dijkstra for the gateways, then per group O(k² log k) for its k
// subgroups or site members; each flat level builds a route table with k
// route searches. Linear in the platform size for bounded sites.
// Ties: gateways by (distance, node index); within a level as look-ahead.
#pragma once

#include "hetcoll/makespan/graph/graph_planner.h"

namespace hetcoll {

EngineResult broadcast_hierarchical(const GraphNetwork& network, const BroadcastTask& task);

}  // namespace hetcoll
