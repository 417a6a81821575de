#include "hetcoll/gen/tiers_platform.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {
namespace {

constexpr const char* kGenerator = "tiers platform";

struct Point {
  double x = 0, y = 0;
};

double distance(Point a, Point b) { return std::hypot(a.x - b.x, a.y - b.y); }

// Builds the node list and links of the whole platform, one network at a time.
class TiersBuilder {
 public:
  explicit TiersBuilder(const TiersPlatformOptions& options) : options_(options), rng_(options.seed) {}

  Platform build() {
    std::vector<ProcessorIndex> wan = add_network(Point{500, 500}, 1000, options_.wan_nodes, "wan", "");
    join_mesh(wan, options_.wan_redundancy, options_.wan_latency);
    for (int m = 0; m < options_.mans; ++m) {
      ProcessorIndex wan_attachment = wan[pick(wan.size())];
      auto man = add_network(positions_[static_cast<size_t>(wan_attachment)], 100, options_.man_nodes, "man",
                             fmt::format("{}.", m));
      join_mesh(man, options_.man_redundancy, options_.man_latency);
      join_levels(man, wan, wan_attachment, options_.man_wan_links, options_.wan_latency);
      for (int l = 0; l < options_.lans_per_man; ++l) {
        ProcessorIndex man_attachment = man[pick(man.size())];
        auto lan = add_network(positions_[static_cast<size_t>(man_attachment)], 10, options_.lan_nodes, "lan",
                               fmt::format("{}.{}.", m, l));
        join_star(lan, options_.lan_redundancy, options_.lan_latency);
        join_levels(lan, man, man_attachment, options_.lan_man_links, options_.man_latency);
      }
    }
    return assemble_generated_platform(std::move(ids_), links_, options_.links, kGenerator);
  }

 private:
  size_t pick(size_t count) { return std::uniform_int_distribution<size_t>(0, count - 1)(rng_); }

  std::vector<ProcessorIndex> add_network(Point centre, double side, int count, const char* level,
                                          const std::string& prefix) {
    std::uniform_real_distribution<double> offset(-side / 2, side / 2);
    std::vector<ProcessorIndex> members;
    for (int i = 0; i < count; ++i) {
      members.push_back(static_cast<ProcessorIndex>(ids_.size()));
      ids_.push_back(fmt::format("{}{}{}", level, prefix, i));
      double x = centre.x + offset(rng_);
      double y = centre.y + offset(rng_);
      positions_.push_back(Point{x, y});
    }
    return members;
  }

  bool linked(ProcessorIndex a, ProcessorIndex b) const { return existing_.count({std::min(a, b), std::max(a, b)}) > 0; }

  void add_link(ProcessorIndex a, ProcessorIndex b, double latency) {
    existing_.insert({std::min(a, b), std::max(a, b)});
    links_.push_back({a, b, latency, draw_bandwidth(rng_, options_.links)});
  }

  double gap(ProcessorIndex a, ProcessorIndex b) const {
    return distance(positions_[static_cast<size_t>(a)], positions_[static_cast<size_t>(b)]);
  }

  // Euclidean MST (Prim from the first member) then nearest-neighbour redundancy.
  void join_mesh(const std::vector<ProcessorIndex>& members, int redundancy, double latency) {
    const size_t k = members.size();
    std::vector<bool> in_tree(k, false);
    std::vector<double> best(k, std::numeric_limits<double>::infinity());
    std::vector<size_t> best_from(k, 0);
    best[0] = 0;
    for (size_t step = 0; step < k; ++step) {
      size_t next = k;
      for (size_t i = 0; i < k; ++i) {
        if (!in_tree[i] && (next == k || best[i] < best[next])) next = i;
      }
      in_tree[next] = true;
      if (step > 0) add_link(members[best_from[next]], members[next], latency);
      for (size_t i = 0; i < k; ++i) {
        double d = gap(members[next], members[i]);
        if (!in_tree[i] && d < best[i]) {
          best[i] = d;
          best_from[i] = next;
        }
      }
    }
    add_redundancy(members, 0, redundancy, latency);
  }

  // Each member from `first` on gets links to its nearest non-neighbours
  // (among all members) until its degree inside the network is `redundancy`.
  void add_redundancy(const std::vector<ProcessorIndex>& members, size_t first, int redundancy, double latency) {
    for (size_t i = first; i < members.size(); ++i) {
      auto degree = [&] {
        int d = 0;
        for (auto other : members) d += (other != members[i] && linked(members[i], other)) ? 1 : 0;
        return d;
      };
      while (degree() < redundancy) {
        ProcessorIndex nearest = kNoProcessor;
        for (auto other : members) {
          if (other == members[i] || linked(members[i], other)) continue;
          if (nearest == kNoProcessor || gap(members[i], other) < gap(members[i], nearest)) nearest = other;
        }
        if (nearest == kNoProcessor) break;
        add_link(members[i], nearest, latency);
      }
    }
  }

  void join_star(const std::vector<ProcessorIndex>& members, int redundancy, double latency) {
    for (size_t i = 1; i < members.size(); ++i) add_link(members[0], members[i], latency);
    if (redundancy > 1) add_redundancy(members, 1, redundancy, latency);
  }

  // `lower` hangs off `upper_attachment`; `count` links in all.
  void join_levels(const std::vector<ProcessorIndex>& lower, const std::vector<ProcessorIndex>& upper,
                   ProcessorIndex upper_attachment, int count, double latency) {
    ProcessorIndex nearest = lower.front();
    for (auto v : lower) {
      if (gap(v, upper_attachment) < gap(nearest, upper_attachment)) nearest = v;
    }
    add_link(nearest, upper_attachment, latency);
    for (int extra = 1; extra < count; ++extra) {
      ProcessorIndex best_lower = kNoProcessor, best_upper = kNoProcessor;
      for (auto a : lower) {
        for (auto b : upper) {
          if (linked(a, b)) continue;
          if (best_lower == kNoProcessor || gap(a, b) < gap(best_lower, best_upper)) {
            best_lower = a;
            best_upper = b;
          }
        }
      }
      if (best_lower == kNoProcessor) break;
      add_link(best_lower, best_upper, latency);
    }
  }

  const TiersPlatformOptions& options_;
  std::mt19937_64 rng_;
  std::vector<std::string> ids_;
  std::vector<Point> positions_;
  std::vector<UndirectedLink> links_;
  std::set<std::pair<ProcessorIndex, ProcessorIndex>> existing_;
};

}  // namespace

TiersPlatformOptions tiers_preset(int nodes) {
  TiersPlatformOptions options;
  if (nodes == 30) {
    options.wan_nodes = 6;
    options.mans = 2;
    options.man_nodes = 6;
    options.lans_per_man = 2;
    options.lan_nodes = 3;
  } else if (nodes == 65) {
    options.wan_nodes = 5;
    options.mans = 3;
    options.man_nodes = 5;
    options.lans_per_man = 3;
    options.lan_nodes = 5;
    // Three links between levels bring the density into the paper's range
    // (about 0.05 instead of 0.045 with two).
    options.man_wan_links = 3;
    options.lan_man_links = 3;
  } else {
    throw InputError(fmt::format("{}: nodes: the presets are 30 and 65 nodes, got {}", kGenerator, nodes));
  }
  return options;
}

Platform generate_tiers_platform(const TiersPlatformOptions& options) {
  auto at_least = [](int value, int minimum, const char* name) {
    constexpr int kMaximum = 1000;
    if (value < minimum || value > kMaximum) {
      throw InputError(fmt::format("{}: {}: must be between {} and {}, got {}", kGenerator, name, minimum, kMaximum,
                                   value));
    }
  };
  at_least(options.wan_nodes, 1, "wan_nodes");
  at_least(options.mans, 0, "mans");
  at_least(options.man_nodes, 1, "man_nodes");
  at_least(options.lans_per_man, 0, "lans_per_man");
  at_least(options.lan_nodes, 1, "lan_nodes");
  at_least(options.wan_redundancy, 0, "wan_redundancy");
  at_least(options.man_redundancy, 0, "man_redundancy");
  at_least(options.lan_redundancy, 0, "lan_redundancy");
  at_least(options.man_wan_links, 1, "man_wan_links");
  at_least(options.lan_man_links, 1, "lan_man_links");
  if (options.total_nodes() > 20000) {
    throw InputError(fmt::format("{}: the options ask for {} nodes, more than 20000", kGenerator, options.total_nodes()));
  }
  for (auto [value, name] : {std::pair{options.wan_latency, "wan_latency"}, std::pair{options.man_latency, "man_latency"},
                             std::pair{options.lan_latency, "lan_latency"}}) {
    if (!(value >= 0) || !std::isfinite(value)) {
      throw InputError(fmt::format("{}: {}: must be a non-negative finite number, got {}", kGenerator, name, value));
    }
  }
  validate_link_draw_options(options.links, kGenerator);
  return TiersBuilder(options).build();
}

}  // namespace hetcoll
