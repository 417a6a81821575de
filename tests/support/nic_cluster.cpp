#include "support/nic_cluster.h"

#include <algorithm>
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

LoadedPlatform multi_site_nic_cluster(const std::vector<std::vector<double>>& up_mbps, double latency_us,
                                      double wan_latency_us, double wan_mbps) {
  std::string xml = R"(<?xml version='1.0'?><!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="z" routing="Full">)";
  std::vector<std::string> ids;
  std::vector<std::size_t> site_of;
  double fastest = 0;
  for (std::size_t s = 0; s < up_mbps.size(); ++s) {
    for (std::size_t i = 0; i < up_mbps[s].size(); ++i) {
      ids.push_back(fmt::format("s{}h{}", s, i));
      site_of.push_back(s);
      fastest = std::max(fastest, up_mbps[s][i]);
    }
  }
  for (const auto& id : ids) xml += fmt::format(R"(<host id="{}" speed="1Gf"/>)", id);
  for (std::size_t h = 0, s = 0; s < up_mbps.size(); ++s) {
    for (double mbps : up_mbps[s]) {
      xml += fmt::format(R"(<link id="{}_up" bandwidth="{}MBps" latency="{}us"/>)", ids[h], mbps, latency_us);
      xml += fmt::format(R"(<link id="{}_down" bandwidth="{}MBps" latency="0us"/>)", ids[h], fastest);
      ++h;
    }
  }
  for (std::size_t a = 0; a < up_mbps.size(); ++a) {
    for (std::size_t b = 0; b < up_mbps.size(); ++b) {
      if (a != b) xml += fmt::format(R"(<link id="wan_{}_{}" bandwidth="{}MBps" latency="{}us"/>)", a, b, wan_mbps, wan_latency_us);
    }
  }
  for (std::size_t u = 0; u < ids.size(); ++u) {
    for (std::size_t v = 0; v < ids.size(); ++v) {
      if (u == v) continue;
      const std::string wan =
          site_of[u] == site_of[v] ? std::string() : fmt::format(R"(<link_ctn id="wan_{}_{}"/>)", site_of[u], site_of[v]);
      xml += fmt::format(R"(<route src="{}" dst="{}" symmetrical="NO"><link_ctn id="{}_up"/>{}<link_ctn id="{}_down"/></route>)",
                         ids[u], ids[v], ids[u], wan, ids[v]);
    }
  }
  xml += "</zone></platform>";
  return LoadedPlatform(parse_simgrid_xml(xml, "sites.xml"), "sites.xml");
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
