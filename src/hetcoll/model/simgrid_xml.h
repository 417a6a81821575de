// Import of SimGrid platform descriptions (XML, platform version 4.x).
//
// What becomes what:
//   - every <host> (and every host a <cluster> expands to) is one
//     PlatformNode, in document order, whose `speed` is its flop rate (the
//     first value when a comma-separated pstate list is given; `core` is
//     ignored);
//   - every ordered pair of distinct hosts joined by a SimGrid route is one
//     PlatformEdge with `latency` = the sum of the route's link latencies and
//     `bandwidth` = the smallest link bandwidth (no `cost`; the caller turns
//     them into costs with a message size). Pairs with no route get no edge.
//     SimGrid's network-model corrections (latency/bandwidth factors, TCP
//     window) are not applied: these are the raw numbers of the file.
//
// Supported:
//   - <platform version="4.x"> with one root <zone> or <cluster>; nested
//     zones joined by <zoneRoute src dst gw_src gw_dst> (hierarchical routing:
//     route to the source gateway + the zoneRoute's links + route from the
//     destination gateway, as SimGrid does);
//   - zone routing "Full" (only the declared routes), "Floyd", "Dijkstra" and
//     "DijkstraCache" (the shortest chain of declared <route>s, counting one
//     per link as SimGrid does; among equal chains the first found is kept,
//     which may differ from SimGrid's choice; <zoneRoute>s are used as declared,
//     never chained), "None" (no routes), and "Cluster" zones written by hand
//     with <host_link id up down> and <backbone>;
//   - <host id speed>, <router id>, <link id bandwidth latency sharing_policy>
//     (SHARED, FATPIPE, SPLITDUPLEX — whose "_UP"/"_DOWN" halves may be named
//     in <link_ctn> — and FULLDUPLEX), <route src dst symmetrical> with
//     <link_ctn id direction>;
//   - <cluster id prefix suffix radical speed bw lat bb_bw bb_lat router_id>
//     with topology FLAT: hosts prefix+N+suffix for every N of the radical
//     ("0-15", "0-3,8,10-11"), host i to host j through i's private link, the
//     backbone when bb_bw is given, and j's private link;
//   - routes are symmetrical unless symmetrical="NO" (SimGrid's default).
//   - <prop>, <disk>, <trace>, <trace_connect>, <config>, <actor>, <storage>
//     and the like are tolerated and ignored; so are unknown attributes.
// Rejected with an InputError: other routing kinds (Vivaldi, Star, Wifi,
// ClusterTorus/FatTree/Dragonfly, cluster topologies other than FLAT), WIFI
// links, <bypassRoute>, <bypassZoneRoute>, <cabinet>, <peer>, <include>,
// platform versions other than 4.x (SimGrid's simgrid_update_xml upgrades
// them), unknown elements, unknown names in routes, duplicate ids, malformed
// or non-positive numbers, and platforms above `max_hosts` hosts.
//
// Units follow SimGrid (xbt/parse_units): speeds in flop/s with "f" or
// "flops" and a decimal prefix k M G T P E Z Y ("1Gf", "98.095Mf",
// "2.5Gflops", "3kiloflops"); bandwidths in bytes/s with "Bps" or bits/s with
// "bps" (bits are divided by 8), each with a decimal (k M G T P E Z Y) or
// binary (Ki Mi Gi Ti Pi Ei Zi Yi) prefix, and also "KBps"/"Kbps" taken as
// decimal kilo; latencies with w d h m s ms us ns ps. A bare number is in the
// base unit (flop/s, bytes/s, seconds).
//
// Cost: O(size of the file + hosts^2) time and memory (one edge per ordered
// pair of hosts; routes through nested zones are memoised); Floyd/Dijkstra
// zones add one Dijkstra run per source inside the zone. Never recursive on
// the depth of the XML beyond kMaxZoneNesting levels of zones.
#pragma once

#include <cstddef>
#include <string_view>

#include "hetcoll/model/platform.h"

namespace hetcoll {

struct SimgridImportOptions {
  // The platform is a graph with one edge per ordered pair of routed hosts,
  // so it grows as hosts^2: 2048 hosts give about 4 million edges. Larger
  // files are rejected with an InputError rather than exhausting memory.
  std::size_t max_hosts = 2048;
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
