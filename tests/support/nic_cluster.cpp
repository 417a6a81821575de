#include "support/nic_cluster.h"

#include <string>
#include <utility>

#include <fmt/format.h>

#include "hetcoll/model/simgrid/simgrid_xml.h"

namespace hetcoll::testing {

LoadedPlatform nic_cluster(int hosts, const std::vector<double>& up_mbps, double latency_us) {
  std::string xml = R"(<?xml version='1.0'?><!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="z" routing="Full">)";
  for (int i = 0; i < hosts; ++i) xml += fmt::format(R"(<host id="h{}" speed="1Gf"/>)", i);
  for (int i = 0; i < hosts; ++i) {
    xml += fmt::format(R"(<link id="h{}_up" bandwidth="{}MBps" latency="{}us"/>)", i,
                       up_mbps[static_cast<std::size_t>(i) % up_mbps.size()], latency_us);
    xml += fmt::format(R"(<link id="h{}_down" bandwidth="{}MBps" latency="0us"/>)", i, up_mbps[0]);
  }
  for (int i = 0; i < hosts; ++i) {
    for (int j = 0; j < hosts; ++j) {
      if (i == j) continue;
      xml += fmt::format(R"(<route src="h{}" dst="h{}" symmetrical="NO"><link_ctn id="h{}_up"/>)"
                         R"(<link_ctn id="h{}_down"/></route>)",
                         i, j, i, j);
    }
  }
  xml += "</zone></platform>";
  return LoadedPlatform(parse_simgrid_xml(xml, "nic.xml"), "nic.xml");
}

NicNetwork network_of(std::vector<double> latency, std::vector<double> up, std::vector<double> down, double envelope) {
  NicNetwork network;
  network.latency = std::move(latency);
  network.up_bandwidth = std::move(up);
  network.down_bandwidth = std::move(down);
  network.envelope_bytes = envelope;
  return network;
}

NicNetwork random_network(std::mt19937_64& rng, std::size_t n) {
  std::uniform_real_distribution<double> latency(0, 1e-4), bandwidth(1e6, 1e8);
  std::bernoulli_distribution zero(0.1), envelope(0.5);
  NicNetwork network;
  for (std::size_t u = 0; u < n; ++u) {
    network.latency.push_back(zero(rng) ? 0.0 : latency(rng));
    network.up_bandwidth.push_back(bandwidth(rng));
    network.down_bandwidth.push_back(bandwidth(rng));
  }
  network.envelope_bytes = envelope(rng) ? 16 : 0;
  return network;
}

}  // namespace hetcoll::testing
