// The NIC fluid network the split reduce is planned and checked in: every
// processor has an up link (latency L_u, bandwidth U_u) and a down link
// (bandwidth D_u); concurrent flows share each link's bandwidth (max-min
// fair, as SimGrid's CM02 model on a NIC cluster).
#pragma once

#include <cstddef>
#include <vector>

namespace hetcoll {

// The network a split reduce is planned on (see the header comment).
struct NicNetwork {
  std::vector<double> latency;         // L_u, seconds (route u -> v: u's up link's latency)
  std::vector<double> up_bandwidth;    // U_u, bytes/s
  std::vector<double> down_bandwidth;  // D_u, bytes/s
  double envelope_bytes = 0;           // bytes the network adds to every message
  std::size_t size() const { return latency.size(); }
};

// Throws InputError (parameter "network" or "envelope_bytes") unless the
// network has a processor, one entry per processor in each vector,
// latencies finite and >= 0, bandwidths > 0 and an envelope >= 0.
void check_nic_network(const NicNetwork& network);

// The network of a sender-speed view given at two message sizes: t_u(S) =
// L_u + S / U_u, so L_u = t_u(0) and U_u = S / (t_u(S) - t_u(0)); every down
// link at the fastest up link's bandwidth (scripts/nic-platform's clusters).
NicNetwork nic_network_from_times(const std::vector<double>& time_at_zero, const std::vector<double>& time_at_bytes,
                                  double bytes, double envelope_bytes);

// The NIC network of a platform's participants (in index order), read from
// its sender-speed view (platform_io.h) at 1 byte and 65537 bytes: L_u and
// U_u from each participant's slowest route, every down link at the fastest
// up link's bandwidth. The platform must give latencies and bandwidths.
class Platform;
NicNetwork nic_network_from_platform(const Platform& platform, double envelope_bytes = 0);

}  // namespace hetcoll
