// Writing a platform graph as a SimGrid platform file (XML, version 4.1),
// so one description — e.g. what `hetcoll calibrate` measured — feeds both
// hetcoll and SimGrid SMPI.
//
// Supported input: hosts only (no routers or link nodes), every edge a
// host -> host edge with `latency` (s) and `bandwidth` (bytes/s); a `cost`
// edge is written as a latency with an unlimited bandwidth (1e15 B/s).
// Output: one <zone routing="Full">; one <host> per node (speed = the
// node's speed in flop/s, or 1 Gflop/s when it has none — the figure
// SimGrid needs but hetcoll's communication plans do not use); one <link>
// per edge, named "FROM-TO", and one one-way <route> (symmetrical="NO") per
// edge through that link alone. Read back with parse_simgrid_xml, every
// ordered pair gets the same latency and bandwidth (numbers are written with
// 17 significant digits). A link per ordered pair models no contention
// between different pairs: SimGrid shares a link only among the flows of
// its own pair.
// Cost: O(n + m) for n hosts and m edges.
#pragma once

#include <ostream>
#include <string_view>

#include "hetcoll/model/platform.h"

namespace hetcoll {

// Throws InputError naming `source_name` when the platform has a node that
// is not a host, or an edge with neither a cost nor latency and bandwidth.
// `comment` (may be empty) goes into an XML comment at the top.
void write_simgrid_xml(std::ostream& out, const Platform& platform, std::string_view comment,
                       std::string_view source_name = "platform");

}  // namespace hetcoll
