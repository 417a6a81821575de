#include "hetcoll/model/nic_network.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/platform_io.h"

namespace hetcoll {

void check_nic_network(const NicNetwork& network) {
  const auto n = network.size();
  if (n == 0) throw InputError("network", "no processors");
  if (network.up_bandwidth.size() != n || network.down_bandwidth.size() != n) {
    throw InputError("network", "latency, up_bandwidth and down_bandwidth must have one entry per processor");
  }
  for (std::size_t u = 0; u < n; ++u) {
    if (!(network.latency[u] >= 0) || !std::isfinite(network.latency[u])) {
      throw InputError("network", fmt::format("latency of processor {} must be finite and >= 0", u));
    }
    if (!(network.up_bandwidth[u] > 0) || !(network.down_bandwidth[u] > 0)) {
      throw InputError("network", fmt::format("bandwidths of processor {} must be > 0", u));
    }
  }
  if (!(network.envelope_bytes >= 0)) throw InputError("envelope_bytes", "must be >= 0");
}

NicNetwork nic_network_from_times(const std::vector<double>& time_at_zero, const std::vector<double>& time_at_bytes,
                                  double bytes, double envelope_bytes) {
  if (time_at_zero.size() != time_at_bytes.size()) throw InputError("time_at_bytes", "one time per processor");
  if (!(bytes > 0)) throw InputError("bytes", "must be > 0");
  NicNetwork network;
  network.envelope_bytes = envelope_bytes;
  double fastest = 0;
  for (std::size_t u = 0; u < time_at_zero.size(); ++u) {
    const double per_byte = (time_at_bytes[u] - time_at_zero[u]) / bytes;
    if (!(per_byte > 0)) {
      throw InputError("time_at_bytes", fmt::format("processor {}: the time must grow with the message size", u));
    }
    network.latency.push_back(time_at_zero[u]);
    network.up_bandwidth.push_back(1 / per_byte);
    fastest = std::max(fastest, 1 / per_byte);
  }
  network.down_bandwidth.assign(time_at_zero.size(), fastest);
  return network;
}

NicNetwork nic_network_from_platform(const Platform& platform, double envelope_bytes) {
  // t_u(S) = L_u + S / U_u, read at 1 byte and 1 + 65536 bytes.
  const double probe = 65536;
  const auto small = cluster_from_platform(platform, 1.0, "platform").transmission_times();
  const auto large = cluster_from_platform(platform, 1.0 + probe, "platform").transmission_times();
  std::vector<double> at_zero(small.size());
  for (std::size_t u = 0; u < small.size(); ++u) at_zero[u] = small[u] - (large[u] - small[u]) / probe;
  return nic_network_from_times(at_zero, large, 1.0 + probe, envelope_bytes);
}

}  // namespace hetcoll
