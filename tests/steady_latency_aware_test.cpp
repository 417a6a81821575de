// The latency-aware choice between one tree and the multi-tree schedule in
// rounds (steady/pipelined/latency_aware.h): the rounded schedule's numbers
// are recomputed independently, its throughput tends to the LP optimum as
// rounds grow, small messages on high-latency links pick one tree and large
// ones the multi-tree schedule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "hetcoll/core/error.h"
#include "hetcoll/gen/tiers_platform.h"
#include "hetcoll/steady/pipelined/latency_aware.h"

namespace hetcoll {
namespace {

Platform tiers_with_latency(int nodes, std::uint64_t seed, double latency_scale) {
  auto options = tiers_preset(nodes);
  options.seed = seed;
  options.wan_latency = 1e-3 * latency_scale;
  options.man_latency = 1e-4 * latency_scale;
  options.lan_latency = 1e-5 * latency_scale;
  return generate_tiers_platform(options);
}

struct Packed {
  SsbSolution optimum;
  MultiTreePacking packing;
  std::vector<double> times;
};

Packed pack(const Platform& platform, double slice) {
  Packed result;
  result.times = platform.edge_costs(slice);
  result.optimum = solve_ssb(platform, 0, result.times);
  result.packing = pack_broadcast_trees(platform, 0, result.times, result.optimum);
  return result;
}

TEST(LatencyAware, OneSlicePerRoundIsTheHeaviestTreeAlone) {  // round_multi_tree itself
  auto platform = tiers_with_latency(30, 2, 1);
  auto packed = pack(platform, 1e6);
  ASSERT_TRUE(packed.packing.reaches_optimum);
  auto rounded = round_multi_tree(platform, packed.packing, packed.times, 1);
  EXPECT_EQ(rounded.trees_used, 1);
  auto heaviest = std::max_element(packed.packing.trees.begin(), packed.packing.trees.end(),
                                   [](const auto& a, const auto& b) { return a.weight < b.weight; });
  size_t index = static_cast<size_t>(heaviest - packed.packing.trees.begin());
  EXPECT_EQ(rounded.tree_slices[index], 1);
  // One slice per round on one tree: the round is that tree's one-port period.
  auto costs = make_tree_costs(platform, 1e6, BroadcastModel::one_port);
  EXPECT_NEAR(rounded.round_length, evaluate_tree(platform, heaviest->tree, costs).period, 1e-12);
}

TEST(LatencyAware, RoundsApproachTheOptimumAndAreRecomputedIndependently) {
  auto platform = tiers_with_latency(30, 3, 1);
  auto packed = pack(platform, 1e6);
  double optimum = packed.optimum.throughput_value();
  double previous_gap = 1;
  for (int slices : {16, 64, 256}) {
    auto rounded = round_multi_tree(platform, packed.packing, packed.times, slices);
    std::int64_t dealt = 0;
    for (auto share : rounded.tree_slices) dealt += share;
    EXPECT_EQ(dealt, slices);
    // The round's length from scratch: every node's summed sends and receives.
    std::vector<double> out(static_cast<size_t>(platform.size()), 0.0), in(out);
    for (size_t i = 0; i < packed.packing.trees.size(); ++i) {
      for (const auto& edge : packed.packing.trees[i].tree.edges) {
        for (auto e : edge.route) {
          out[static_cast<size_t>(platform.edges()[e].from)] += rounded.tree_slices[i] * packed.times[e];
          in[static_cast<size_t>(platform.edges()[e].to)] += rounded.tree_slices[i] * packed.times[e];
        }
      }
    }
    double longest = std::max(*std::max_element(out.begin(), out.end()), *std::max_element(in.begin(), in.end()));
    EXPECT_NEAR(rounded.round_length, longest, 1e-9 * longest);
    EXPECT_LE(rounded.throughput(), optimum * (1 + 1e-9));  // the LP bounds every schedule
    double gap = 1 - rounded.throughput() / optimum;
    EXPECT_LE(gap, previous_gap + 1e-12) << slices;
    previous_gap = gap;
  }
  EXPECT_LT(previous_gap, 0.05);  // 256 slices per round: within 5% of the optimum
}

TEST(LatencyAware, MakespanFormulaAtAFixedSliceSize) {
  auto platform = tiers_with_latency(30, 4, 1);
  auto packed = pack(platform, 1e5);
  LatencyAwareOptions options;
  options.slice_size = 1e5;
  options.max_slices_per_round = 32;
  auto best = best_multi_tree_makespan(platform, packed.packing, 1e7, options);
  EXPECT_EQ(best.slices, 100);
  // No round size does better, each by the formula (ceil(k / R) + D - 1) P_R,
  // or, over one tree, (k - 1) P_R / R + that tree's first slice.
  for (int r = 1; r <= 32; ++r) {
    auto rounded = round_multi_tree(platform, packed.packing, packed.times, r);
    double makespan = static_cast<double>((100 + r - 1) / r + rounded.depth - 1) * rounded.round_length;
    if (rounded.trees_used == 1) {
      size_t only = 0;
      while (rounded.tree_slices[only] == 0) ++only;
      auto costs = make_tree_costs(platform, 1e5, BroadcastModel::one_port);
      makespan = 99 * rounded.round_length / r + first_slice_time(platform, packed.packing.trees[only].tree, costs);
    }
    EXPECT_GE(makespan, best.makespan * (1 - 1e-12)) << r;
    if (r == best.rounds.slices_per_round) { EXPECT_NEAR(makespan, best.makespan, 1e-12 * makespan); }
  }
}

TEST(LatencyAware, SmallMessagesTakeOneTreeLargeOnesTheMultiTree) {
  auto platform = tiers_with_latency(65, 1, 1);  // WAN 1 ms
  auto small = choose_broadcast_schedule(platform, 0, 1e4);
  EXPECT_EQ(small.chosen_trees(), 1) << small.chosen_name();
  auto large = choose_broadcast_schedule(platform, 0, 1e10);
  EXPECT_TRUE(large.multi_tree_chosen) << large.multi_tree.makespan << " vs " << large.single_tree.makespan->makespan;
  EXPECT_GE(large.chosen_trees(), 2) << large.chosen_name();
  EXPECT_TRUE(large.packing.reaches_optimum);
  // A large message runs close to the LP optimum at the chosen slice size.
  auto times = platform.edge_costs(large.multi_tree.slice_size);
  double bound = solve_ssb(platform, 0, times).throughput_value();
  EXPECT_GT(large.multi_tree.rounds.throughput(), 0.9 * bound);
}

TEST(LatencyAware, FixedCostPlatformsAreRefused) {
  std::vector<PlatformNode> nodes{{"a", std::nullopt, std::nullopt, false}, {"b", std::nullopt, std::nullopt, false}};
  std::vector<PlatformEdge> edges{{0, 1, 1.0, std::nullopt, std::nullopt}};
  Platform platform(std::move(nodes), std::move(edges), "test");
  EXPECT_THROW(choose_broadcast_schedule(platform, 0, 1e6), InputError);
}

}  // namespace
}  // namespace hetcoll
