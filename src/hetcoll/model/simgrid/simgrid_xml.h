// Import of SimGrid platform descriptions (XML, platform version 4.x) as a
// platform graph that keeps the topology.
//
// What becomes what (docs/ALGORITHMS.md, "Platform graph model"):
//   - every <host> (and every host a <cluster>, <cabinet> or <peer> makes) is
//     a node of kind host, in document order and before every other node,
//     whose `speed` is its flop rate (the first of a pstate list; later
//     pstates may be 0; `core` is ignored);
//   - every <router> is a node of kind router (ports unlimited: SimGrid
//     routers add no cost and no contention);
//   - every link is a node of kind link (one per direction for SPLITDUPLEX
//     and FULLDUPLEX, named "<id>_UP" and "<id>_DOWN"; ports unlimited for
//     FATPIPE, one-port otherwise); the edges entering a link carry its
//     latency and bandwidth, the other edges are wires of cost 0 (or, in a
//     Vivaldi zone, the distance's latency);
//   - star zones (<cluster>, routing="Cluster", routing="Vivaldi") get a
//     centre switch named after the zone; torus positions, fat-tree switches
//     and dragonfly routers become switches (simgrid_topologies.cpp);
//   - every edge is a step of some SimGrid route, so the graph has O(size of
//     the description) edges (4 to 7 per host of a <cluster>), never one per
//     pair of hosts (Vivaldi zones excepted: their distances join every pair
//     of members, up to max_vivaldi_members).
// The Platform carries SimGrid's routing: Platform::declared_route(u, v)
// between two hosts or routers is SimGrid's route (hierarchical routing with
// zoneRoute gateways, bypass routes, Floyd/Dijkstra chains counted in links
// with SimGrid's tie rules, star, Vivaldi, Wi-Fi, torus, fat-tree and
// dragonfly routing), as a path of this graph, computed on demand.
// SimGrid's network-model corrections (latency/bandwidth factors, TCP
// window) are not applied: these are the raw numbers of the file.
//
// Supported: <platform version="4.x"> with one root <zone>/<AS> or
// <cluster>; zone routing Full, Floyd, Dijkstra, DijkstraCache, None,
// Cluster, Vivaldi, Wifi (case-insensitive, as SimGrid); <host>, <router>,
// <link> (SHARED, FATPIPE, SPLITDUPLEX/FULLDUPLEX, WIFI in Wifi zones),
// <route>, <zoneRoute>/<ASroute> with gw_src/gw_dst, <bypassRoute>,
// <bypassZoneRoute>/<bypassASroute>, <link_ctn id direction> (a
// SPLITDUPLEX link needs a direction, or its "_UP"/"_DOWN" half by name);
// routes are symmetrical unless symmetrical="NO", the reverse crossing the
// other half of split links; <cluster> with prefix, suffix, radical, speed,
// bw, lat, sharing_policy, bb_bw, bb_lat, bb_sharing_policy, router_id,
// limiter_link, topology FLAT, TORUS, FAT_TREE or DRAGONFLY with
// topo_parameters (loopback links are not kept: no route between two
// distinct hosts uses them); <cabinet>, <backbone> and <host_link> in
// Cluster zones; <peer> and coordinates in Vivaldi zones; the access_point
// property of Wifi zones. <prop>, <disk>, <trace>, <trace_connect>,
// <config>, <actor>, <storage> and the like are tolerated and ignored; so
// are unknown attributes.
// Rejected with an InputError naming the file, line, element and attribute:
// <include>, platform versions other than 4.x (SimGrid's simgrid_update_xml
// upgrades them), unknown elements and routing kinds, unknown names,
// duplicate names, empty routes, a route crossing one link twice in a row,
// malformed or non-positive numbers, and platforms above the limits below.
//
// Units follow SimGrid (xbt/parse_units): speeds in flop/s with "f" or
// "flops" and a decimal prefix k M G T P E Z Y ("1Gf", "98.095Mf",
// "2.5Gflops", "3kiloflops"); bandwidths in bytes/s with "Bps" or bits/s with
// "bps" (bits are divided by 8), each with a decimal (k M G T P E Z Y) or
// binary (Ki Mi Gi Ti Pi Ei Zi Yi) prefix, and also "KBps"/"Kbps" taken as
// decimal kilo; latencies with w d h m s ms us ns ps. A bare number is in the
// base unit (flop/s, bytes/s, seconds).
//
// Cost: O(size of the description + nodes + edges) time and memory, plus
// members^3 for Floyd zones of up to 400 members (SimGrid's Floyd-Warshall)
// and members^2 route tables for Floyd/Dijkstra zones of up to 1024 members;
// larger ones search per query. Never recursive on the depth of the XML
// beyond kMaxZoneNesting levels of zones.
#pragma once

#include <cstddef>
#include <string_view>

#include "hetcoll/model/platform.h"

namespace hetcoll {

struct SimgridImportOptions {
  // Bounds that keep a hostile or mistaken file from exhausting memory.
  std::size_t max_hosts = 1'000'000;
  std::size_t max_elements = 20'000'000;  // graph nodes: hosts, routers, switches, links
  // A Vivaldi zone joins every ordered pair of its members by an edge.
  std::size_t max_vivaldi_members = 2048;
};

// Zones nested deeper than this are rejected (real platforms use 2 or 3).
inline constexpr int kMaxZoneNesting = 32;

// Throws InputError naming `source_name`, the element (with its line) and the
// attribute when the document is malformed or unsupported, e.g.
// `small.xml: line 12: <link id="l3"> bandwidth: unknown unit "MBs" ...`;
// malformed XML is reported with its line and column.
Platform parse_simgrid_xml(std::string_view text, std::string_view source_name,
                           const SimgridImportOptions& options = {});

// Parses a SimGrid quantity with its unit into SI base units: "41.279125MBps"
// -> bytes/s, "59.904us" -> seconds, "1Gf" -> flop/s. `kind` is one of
// "bandwidth", "latency", "speed" (anything else is a programming error:
// std::invalid_argument). Throws InputError, prefixed by `where`, when the
// text is not a number followed by a known unit, when the value is not
// finite, and when it is not positive (bandwidth, speed) or is negative
// (latency).
double parse_simgrid_quantity(std::string_view text, std::string_view kind, std::string_view where);

}  // namespace hetcoll
