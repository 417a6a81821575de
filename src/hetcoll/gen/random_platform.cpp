#include "hetcoll/gen/random_platform.h"

#include <cmath>
#include <numeric>
#include <random>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {
namespace {

struct DisjointSets {
  std::vector<ProcessorIndex> parent;
  explicit DisjointSets(ProcessorIndex n) : parent(static_cast<size_t>(n)) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  ProcessorIndex find(ProcessorIndex v) {
    while (parent[static_cast<size_t>(v)] != v) {
      auto& p = parent[static_cast<size_t>(v)];
      p = parent[static_cast<size_t>(p)];
      v = p;
    }
    return v;
  }
  void join(ProcessorIndex a, ProcessorIndex b) { parent[static_cast<size_t>(find(a))] = find(b); }
};

}  // namespace

Platform generate_random_platform(const RandomPlatformOptions& options) {
  constexpr const char* kGenerator = "random platform";
  constexpr int kMaxNodes = 5000;  // N^2 pairs are drawn
  if (options.nodes < 1 || options.nodes > kMaxNodes) {
    throw InputError(fmt::format("{}: nodes: must be between 1 and {}, got {}", kGenerator, kMaxNodes, options.nodes));
  }
  if (!(options.density >= 0 && options.density <= 1)) {
    throw InputError(fmt::format("{}: density: must be in [0, 1], got {}", kGenerator, options.density));
  }
  if (!(options.latency >= 0) || !std::isfinite(options.latency)) {
    throw InputError(fmt::format("{}: latency: must be a non-negative finite number, got {}", kGenerator,
                                 options.latency));
  }
  validate_link_draw_options(options.links, kGenerator);

  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  const ProcessorIndex n = options.nodes;
  std::vector<UndirectedLink> links;
  DisjointSets components(n);
  for (ProcessorIndex a = 0; a < n; ++a) {
    for (ProcessorIndex b = a + 1; b < n; ++b) {
      if (coin(rng) < options.density) {
        links.push_back({a, b, options.latency, draw_bandwidth(rng, options.links)});
        components.join(a, b);
      }
    }
  }
  // Repair: members of each component, components ordered by smallest node.
  std::vector<std::vector<ProcessorIndex>> members(static_cast<size_t>(n));
  std::vector<ProcessorIndex> order;
  for (ProcessorIndex v = 0; v < n; ++v) {
    auto root = components.find(v);
    if (members[static_cast<size_t>(root)].empty()) order.push_back(root);
    members[static_cast<size_t>(root)].push_back(v);
  }
  std::vector<ProcessorIndex> joined = members[static_cast<size_t>(order.front())];
  for (size_t c = 1; c < order.size(); ++c) {
    const auto& component = members[static_cast<size_t>(order[c])];
    std::uniform_int_distribution<size_t> pick_new(0, component.size() - 1);
    std::uniform_int_distribution<size_t> pick_old(0, joined.size() - 1);
    ProcessorIndex a = joined[pick_old(rng)];
    ProcessorIndex b = component[pick_new(rng)];
    links.push_back({std::min(a, b), std::max(a, b), options.latency, draw_bandwidth(rng, options.links)});
    joined.insert(joined.end(), component.begin(), component.end());
  }

  std::vector<std::string> ids;
  ids.reserve(static_cast<size_t>(n));
  for (ProcessorIndex v = 0; v < n; ++v) ids.push_back(fmt::format("n{}", v));
  return assemble_generated_platform(std::move(ids), links, options.links, kGenerator);
}

}  // namespace hetcoll
