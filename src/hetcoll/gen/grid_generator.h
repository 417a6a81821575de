// Random grids of sites as platform graphs, for the grid experiment and for
// users who want a realistic test platform.
//
// Two levels: S sites, each a switch with its hosts attached by LAN links;
// every site's switch joins a wide-area core router by a WAN link. Three
// levels: sites are grouped in regions; a site's switch joins its region's
// gateway router by a MAN link, the regions' gateways join the core by WAN
// links. Switches and routers are crossbars ("ports": "unlimited"); a
// MAN or WAN link is kept as a one-port link node per direction (full
// duplex), so the messages leaving a site share its uplink one after the
// other — what a real wide-area link does to them. A host's LAN link is
// an edge pair (the host's own port already serialises its messages).
// Costs are drawn per direction (asymmetric).
// Costs (time of one message, in units of `lan_cost`): a host's link to its
// switch costs lan/2 × site factor × host factor, so two hosts of a site
// talk in about `lan_cost` (site factors in [0.5, 1]: some sites are
// faster; host factors in [1 - jitter, 1]); a WAN link costs
// wan_ratio × lan / 2 × [0.9, 1], so two sites talk in about
// wan_ratio × lan; a MAN link man_ratio × lan / 2 × [0.9, 1] (default
// man_ratio = sqrt(wan_ratio), halfway on a log scale).
// Hosts per site are uniform in [min_hosts, max_hosts]; with `total_hosts`
// sites are added until that many hosts exist (the last site is trimmed).
// Hosts optionally get a compute speed uniform in [1, 4] (reductions).
// Names: s3-h12 (host 12 of site 3), s3-sw, s3-up / s3-down (its uplink),
// r1-gw, r1-up / r1-down, wan (the core).
// Deterministic for a seed (std::mt19937_64, fixed draw order). O(hosts).
#pragma once

#include <cstdint>
#include <optional>

#include "hetcoll/model/platform.h"

namespace hetcoll {

struct GridGeneratorOptions {
  int levels = 2;        // 2 or 3
  int sites = 4;         // two levels: sites; three levels: sites per region
  int regions = 2;       // three levels only
  int min_hosts = 4;     // hosts per site
  int max_hosts = 64;
  std::optional<int> total_hosts;  // overrides `sites`: add sites until this many hosts
  double lan_cost = 1.0;
  double wan_ratio = 10.0;
  std::optional<double> man_ratio;  // three levels; default sqrt(wan_ratio)
  double jitter = 0.5;               // host factor spread, in [0, 1)
  bool speeds = false;
  std::uint64_t seed = 1;
};

// Throws InputError naming the option for nonsensical values.
Platform generate_grid(const GridGeneratorOptions& options);

}  // namespace hetcoll
