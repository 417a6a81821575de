// NIC clusters for the tests: as SimGrid XML (scripts/nic-platform's
// shape, for the flow model's users: the chooser, the tuning files) and as
// NicNetwork values (model/nic_network.h, for the split planners): every
// host has its own up and down link.
#pragma once

#include <random>
#include <vector>

#include "hetcoll/model/nic_network.h"
#include "hetcoll/model/platform_io.h"

namespace hetcoll::testing {

// `hosts` hosts h0, h1, ...; host i sends at `up_mbps[i % up_mbps.size()]`
// MB/s with `latency_us` on its up link; every down link has `up_mbps[0]`
// and no latency.
LoadedPlatform nic_cluster(int hosts, const std::vector<double>& up_mbps, double latency_us);

// Sites joined by a WAN (scripts/nic-platform's two-site shape): site s
// has hosts s<s>h0, s<s>h1, ... (in file order, site by site) whose up
// links send at `up_mbps[s][i]` MB/s with `latency_us`; every down link at
// the fastest up link's bandwidth, no latency; between two sites one
// shared WAN link per direction (`wan_latency_us`, `wan_mbps`) on every
// route between them.
LoadedPlatform multi_site_nic_cluster(const std::vector<std::vector<double>>& up_mbps, double latency_us,
                                      double wan_latency_us, double wan_mbps);

// A NicNetwork of the given per-host latencies and bandwidths.
NicNetwork network_of(std::vector<double> latency, std::vector<double> up, std::vector<double> down,
                      double envelope = 0);

// `n` hosts: latencies in [0, 1e-4) s (one in ten 0), up and down
// bandwidths in [1e6, 1e8) B/s, envelope 0 or 16 bytes.
NicNetwork random_network(std::mt19937_64& rng, std::size_t n);

}  // namespace hetcoll::testing
