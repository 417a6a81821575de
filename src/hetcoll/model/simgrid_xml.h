// Import of SimGrid platform descriptions (XML, platform version 4.x).
//
// Supported: <platform version="4.x">, <zone routing="Full"> (also nested
// zones with <zoneRoute>-free full routing), <host id speed core>, <link id
// bandwidth latency sharing_policy>, <route src dst symmetrical> with
// <link_ctn id>, and <cluster id prefix suffix radical speed bw lat> (a
// star of private links plus an optional backbone). A route's latency is the
// sum of its links' latencies and its bandwidth the smallest link bandwidth;
// each becomes one platform edge (both directions unless symmetrical="NO").
// Units follow SimGrid: speeds in flop/s ("1Gf", "98.095Mf"), bandwidths in
// bytes/s ("41.279125MBps", "1Gbps" = 1e9/8 bytes/s), latencies in seconds
// ("59.904us", "1ms"). A node's `speed` is its flop rate.
#pragma once

#include <string_view>

#include "hetcoll/model/platform.h"

namespace hetcoll {

// Throws InputError naming `source_name`, the element (with its line) and
// the attribute when the document is malformed or unsupported.
Platform parse_simgrid_xml(std::string_view text, std::string_view source_name);

// Parses a SimGrid quantity with its unit into SI base units: "41.279125MBps"
// -> bytes/s, "59.904us" -> seconds, "1Gf" -> flop/s. `kind` is one of
// "bandwidth", "latency", "speed". Throws InputError on an unknown unit.
double parse_simgrid_quantity(std::string_view text, std::string_view kind, std::string_view where);

}  // namespace hetcoll
