// How text and pictures name the nodes of a platform graph, so that a link
// or a router never shows up as a bare number: "link 145 (2.58 MB/s,
// 410 µs)", "router gw_bordeaux", and routes as "via links 4, 3, 5".
// Formatting only; the model itself is platform.h.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "hetcoll/model/platform.h"

namespace hetcoll {

// "host", "router", "link", or "host (not a participant)" for a host left
// out of the participants.
std::string element_kind_name(const Platform& platform, ProcessorIndex v);

// A node with what it is: hosts by their id alone ("Tremblay"); "router R";
// "link 47 (10.3 MB/s, 6.93 ms)" for a link with latency and bandwidth,
// "link L (cost 2 ms)" for one with a fixed cost.
std::string describe_element(const Platform& platform, ProcessorIndex v);

// A node's id with its kind when it is not a host: "Tremblay", "link 3",
// "router R" (short: no figures).
std::string element_label(const Platform& platform, ProcessorIndex v);

// A link's bandwidth and latency, "10.3 MB/s, 6.93 ms" (from the edges
// entering it), a fixed cost "cost 2 ms", or "" when it has none.
std::string link_figures(const Platform& platform, ProcessorIndex link);

// The network elements a route crosses (every node but its two ends), by
// kind: " via links 4, 3, 5", " via link l1, router R, link l2"; "" for a
// direct edge. With `figures`, the narrowest link of the route is named
// with its bandwidth: " via links 4, 3, 5 (narrowest: link 4, 10.1 MB/s)".
std::string route_via_text(const Platform& platform, std::span<const std::size_t> route, bool figures = false);

// The links a route crosses, for the label of a tree edge in a drawing;
// routers are not named. Up to `max_lines` links: one line each, "link 145
// (2.58 MB/s, 410 µs)". More: the count and the first ids ("6 links: 3, 0,
// 1, 8, …"; a prefix every id shares is said once, the ids on a line of
// their own), then the figures they share ("each 125 MB/s, 50 µs") or the
// narrowest link with its figures. "" for a direct edge. Lines are joined by
// '\n'; ids longer than 24 characters are cut in the middle.
std::string route_links_label(const Platform& platform, std::span<const std::size_t> route, std::size_t max_lines = 2);

// The nodes that are not participants, counted by kind: "24 links",
// "3 routers, 40 links", "2 hosts left out"; "" when there are none.
std::string network_elements_text(const Platform& platform);

// The host a user names by id or by index (`what` prefixes the messages,
// e.g. "source"). Hosts first: a host's id, else an index that is a host's;
// an id or index that names a link or a router is refused saying what it
// names (InputError), as is a name that matches nothing.
ProcessorIndex resolve_host(const Platform& platform, std::string_view name, std::string_view what);

// "25 MB/s", "1.25 GB/s" (decimal prefixes, 3 significant digits).
std::string format_bandwidth(double bytes_per_second);
// "59.9 µs", "6.93 ms", "1.2 s" (3 significant digits).
std::string format_latency(double seconds);

}  // namespace hetcoll
