#include "hetcoll/gen/grid_generator.h"

#include <cmath>
#include <random>
#include <string>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

namespace {
constexpr int kMaxGridHosts = 2'000'000;
}

Platform generate_grid(const GridGeneratorOptions& options) {
  if (options.levels != 2 && options.levels != 3) throw InputError("grid: levels must be 2 or 3");
  if (options.min_hosts < 1 || options.max_hosts < options.min_hosts) {
    throw InputError("grid: hosts per site must satisfy 1 <= min <= max");
  }
  if (options.sites < 1 || options.regions < 1) throw InputError("grid: sites and regions must be at least 1");
  if (options.total_hosts && (*options.total_hosts < 1 || *options.total_hosts > kMaxGridHosts)) {
    throw InputError(fmt::format("grid: total hosts must be between 1 and {}", kMaxGridHosts));
  }
  if (!(options.lan_cost > 0) || !std::isfinite(options.lan_cost)) throw InputError("grid: LAN cost must be positive");
  if (!(options.wan_ratio >= 1) || !std::isfinite(options.wan_ratio)) throw InputError("grid: WAN ratio must be >= 1");
  if (!(options.jitter >= 0 && options.jitter < 1)) throw InputError("grid: jitter must be in [0, 1)");
  const double man_ratio = options.man_ratio.value_or(std::sqrt(options.wan_ratio));
  if (!(man_ratio >= 1) || !std::isfinite(man_ratio)) throw InputError("grid: MAN ratio must be >= 1");
  const long long planned_sites = static_cast<long long>(options.sites) * (options.levels == 3 ? options.regions : 1);
  if (!options.total_hosts && planned_sites * options.max_hosts > kMaxGridHosts) {
    throw InputError(fmt::format("grid: more than {} hosts", kMaxGridHosts));
  }

  std::mt19937_64 rng(options.seed);
  std::uniform_int_distribution<int> hosts_per_site(options.min_hosts, options.max_hosts);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto factor = [&](double low) { return low + (1.0 - low) * unit(rng); };

  std::vector<PlatformNode> nodes;
  std::vector<PlatformEdge> edges;
  auto add_node = [&](std::string id, NodeKind kind) {
    PlatformNode node;
    node.id = std::move(id);
    node.kind = kind;
    node.router = kind != NodeKind::host;
    node.ports = kind == NodeKind::router ? PortModel::unlimited : PortModel::one_port;
    nodes.push_back(std::move(node));
    return static_cast<ProcessorIndex>(nodes.size() - 1);
  };
  auto add_edge = [&](ProcessorIndex from, ProcessorIndex to, double cost) {
    PlatformEdge edge;
    edge.from = from;
    edge.to = to;
    edge.cost = cost;
    edges.push_back(edge);
  };
  // A host's LAN link: an edge each way.
  auto add_lan = [&](ProcessorIndex a, ProcessorIndex b, double nominal, double low) {
    add_edge(a, b, nominal * factor(low));
    add_edge(b, a, nominal * factor(low));
  };
  // A shared link: a one-port link node per direction; the edge into it
  // carries the cost, the edge out of it is a wire.
  auto add_shared = [&](const std::string& name, ProcessorIndex lower, ProcessorIndex upper, double nominal) {
    const ProcessorIndex up = add_node(name + "-up", NodeKind::link);
    add_edge(lower, up, nominal * factor(0.9));
    add_edge(up, upper, 0.0);
    const ProcessorIndex down = add_node(name + "-down", NodeKind::link);
    add_edge(upper, down, nominal * factor(0.9));
    add_edge(down, lower, 0.0);
  };
  const ProcessorIndex core = add_node("wan", NodeKind::router);
  const int regions = options.levels == 3 ? options.regions : 1;
  int hosts = 0;
  int site_number = 0;
  for (int region = 0;; ++region) {
    if (!options.total_hosts && region >= regions) break;
    if (options.total_hosts && hosts >= *options.total_hosts) break;
    ProcessorIndex uplink = core;
    if (options.levels == 3) {
      uplink = add_node(fmt::format("r{}-gw", region), NodeKind::router);
      add_shared(fmt::format("r{}", region), uplink, core, options.wan_ratio * options.lan_cost / 2);
    }
    for (int s = 0; s < options.sites; ++s) {
      if (options.total_hosts && hosts >= *options.total_hosts) break;
      const ProcessorIndex site_switch = add_node(fmt::format("s{}-sw", site_number), NodeKind::router);
      add_shared(fmt::format("s{}", site_number), site_switch, uplink,
                 (options.levels == 3 ? man_ratio : options.wan_ratio) * options.lan_cost / 2);
      const double site_factor = factor(0.5);
      int count = hosts_per_site(rng);
      if (options.total_hosts) count = std::min(count, *options.total_hosts - hosts);
      for (int h = 0; h < count; ++h) {
        const ProcessorIndex host = add_node(fmt::format("s{}-h{}", site_number, h), NodeKind::host);
        if (options.speeds) nodes.back().speed = 1.0 + 3.0 * unit(rng);
        add_lan(host, site_switch, options.lan_cost / 2 * site_factor, 1.0 - options.jitter);
      }
      hosts += count;
      ++site_number;
    }
    // Two levels without a host total: one "region" holds every site.
    if (options.levels == 2 && !options.total_hosts) break;
  }
  return Platform(std::move(nodes), std::move(edges), "generated grid");
}

}  // namespace hetcoll
