// Pipelined broadcasts simulated (sim/periodic_simulator.h): one tree and the
// multi-tree schedule as periodic plans, K slices with start-up and
// clean-up. In steady state the simulation completes exactly the plan's
// slices per period, so the measured throughput tends to the predicted one
// (the tree's 1 / period, the LP optimum for the multi-tree schedule), and
// the rounded multi-tree schedule of latency_aware.h finishes within its
// predicted makespan. Platforms with small integer slice times keep the
// exact periods short enough to simulate many of them.
#include <gtest/gtest.h>

#include <random>

#include "hetcoll/core/error.h"
#include "hetcoll/sim/periodic_simulator.h"
#include "hetcoll/steady/pipelined/latency_aware.h"
#include "hetcoll/steady/broadcast/multi_tree.h"
#include "hetcoll/steady/broadcast/tree_heuristics.h"
#include "hetcoll/verify/verify_periodic.h"

namespace hetcoll {
namespace {

// A ring in both directions plus random chords, slice times 1..4.
Platform integer_platform(int nodes, double chord_probability, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> cost(1, 4);
  std::bernoulli_distribution chord(chord_probability);
  std::vector<PlatformNode> vertices;
  for (int v = 0; v < nodes; ++v) vertices.push_back({std::string("n").append(std::to_string(v)), std::nullopt, std::nullopt, false});
  std::vector<PlatformEdge> edges;
  for (int u = 0; u < nodes; ++u) {
    for (int v = 0; v < nodes; ++v) {
      bool ring = v == (u + 1) % nodes || u == (v + 1) % nodes;
      if (u != v && (ring || chord(rng))) {
        edges.push_back({u, v, static_cast<double>(cost(rng)), std::nullopt, std::nullopt});
      }
    }
  }
  return Platform(std::move(vertices), std::move(edges), "test");
}

int depth_of(const Platform& platform, const BroadcastTree& tree) {
  std::vector<int> depth(static_cast<size_t>(platform.size()), 0);
  int deepest = 0;
  for (const auto& edge : tree.edges) {
    depth[static_cast<size_t>(edge.to)] = depth[static_cast<size_t>(edge.from)] + static_cast<int>(edge.route.size());
    deepest = std::max(deepest, depth[static_cast<size_t>(edge.to)]);
  }
  return deepest;
}

// The simulated slices per time unit between two progress samples late in
// the run: the steady state, free of start-up and clean-up.
Rational steady_state_rate(const PeriodicSimulationResult& result) {
  const auto& progress = result.progress;
  EXPECT_GE(progress.size(), 4u);
  const auto& early = progress[progress.size() / 2];
  const auto& late = progress[progress.size() - 2];
  return Rational(BigInteger(std::to_string(late.second - early.second))) / (late.first - early.first);
}

TEST(BroadcastSimulation, SingleTreeReachesItsPeriod) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    auto platform = integer_platform(9, 0.25, seed);
    auto times = platform.edge_costs(std::nullopt);
    TreeProblem problem;
    problem.platform = &platform;
    problem.source = 0;
    problem.costs = make_tree_costs(platform, std::nullopt, BroadcastModel::one_port);
    auto tree = find_tree_heuristic("grow")->build(problem);
    auto plan = single_tree_schedule(platform, tree, times);
    auto report = verify_periodic_plan(platform, plan);
    ASSERT_TRUE(report.valid) << report.summary();
    auto period = evaluate_tree(platform, tree, make_tree_costs(platform, std::nullopt, BroadcastModel::one_port)).period;
    EXPECT_EQ(plan.throughput, 1 / rational_from_double(period));
    const std::uint64_t slices = 400;
    PeriodicSimulationOptions options;
    options.operations = slices;
    options.max_samples = 400;
    auto result = simulate_periodic_plan(platform, plan, options);
    ASSERT_TRUE(result.finished) << "seed " << seed;
    EXPECT_EQ(steady_state_rate(result), plan.throughput) << "seed " << seed;
    // Start-up + steady state: (K - 1) periods plus at most one period per level.
    double makespan = to_double(result.makespan);
    int depth = depth_of(platform, tree);
    EXPECT_GE(makespan, (slices - 1) * period) << "seed " << seed;
    EXPECT_LE(makespan, (slices + depth) * period) << "seed " << seed;
    EXPECT_GT(result.ratio, 1.0 - double(depth + 1) / slices) << "seed " << seed;
  }
}

TEST(BroadcastSimulation, MultiTreeScheduleReachesTheLpOptimum) {
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    auto platform = integer_platform(7, 0.3, seed);
    auto times = platform.edge_costs(std::nullopt);
    auto optimum = solve_ssb(platform, 0, times);
    auto packing = pack_broadcast_trees(platform, 0, times, optimum);
    ASSERT_TRUE(packing.reaches_optimum);
    auto plan = multi_tree_schedule(platform, 0, times, optimum, packing);
    auto report = verify_periodic_plan(platform, plan);
    ASSERT_TRUE(report.valid) << report.summary();
    ASSERT_TRUE(plan.operations_per_period.fits_ulong_p());
    const std::uint64_t per_period = plan.operations_per_period.get_ui();
    int depth = 0;
    for (const auto& tree : packing.trees) depth = std::max(depth, depth_of(platform, tree.tree));
    // Enough periods that start-up and clean-up (at most depth + 1 periods)
    // cost under 0.1%: the simulated throughput is >= 99.9% of the optimum.
    const std::uint64_t periods = 1000 * static_cast<std::uint64_t>(depth + 1);
    PeriodicSimulationOptions options;
    options.operations = per_period * periods;
    auto result = simulate_periodic_plan(platform, plan, options);
    ASSERT_TRUE(result.finished) << "seed " << seed;
    EXPECT_EQ(steady_state_rate(result), optimum.throughput) << "seed " << seed;
    EXPECT_GE(result.ratio, 0.999) << "seed " << seed << ", " << packing.trees.size() << " trees, depth " << depth;
    RecordProperty("ratio_seed_" + std::to_string(seed), std::to_string(result.ratio));
    EXPECT_LE(result.ratio, 1.0) << "seed " << seed;
  }
}

TEST(BroadcastSimulation, RoundedMultiTreeFinishesWithinItsPrediction) {
  auto platform = integer_platform(9, 0.3, 4);
  auto times = platform.edge_costs(std::nullopt);
  auto optimum = solve_ssb(platform, 0, times);
  auto packing = pack_broadcast_trees(platform, 0, times, optimum);
  for (int slices_per_round : {2, 5, 12}) {
    auto rounded = round_multi_tree(platform, packing, times, slices_per_round);
    std::vector<WeightedBroadcastTree> trees;
    for (size_t i = 0; i < packing.trees.size(); ++i) {
      if (rounded.tree_slices[i] == 0) continue;
      trees.push_back({Rational(BigInteger(std::to_string(rounded.tree_slices[i]))) /
                           rational_from_double(rounded.round_length),
                       packing.trees[i].tree});
    }
    auto plan = periodic_broadcast_schedule(platform, 0, times, trees);
    ASSERT_TRUE(verify_periodic_plan(platform, plan).valid);
    // R slices per round of P_R (the plan's period may be P_R / g, with R / g
    // slices per period, when the shares have a common factor g).
    EXPECT_EQ(plan.throughput, Rational(slices_per_round) / rational_from_double(rounded.round_length));
    for (std::uint64_t slices : {7u, 60u}) {
      PeriodicSimulationOptions options;
      options.operations = slices;
      auto result = simulate_periodic_plan(platform, plan, options);
      ASSERT_TRUE(result.finished);
      const auto batches = static_cast<double>((slices + slices_per_round - 1) / slices_per_round);
      double predicted = (batches + rounded.depth - 1) * rounded.round_length;
      EXPECT_LE(to_double(result.makespan), predicted * (1 + 1e-12)) << slices_per_round << " " << slices;
      EXPECT_GE(to_double(result.makespan), (batches - 1) * rounded.round_length) << slices_per_round << " " << slices;
    }
  }
}

TEST(BroadcastSimulation, RefusesTransfersWithoutTheirTree) {
  auto platform = integer_platform(6, 0.3, 5);
  auto times = platform.edge_costs(std::nullopt);
  auto optimum = solve_ssb(platform, 0, times);
  auto packing = pack_broadcast_trees(platform, 0, times, optimum);
  auto plan = multi_tree_schedule(platform, 0, times, optimum, packing);
  if (plan.trees.size() < 2) GTEST_SKIP() << "one tree: transfers need not name it";
  for (auto& slot : plan.slots) {
    for (auto& transfer : slot.transfers) transfer.tree = -1;
  }
  EXPECT_THROW(simulate_periodic_plan(platform, plan, {}), InputError);
}

}  // namespace
}  // namespace hetcoll
