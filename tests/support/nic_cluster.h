// The NIC clusters of scripts/nic-platform as SimGrid XML, for the tests of
// the flow model's users (the chooser, the tuning files): every host has
// its own up and down link, routes cross the sender's up link and the
// receiver's down link.
#pragma once

#include <vector>

#include "hetcoll/model/platform_io.h"

namespace hetcoll::testing {

// `hosts` hosts h0, h1, ...; host i sends at `up_mbps[i % up_mbps.size()]`
// MB/s with `latency_us` on its up link; every down link has `up_mbps[0]`
// and no latency.
LoadedPlatform nic_cluster(int hosts, const std::vector<double>& up_mbps, double latency_us);

}  // namespace hetcoll::testing
