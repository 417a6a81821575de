#include "hetcoll/gen/link_draws.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

void validate_link_draw_options(const LinkDrawOptions& options, const char* generator) {
  auto positive = [&](double value, const char* name) {
    if (!(value > 0) || !std::isfinite(value)) {
      throw InputError(fmt::format("{}: {}: must be a positive finite number, got {}", generator, name, value));
    }
  };
  positive(options.bandwidth_mean, "bandwidth_mean");
  if (options.slice_size) positive(*options.slice_size, "slice_size");
  if (!(options.bandwidth_deviation >= 0) || !std::isfinite(options.bandwidth_deviation)) {
    throw InputError(fmt::format("{}: bandwidth_deviation: must be a non-negative finite number, got {}", generator,
                                 options.bandwidth_deviation));
  }
  if (!(options.send_overhead_fraction >= 0 && options.send_overhead_fraction <= 1)) {
    throw InputError(fmt::format("{}: send_overhead_fraction: must be in [0, 1], got {}", generator,
                                 options.send_overhead_fraction));
  }
}

double draw_bandwidth(std::mt19937_64& rng, const LinkDrawOptions& options) {
  if (options.bandwidth_deviation == 0) return options.bandwidth_mean;
  std::normal_distribution<double> gaussian(options.bandwidth_mean, options.bandwidth_deviation);
  for (;;) {
    double bandwidth = gaussian(rng);
    if (bandwidth >= options.bandwidth_mean / 10) return bandwidth;
  }
}

Platform assemble_generated_platform(std::vector<std::string> node_ids, const std::vector<UndirectedLink>& links,
                                     const LinkDrawOptions& options, const char* generator) {
  std::vector<PlatformNode> nodes;
  nodes.reserve(node_ids.size());
  for (auto& id : node_ids) nodes.push_back(PlatformNode{std::move(id), std::nullopt, std::nullopt, false});
  std::vector<PlatformEdge> edges;
  edges.reserve(2 * links.size());
  std::vector<double> fastest_link_time(nodes.size(), std::numeric_limits<double>::infinity());
  for (const auto& link : links) {
    double time = link.latency + options.slice_size.value_or(1e6) / link.bandwidth;
    for (auto [from, to] : {std::pair{link.a, link.b}, std::pair{link.b, link.a}}) {
      edges.push_back(PlatformEdge{from, to, std::nullopt, link.latency, link.bandwidth});
      auto& fastest = fastest_link_time[static_cast<size_t>(from)];
      fastest = std::min(fastest, time);
    }
  }
  for (size_t v = 0; v < nodes.size() && options.writes_send_overhead(); ++v) {
    if (std::isfinite(fastest_link_time[v])) {
      nodes[v].send_overhead = options.send_overhead_fraction * fastest_link_time[v];
    }
  }
  return Platform(std::move(nodes), std::move(edges), generator);
}

}  // namespace hetcoll
