// The multi-tree schedule (steady/broadcast/multi_tree.h): the packing
// reaches the SSB optimum exactly on every generated platform tried, and the
// periodic schedule passes verify_periodic_plan (with its certificate);
// broken plans are caught.
#include <gtest/gtest.h>

#include "hetcoll/gen/random_platform.h"
#include "hetcoll/gen/tiers_platform.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/steady/broadcast/multi_tree.h"
#include "hetcoll/verify/verify_periodic.h"

namespace hetcoll {
namespace {

std::string fmt_seed(const char* kind, std::uint64_t seed) { return std::string(kind) + " seed " + std::to_string(seed); }

void expect_optimal_schedule(const Platform& platform, const std::string& name) {
  auto times = platform.edge_costs(1e6);
  auto optimum = solve_ssb(platform, 0, times);
  auto packing = pack_broadcast_trees(platform, 0, times, optimum);
  EXPECT_TRUE(packing.reaches_optimum) << name << ": " << to_string(packing.total_weight) << " of "
                                       << to_string(optimum.throughput);
  // Far fewer trees than Caratheodory's m + 1.
  EXPECT_LE(packing.trees.size(), platform.edges().size() - static_cast<size_t>(platform.size()) + 2) << name;
  auto plan = multi_tree_schedule(platform, 0, times, optimum, packing);
  auto report = verify_periodic_plan(platform, plan, 1e6);
  EXPECT_TRUE(report.valid) << name << ": " << report.summary();
  EXPECT_TRUE(report.certificate_checked) << name;
  EXPECT_TRUE(plan.optimal()) << name;
}

TEST(MultiTree, ReachesTheOptimumOnGeneratedPlatforms) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    expect_optimal_schedule(generate_random_platform({15, 0.25, 0.0, seed, {}}), fmt_seed("random", seed));
    auto tiers = tiers_preset(seed % 2 ? 30 : 65);
    tiers.seed = seed;
    expect_optimal_schedule(generate_tiers_platform(tiers), fmt_seed("tiers", seed));
  }
}

TEST(MultiTree, VerifierCatchesBrokenSchedules) {
  auto platform = generate_random_platform({10, 0.4, 0.0, 3, {}});
  auto times = platform.edge_costs(1e6);
  auto optimum = solve_ssb(platform, 0, times);
  auto packing = pack_broadcast_trees(platform, 0, times, optimum);
  auto plan = multi_tree_schedule(platform, 0, times, optimum, packing);
  ASSERT_TRUE(verify_periodic_plan(platform, plan, 1e6).valid);
  auto heavier = plan;
  heavier.trees[0].weight *= 2;
  EXPECT_FALSE(verify_periodic_plan(platform, heavier, 1e6).valid);
  auto missing_edge = plan;
  missing_edge.trees[0].edges.pop_back();
  EXPECT_FALSE(verify_periodic_plan(platform, missing_edge, 1e6).valid);
  auto crowded = plan;
  ASSERT_GE(crowded.slots.size(), 2u);
  auto moved = crowded.slots[1].transfers;
  crowded.slots[0].transfers.insert(crowded.slots[0].transfers.end(), moved.begin(), moved.end());
  crowded.slots[1].transfers.clear();
  EXPECT_FALSE(verify_periodic_plan(platform, crowded, 1e6).valid);
}

}  // namespace
}  // namespace hetcoll
