// Random and Tiers platform generators (gen/random_platform.h,
// gen/tiers_platform.h): sizes, connectivity, determinism, the paper's
// parameters (Beaumont, Marchal, Robert 2004, Table 2, sec. 5.1).
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include <gtest/gtest.h>

#include "hetcoll/core/error.h"
#include "hetcoll/gen/random_platform.h"
#include "hetcoll/gen/tiers_platform.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/model/shortest_paths.h"

namespace hetcoll {
namespace {

bool strongly_connected(const Platform& platform) {
  auto costs = platform.edge_costs(1e6);
  auto from = shortest_paths_from(platform, 0, costs);
  auto to = shortest_paths_to(platform, 0, costs);
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    if (!from.reaches(v) || !to.reaches(v)) return false;
  }
  return true;
}

double density(const Platform& platform) {
  double n = platform.size();
  return (platform.edges().size() / 2.0) / (n * (n - 1) / 2);
}

std::string as_json(const Platform& platform) {
  std::ostringstream out;
  write_platform_json(out, platform);
  return out.str();
}

TEST(RandomPlatform, ConnectedAtEveryDensityOfThePaper) {
  for (int nodes : {10, 20, 30, 40, 50}) {
    for (double d : {0.04, 0.08, 0.12, 0.16, 0.20}) {
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        auto platform = generate_random_platform({nodes, d, 0.0, seed, {}});
        ASSERT_EQ(platform.size(), nodes);
        EXPECT_TRUE(strongly_connected(platform)) << nodes << " nodes, density " << d << ", seed " << seed;
      }
    }
  }
}

TEST(RandomPlatform, DensityAndBandwidthsFollowTable2) {
  auto platform = generate_random_platform({200, 0.2, 0.0, 7, {}});
  EXPECT_NEAR(density(platform), 0.2, 0.01);
  double sum = 0, square_sum = 0;
  for (const auto& edge : platform.edges()) {
    ASSERT_TRUE(edge.bandwidth.has_value());
    sum += *edge.bandwidth;
    square_sum += *edge.bandwidth * *edge.bandwidth;
  }
  double count = platform.edges().size();
  double mean = sum / count;
  EXPECT_NEAR(mean, 100e6, 2e6);
  EXPECT_NEAR(std::sqrt(square_sum / count - mean * mean), 20e6, 2e6);
}

TEST(RandomPlatform, SendOverheadIsFourFifthsOfTheFastestLinkForTheGivenSlice) {
  RandomPlatformOptions options{15, 0.3, 1e-4, 3, {}};
  options.links.slice_size = 2e5;
  auto platform = generate_random_platform(options);
  auto costs = platform.edge_costs(*options.links.slice_size);
  for (ProcessorIndex v = 0; v < platform.size(); ++v) {
    double fastest = std::numeric_limits<double>::infinity();
    for (auto e : platform.out_edges(v)) fastest = std::min(fastest, costs[e]);
    ASSERT_TRUE(platform.node(v).send_overhead.has_value());
    EXPECT_NEAR(*platform.node(v).send_overhead, 0.8 * fastest, 1e-15);
  }
}

// By default no fixed overhead is written, so the planners' 0.8 rule applies
// at the slice size actually planned (seconds per slice scale with it).
TEST(RandomPlatform, NoFixedSendOverheadByDefault) {
  auto platform = generate_random_platform({15, 0.3, 1e-4, 3, {}});
  for (ProcessorIndex v = 0; v < platform.size(); ++v) EXPECT_FALSE(platform.node(v).send_overhead.has_value());
  RandomPlatformOptions other_fraction{15, 0.3, 1e-4, 3, {}};
  other_fraction.links.send_overhead_fraction = 0.5;
  auto fixed = generate_random_platform(other_fraction);
  auto costs = fixed.edge_costs(1e6);
  double fastest = std::numeric_limits<double>::infinity();
  for (auto e : fixed.out_edges(0)) fastest = std::min(fastest, costs[e]);
  ASSERT_TRUE(fixed.node(0).send_overhead.has_value());
  EXPECT_NEAR(*fixed.node(0).send_overhead, 0.5 * fastest, 1e-15);
}

TEST(RandomPlatform, DeterministicForASeed) {
  EXPECT_EQ(as_json(generate_random_platform({30, 0.1, 0.0, 11, {}})),
            as_json(generate_random_platform({30, 0.1, 0.0, 11, {}})));
  EXPECT_NE(as_json(generate_random_platform({30, 0.1, 0.0, 11, {}})),
            as_json(generate_random_platform({30, 0.1, 0.0, 12, {}})));
}

TEST(RandomPlatform, BadOptionsNameTheParameter) {
  auto message = [](RandomPlatformOptions options) {
    try {
      generate_random_platform(options);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({0, 0.1, 0, 1, {}}).find("nodes"), std::string::npos);
  EXPECT_NE(message({10, 1.5, 0, 1, {}}).find("density"), std::string::npos);
  EXPECT_NE(message({10, 0.1, -1, 1, {}}).find("latency"), std::string::npos);
  RandomPlatformOptions bad_bandwidth{10, 0.1, 0, 1, {}};
  bad_bandwidth.links.bandwidth_mean = 0;
  EXPECT_NE(message(bad_bandwidth).find("bandwidth_mean"), std::string::npos);
}

TEST(TiersPlatform, PresetsHaveThePaperSizesAndDensities) {
  for (int nodes : {30, 65}) {
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      auto options = tiers_preset(nodes);
      options.seed = seed;
      auto platform = generate_tiers_platform(options);
      ASSERT_EQ(platform.size(), nodes);
      EXPECT_TRUE(strongly_connected(platform));
      // sec. 5.1: "a density between 0.05 and 0.15".
      EXPECT_GE(density(platform), 0.05) << nodes << " nodes, seed " << seed;
      EXPECT_LE(density(platform), 0.15) << nodes << " nodes, seed " << seed;
    }
  }
}

TEST(TiersPlatform, LevelsAreJoinedAsAsked) {
  TiersPlatformOptions options;
  options.wan_nodes = 4;
  options.mans = 1;
  options.man_nodes = 3;
  options.lans_per_man = 1;
  options.lan_nodes = 4;
  options.wan_redundancy = 0;
  options.man_redundancy = 0;
  options.man_wan_links = 1;
  options.lan_man_links = 1;
  auto platform = generate_tiers_platform(options);
  ASSERT_EQ(platform.size(), 11);
  // Trees everywhere and one link per level join: the whole graph is a tree.
  EXPECT_EQ(platform.edges().size(), 2u * 10);
  EXPECT_TRUE(strongly_connected(platform));
  // The LAN is a star on lan0.0.0.
  auto hub = *platform.find("lan0.0.0");
  EXPECT_GE(platform.out_edges(hub).size(), 3u);
  for (auto leaf : {"lan0.0.1", "lan0.0.2", "lan0.0.3"}) {
    auto v = *platform.find(leaf);
    bool hub_linked = false;
    for (auto e : platform.out_edges(v)) hub_linked |= platform.edges()[e].to == hub;
    EXPECT_TRUE(hub_linked) << leaf;
  }
}

TEST(TiersPlatform, BadOptions) {
  EXPECT_THROW(tiers_preset(40), InputError);
  TiersPlatformOptions options;
  options.wan_nodes = 0;
  EXPECT_THROW(generate_tiers_platform(options), InputError);
  options = TiersPlatformOptions{};
  options.wan_latency = -1;
  EXPECT_THROW(generate_tiers_platform(options), InputError);
}

}  // namespace
}  // namespace hetcoll
