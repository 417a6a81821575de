// The multi-tree schedule (steady/broadcast/multi_tree.h): the packing
// reaches the SSB optimum exactly on every generated platform tried, and the
// periodic schedule passes verify_periodic_plan (with its certificate);
// broken plans are caught.
#include <functional>
#include <random>

#include <gtest/gtest.h>

#include "hetcoll/gen/random_platform.h"
#include "hetcoll/gen/tiers_platform.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/steady/broadcast/min_cost_arborescence.h"
#include "hetcoll/steady/broadcast/multi_tree.h"
#include "hetcoll/verify/verify_periodic.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

std::string fmt_seed(const char* kind, std::uint64_t seed) { return std::string(kind) + " seed " + std::to_string(seed); }

// Returns the trees the exact column generation added.
int expect_optimal_packing(const Platform& platform, const std::vector<double>& times, const SsbSolution& optimum,
                           const std::string& name, const PackingOptions& options = {}) {
  auto packing = pack_broadcast_trees(platform, 0, times, optimum, options);
  EXPECT_TRUE(packing.reaches_optimum) << name << ": " << packing.shortfall;
  EXPECT_EQ(packing.shortfall, "") << name;
  auto plan = multi_tree_schedule(platform, 0, times, optimum, packing);
  auto report = verify_periodic_plan(platform, plan, 1e6);
  EXPECT_TRUE(report.valid) << name << ": " << report.summary();
  EXPECT_TRUE(report.certificate_checked) << name;
  EXPECT_TRUE(plan.optimal()) << name;
  return packing.generated_trees;
}

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

// The full flow program's optimum is another vertex of the SSB polytope,
// with other rates n(e) (the one solve_ssb used to fall back to on dense
// platforms, where the search's trees alone fell short of TP by 5e-10). The
// packing must reach TP from any optimal rates: its exact column generation
// does what the doubles of the search cannot.
TEST(MultiTree, ReachesTheOptimumFromTheFullProgramsRates) {
  int generated = 0;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    auto platform = generate_random_platform({12, seed % 2 ? 0.5 : 0.3, 0.0, seed, {}});
    auto times = platform.edge_costs(1e6);
    auto optimum = solve_ssb(platform, 0, times);
    auto model = build_ssb_model(platform, 0, times, optimum.targets);
    auto full = lp::solve(model);
    ASSERT_EQ(full.status, lp::SolveStatus::optimal);
    ASSERT_EQ(full.objective, optimum.throughput);
    SsbSolution other = optimum;
    other.certificate = lp::make_certificate(model, full, optimum.certificate.formulation);
    for (size_t e = 0; e < platform.edges().size(); ++e) other.edge_rates[e] = full.primal[1 + e];
    ASSERT_EQ(check_ssb_solution(platform, 0, times, other), "") << "seed " << seed;
    PackingOptions search_first;
    search_first.search_first = true;
    generated += expect_optimal_packing(platform, times, other, fmt_seed("full-program rates, random", seed), search_first);
    expect_optimal_packing(platform, times, other, fmt_seed("full-program rates, generation only", seed));
  }
  // The search's trees alone were short somewhere: the exact generation
  // completed them.
  EXPECT_GT(generated, 0);
}

// The shape of the MPI comparison's rank route graph: every rank reaches
// every other directly, a rank's sends costing its class factor (1, 2 or 4).
TEST(MultiTree, ReachesTheOptimumOnCompleteClassGraphs) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    std::mt19937_64 random(seed);
    const int ranks = 10 + static_cast<int>(seed);
    std::vector<PlatformNode> nodes(static_cast<size_t>(ranks));
    std::vector<double> factor;
    for (int r = 0; r < ranks; ++r) {
      nodes[static_cast<size_t>(r)].id = std::string("h").append(std::to_string(r));
      factor.push_back(std::vector<double>{1, 2, 4}[random() % 3]);
    }
    std::vector<PlatformEdge> edges;
    for (int u = 0; u < ranks; ++u) {
      for (int v = 0; v < ranks; ++v) {
        if (u == v) continue;
        PlatformEdge edge;
        edge.from = u;
        edge.to = v;
        edge.latency = 2e-5 * factor[static_cast<size_t>(u)];
        edge.bandwidth = 1.25e8 / factor[static_cast<size_t>(u)];
        edges.push_back(edge);
      }
    }
    Platform platform(std::move(nodes), std::move(edges), "complete class graph");
    auto times = platform.edge_costs(1e6);  // the slice size the checks assume
    expect_optimal_packing(platform, times, solve_ssb(platform, 0, times), fmt_seed("complete", seed));
  }
}

// An imported SimGrid topology (SimGrid's small_platform.xml) has edges that
// take no time (their transfers use no port: listed in the first slot, as
// every steady-state schedule does). The colouring used to be handed those
// zero-time edges and threw.
TEST(MultiTree, ImportedTopologyWithFreeWiresIsScheduledAndVerified) {
  auto loaded = load_platform_file(testing::source_path("examples/small_platform.xml"));
  const Platform& platform = loaded.graph();
  auto times = platform.edge_costs(1e6);
  bool free_edge = false;
  for (double time : times) free_edge |= time == 0;
  ASSERT_TRUE(free_edge);
  auto source = *platform.find("Tremblay");
  auto optimum = solve_ssb(platform, source, times);
  ASSERT_EQ(check_ssb_solution(platform, source, times, optimum), "");
  auto packing = pack_broadcast_trees(platform, source, times, optimum);
  EXPECT_TRUE(packing.reaches_optimum) << packing.shortfall;
  auto plan = multi_tree_schedule(platform, source, times, optimum, packing);
  auto report = verify_periodic_plan(platform, plan, 1e6);
  EXPECT_TRUE(report.valid) << report.summary();
  EXPECT_TRUE(report.certificate_checked);
}

// Chu-Liu/Edmonds against every choice of one entering arc per node, in
// doubles and in rationals, negative costs included.
TEST(MinCostArborescence, MatchesExhaustiveSearchOnSmallGraphs) {
  std::mt19937 random(5);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 2 + trial % 5;
    std::vector<CostedArc<double>> arcs;
    std::vector<CostedArc<Rational>> exact_arcs;
    for (int u = 0; u < n; ++u) {
      for (int v = 0; v < n; ++v) {
        if (u == v || random() % 3 == 0) continue;
        int cost = static_cast<int>(random() % 19) - 4;
        arcs.push_back({u, v, static_cast<double>(cost)});
        exact_arcs.push_back({u, v, Rational(cost, 3)});
      }
    }
    // Exhaustive: every node but the root picks an entering arc; keep the
    // choices that reach every node from the root.
    std::optional<double> best;
    std::vector<size_t> pick(static_cast<size_t>(n), 0);
    std::function<void(int, double)> choose = [&](int v, double cost) {
      if (v == n) {
        for (int start = 1; start < n; ++start) {
          int u = start;
          for (int steps = 0; u != 0 && steps <= n; ++steps) u = arcs[pick[static_cast<size_t>(u)]].from;
          if (u != 0) return;
        }
        if (!best || cost < *best) best = cost;
        return;
      }
      if (v == 0) return choose(1, cost);
      for (size_t a = 0; a < arcs.size(); ++a) {
        if (arcs[a].to != v) continue;
        pick[static_cast<size_t>(v)] = a;
        choose(v + 1, cost + arcs[a].cost);
      }
    };
    choose(0, 0);
    auto found = min_cost_arborescence(n, 0, arcs);
    auto exact = min_cost_arborescence(n, 0, exact_arcs);
    ASSERT_EQ(found.has_value(), best.has_value()) << "trial " << trial;
    ASSERT_EQ(exact.has_value(), best.has_value()) << "trial " << trial;
    if (!best) continue;
    double cost = 0;
    Rational exact_cost = 0;
    std::vector<int> parent(static_cast<size_t>(n), -1);
    for (auto a : *found) {
      cost += arcs[a].cost;
      EXPECT_EQ(parent[static_cast<size_t>(arcs[a].to)], -1) << "trial " << trial;
      parent[static_cast<size_t>(arcs[a].to)] = arcs[a].from;
    }
    for (auto a : *exact) exact_cost += exact_arcs[a].cost;
    EXPECT_EQ(found->size(), static_cast<size_t>(n - 1)) << "trial " << trial;
    EXPECT_EQ(cost, *best) << "trial " << trial;
    EXPECT_EQ(exact_cost * 3, Rational(static_cast<long>(*best))) << "trial " << trial;
    for (int start = 1; start < n; ++start) {  // every node hangs from the root
      int u = start;
      for (int steps = 0; u > 0 && steps <= n; ++steps) u = parent[static_cast<size_t>(u)];
      EXPECT_EQ(u, 0) << "trial " << trial << " node " << start;
    }
  }
}

// The ForestColl-style search first, its trees completed by the generation.
TEST(MultiTree, SearchFirstAlsoReachesTheOptimum) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    auto platform = generate_random_platform({15, 0.25, 0.0, seed, {}});
    auto times = platform.edge_costs(1e6);
    auto optimum = solve_ssb(platform, 0, times);
    PackingOptions options;
    options.search_first = true;
    auto packing = pack_broadcast_trees(platform, 0, times, optimum, options);
    EXPECT_GT(packing.search_trees, 0);
    EXPECT_TRUE(packing.reaches_optimum) << fmt_seed("random", seed) << ": " << packing.shortfall;
    auto plan = multi_tree_schedule(platform, 0, times, optimum, packing);
    auto report = verify_periodic_plan(platform, plan, 1e6);
    EXPECT_TRUE(report.valid) << fmt_seed("random", seed) << ": " << report.summary();
    EXPECT_TRUE(plan.optimal());
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
