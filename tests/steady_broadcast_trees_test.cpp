// Pipelined broadcast-tree heuristics (Beaumont, Marchal, Robert 2004,
// Algs. 1-7, ours): hand-made cases worked out by hand from the algorithms'
// text, every tree through verify/ on seeded random and Tiers platforms, the
// exact search against brute force, and the evaluation models.
#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

#include <gtest/gtest.h>

#include "hetcoll/core/error.h"
#include "hetcoll/gen/random_platform.h"
#include "hetcoll/model/shortest_paths.h"
#include "hetcoll/gen/tiers_platform.h"
#include "hetcoll/steady/broadcast/binomial_tree.h"
#include "hetcoll/steady/broadcast/local_improvement.h"
#include "hetcoll/steady/broadcast/optimal_tree_search.h"
#include "hetcoll/steady/broadcast/tree_heuristics.h"
#include "hetcoll/verify/verify_tree.h"

namespace hetcoll {
namespace {

struct Link {
  const char* from;
  const char* to;
  double cost;
};

Platform make_platform(std::vector<std::string> ids, const std::vector<Link>& links,
                       const std::vector<std::string>& routers = {}) {
  std::vector<PlatformNode> nodes;
  for (auto& id : ids) {
    bool router = std::find(routers.begin(), routers.end(), id) != routers.end();
    nodes.push_back({id, std::nullopt, std::nullopt, router});
  }
  auto index = [&](const char* id) {
    return static_cast<ProcessorIndex>(std::find(ids.begin(), ids.end(), id) - ids.begin());
  };
  std::vector<PlatformEdge> edges;
  for (const auto& link : links) edges.push_back({index(link.from), index(link.to), link.cost, std::nullopt, std::nullopt});
  return Platform(std::move(nodes), std::move(edges), "test");
}

TreeProblem problem_for(const Platform& platform, BroadcastModel model = BroadcastModel::one_port,
                        std::optional<double> slice = std::nullopt) {
  TreeProblem problem;
  problem.platform = &platform;
  problem.source = 0;
  problem.costs = make_tree_costs(platform, slice, model);
  return problem;
}

std::set<std::string> edge_names(const Platform& platform, const BroadcastTree& tree) {
  std::set<std::string> names;
  for (const auto& edge : tree.edges) names.insert(platform.id(edge.from) + ">" + platform.id(edge.to));
  return names;
}

double period(const TreeProblem& problem, const BroadcastTree& tree) {
  return evaluate_tree(problem.graph(), tree, problem.costs).period;
}

// S->A 1, S->B 1, S->C 1, A->B 1.5, A->C 1.5: simple pruning keeps the star
// (period 3), the degree-aware heuristics hang one node under A (period 2).
Platform star_or_chain() {
  return make_platform({"S", "A", "B", "C"},
                       {{"S", "A", 1}, {"S", "B", 1}, {"S", "C", 1}, {"A", "B", 1.5}, {"A", "C", 1.5}});
}

TEST(BroadcastTrees, SimplePruneDeletesHeaviestEdgesFirst) {
  auto platform = star_or_chain();
  auto problem = problem_for(platform);
  auto tree = find_tree_heuristic("simple-prune")->build(problem);
  EXPECT_EQ(edge_names(platform, tree), (std::set<std::string>{"S>A", "S>B", "S>C"}));
  EXPECT_DOUBLE_EQ(period(problem, tree), 3);
}

TEST(BroadcastTrees, RefinedPruneWorksOnTheMostLoadedNode) {
  // Loads S = 3, A = 3: S first (lower index); S->B goes (B via A), then A
  // (load 3) loses A->C (C via S); nothing else can go.
  auto platform = star_or_chain();
  auto problem = problem_for(platform);
  auto tree = find_tree_heuristic("refined-prune")->build(problem);
  EXPECT_EQ(edge_names(platform, tree), (std::set<std::string>{"S>A", "S>C", "A>B"}));
  EXPECT_DOUBLE_EQ(period(problem, tree), 2);
}

TEST(BroadcastTrees, GrowAddsTheEdgeGivingTheSmallestOutDegree) {
  // S->A (1); then A->B key 1.5 < S->B key 2; then S->C key 2 < A->C key 3.
  auto platform = star_or_chain();
  auto problem = problem_for(platform);
  auto tree = find_tree_heuristic("grow")->build(problem);
  EXPECT_EQ(edge_names(platform, tree), (std::set<std::string>{"S>A", "A>B", "S>C"}));
  EXPECT_DOUBLE_EQ(period(problem, tree), 2);
}

TEST(BroadcastTrees, SimplePruneOnePassMatchesTheHandTrace) {
  // Order A->B 4, S->C 3, S->B 2, B->C 2, S->A 1, A->C 1: A->B, S->C and B->C
  // go, the rest is needed.
  auto platform = make_platform({"S", "A", "B", "C"}, {{"S", "A", 1}, {"S", "B", 2}, {"S", "C", 3}, {"A", "B", 4},
                                                       {"A", "C", 1}, {"B", "C", 2}});
  auto problem = problem_for(platform);
  auto tree = find_tree_heuristic("simple-prune")->build(problem);
  EXPECT_EQ(edge_names(platform, tree), (std::set<std::string>{"S>A", "S>B", "A>C"}));
  EXPECT_DOUBLE_EQ(period(problem, tree), 3);
}

TEST(BroadcastTrees, BinomialRoutesAlongShortestPaths) {
  // A chain S - A - B - C - D (both ways, cost 1): ranks S0 A1 B2 C3 D4.
  // Binomial on 4: S->B, S->A, B->C; then D from rank 0 (S), routed S-A-B-C-D.
  std::vector<Link> links;
  const char* chain[] = {"S", "A", "B", "C", "D"};
  for (int i = 0; i < 4; ++i) {
    links.push_back({chain[i], chain[i + 1], 1});
    links.push_back({chain[i + 1], chain[i], 1});
  }
  auto platform = make_platform({"S", "A", "B", "C", "D"}, links);
  auto problem = problem_for(platform);
  auto tree = binomial_tree(problem);
  EXPECT_EQ(edge_names(platform, tree), (std::set<std::string>{"S>B", "S>A", "B>C", "S>D"}));
  // S sends over S->A for S->B (2 hops), S->A and S->D (4 hops): 3 uses.
  // A forwards S->B and S->D: out 2, in 3 (three slices cross S->A).
  EXPECT_DOUBLE_EQ(period(problem, tree), 3);
  auto report = verify_broadcast_tree(platform, tree, problem.costs, 3);
  EXPECT_TRUE(report.valid) << report.summary();
}

TEST(BroadcastTrees, LpHeuristicsFollowTheEdgeRates) {
  auto platform = star_or_chain();
  auto problem = problem_for(platform);
  // Rates favouring S->A, A->B, A->C: LP-Grow takes them; LP-Prune deletes
  // the low-rate S->B and S->C.
  problem.lp_edge_rates = {1.0, 0.1, 0.2, 0.9, 0.8};
  auto grown = find_tree_heuristic("lp-grow")->build(problem);
  EXPECT_EQ(edge_names(platform, grown), (std::set<std::string>{"S>A", "A>B", "A>C"}));
  auto pruned = find_tree_heuristic("lp-prune")->build(problem);
  EXPECT_EQ(edge_names(platform, pruned), (std::set<std::string>{"S>A", "A>B", "A>C"}));
  problem.lp_edge_rates.clear();
  EXPECT_THROW(find_tree_heuristic("lp-grow")->build(problem), InputError);
}

TEST(BroadcastTrees, MultiPortEvaluationAndGrowth) {
  // send overhead 0.5 everywhere: S's three sends cost max(3 x 0.5, 1) = 1.5.
  auto platform = star_or_chain();
  std::vector<PlatformNode> nodes = platform.nodes();
  for (auto& node : nodes) node.send_overhead = 0.5;
  Platform with_overhead(nodes, platform.edges(), "test");
  auto problem = problem_for(with_overhead, BroadcastModel::multi_port);
  auto star = find_tree_heuristic("simple-prune")->build(problem);
  EXPECT_DOUBLE_EQ(period(problem, star), 1.5);
  // Multi-port growth: S->A (max(0.5, 1) = 1), S->B (max(1, 1) = 1), then
  // S->C gives max(1.5, 1) = 1.5 and A->C gives max(0.5, 1.5) = 1.5: tie,
  // lower edge index S->C.
  auto grown = find_tree_heuristic("multiport-grow")->build(problem);
  EXPECT_EQ(edge_names(with_overhead, grown), (std::set<std::string>{"S>A", "S>B", "S>C"}));
  // Without send_overhead the rule is 0.8 x the fastest link.
  auto default_costs = make_tree_costs(platform, std::nullopt, BroadcastModel::multi_port);
  EXPECT_DOUBLE_EQ(default_costs.send_time[0], 0.8);
}

TEST(BroadcastTrees, RoutersNeedNotReceive) {
  // R is a router: the tree may pass through it but need not reach it.
  auto platform = make_platform({"S", "A", "R", "B"}, {{"S", "A", 1}, {"S", "R", 1}, {"R", "B", 1}, {"A", "B", 5},
                                                       {"S", "B", 4}}, {"R"});
  auto problem = problem_for(platform);
  for (const auto& heuristic : tree_heuristics()) {
    if (heuristic.needs_lp) continue;
    auto tree = heuristic.build(problem);
    auto report = verify_broadcast_tree(platform, tree, problem.costs, period(problem, tree));
    EXPECT_TRUE(report.valid) << heuristic.name << ": " << report.summary();
  }
}

TEST(BroadcastTrees, UnreachableParticipantIsNoSolution) {
  auto platform = make_platform({"S", "A", "B"}, {{"S", "A", 1}, {"B", "A", 1}});
  auto problem = problem_for(platform);
  EXPECT_THROW(find_tree_heuristic("grow")->build(problem), NoSolutionError);
  EXPECT_THROW(find_tree_heuristic("binomial")->build(problem), NoSolutionError);
}

TEST(BroadcastTrees, VerifierCatchesBrokenTrees) {
  auto platform = star_or_chain();
  auto problem = problem_for(platform);
  auto tree = find_tree_heuristic("grow")->build(problem);
  EXPECT_TRUE(verify_broadcast_tree(platform, tree, problem.costs, 2).valid);
  EXPECT_FALSE(verify_broadcast_tree(platform, tree, problem.costs, 1.9).valid);  // wrong claim
  auto missing = tree;
  missing.edges.pop_back();
  EXPECT_FALSE(verify_broadcast_tree(platform, missing, problem.costs, 0).valid);
  auto bad_route = tree;
  bad_route.edges[0].route = {3};  // A->B is not a path from S to A
  EXPECT_FALSE(verify_broadcast_tree(platform, bad_route, problem.costs, 0).valid);
  auto two_parents = tree;
  two_parents.edges.push_back({0, 2, {1}});  // S->B while B hangs off A
  EXPECT_FALSE(verify_broadcast_tree(platform, two_parents, problem.costs, 0).valid);
}

// Every arborescence of platform edges, by brute force over parent choices.
double brute_force_best_period(const TreeProblem& problem) {
  const auto& platform = problem.graph();
  const auto n = platform.size();
  std::vector<size_t> parent(static_cast<size_t>(n), kNoEdge);
  double best = std::numeric_limits<double>::infinity();
  std::function<void(ProcessorIndex)> assign = [&](ProcessorIndex v) {
    if (v == n) {
      // Acyclic: every node's chain reaches the source within n steps.
      for (ProcessorIndex w = 0; w < n; ++w) {
        ProcessorIndex at = w;
        for (int steps = 0; at != problem.source; ++steps) {
          if (steps > n) return;
          at = platform.edges()[parent[static_cast<size_t>(at)]].from;
        }
      }
      BroadcastTree tree;
      tree.source = problem.source;
      for (ProcessorIndex w = 0; w < n; ++w) {
        if (w != problem.source) {
          auto e = parent[static_cast<size_t>(w)];
          tree.edges.push_back({platform.edges()[e].from, w, {e}});
        }
      }
      best = std::min(best, period(problem, tree));
      return;
    }
    if (v == problem.source) return assign(v + 1);
    for (auto e : platform.in_edges(v)) {
      parent[static_cast<size_t>(v)] = e;
      assign(v + 1);
    }
  };
  assign(0);
  return best;
}

TEST(BroadcastTrees, OptimalSearchMatchesBruteForce) {
  for (std::uint64_t seed = 1; seed <= 25; ++seed) {
    for (auto model : {BroadcastModel::one_port, BroadcastModel::multi_port}) {
      auto platform = generate_random_platform({7, 0.5, 0.0, seed, {}});
      auto problem = problem_for(platform, model, 1e6);
      auto start = find_tree_heuristic("grow")->build(problem);
      auto result = optimal_tree_search(problem, start);
      ASSERT_TRUE(result.finished);
      EXPECT_NEAR(result.period, brute_force_best_period(problem), 1e-12) << "seed " << seed;
      EXPECT_NEAR(period(problem, result.tree), result.period, 1e-12);
      EXPECT_TRUE(verify_broadcast_tree(platform, result.tree, problem.costs, result.period).valid);
      auto improved = best_single_tree(problem);
      EXPECT_GE(period(problem, improved), result.period * (1 - 1e-12));
    }
  }
}

// The tree search takes the SearchLimits of every search (core/limits.h):
// a node limit N stops it after exactly N nodes with status node_limit and
// the best tree so far (a valid tree); an unlimited run finishes.
TEST(BroadcastTrees, OptimalSearchHonoursSearchLimitsExactly) {
  auto platform = generate_random_platform({9, 0.5, 0.0, 3, {}});
  auto problem = problem_for(platform, BroadcastModel::one_port, 1e6);
  auto start = find_tree_heuristic("grow")->build(problem);
  auto unlimited = optimal_tree_search(problem, start, SearchLimits{});
  ASSERT_TRUE(unlimited.finished);
  EXPECT_EQ(unlimited.status, SearchStatus::finished);
  ASSERT_GT(unlimited.nodes, 3u);
  for (std::uint64_t limit : {1u, 2u, 3u}) {
    SearchLimits limits;
    limits.node_limit = limit;
    auto stopped = optimal_tree_search(problem, start, limits);
    EXPECT_FALSE(stopped.finished);
    EXPECT_EQ(stopped.status, SearchStatus::node_limit);
    EXPECT_EQ(stopped.nodes, limit);
    EXPECT_GE(stopped.period, unlimited.period * (1 - 1e-12));
    EXPECT_TRUE(verify_broadcast_tree(platform, stopped.tree, problem.costs, stopped.period).valid);
  }
  SearchLimits zero_time;
  zero_time.time_limit_seconds = 0;
  EXPECT_THROW(optimal_tree_search(problem, start, zero_time), InputError);
}

TEST(BroadcastTrees, EveryHeuristicPassesVerifyOnGeneratedPlatforms) {
  std::vector<Platform> platforms;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    platforms.push_back(generate_random_platform({10 + 7 * static_cast<int>(seed), 0.04 * static_cast<double>(seed), 0.0, seed, {}}));
    auto tiers = tiers_preset(seed % 2 ? 30 : 65);
    tiers.seed = seed;
    platforms.push_back(generate_tiers_platform(tiers));
  }
  for (const auto& platform : platforms) {
    for (auto model : {BroadcastModel::one_port, BroadcastModel::multi_port}) {
      auto problem = problem_for(platform, model, 1e6);
      // Stand-in edge rates (the LP's come in the SSB tests): the inverse slice time.
      for (double t : problem.costs.edge_time) problem.lp_edge_rates.push_back(1 / t);
      double best_start = std::numeric_limits<double>::infinity();
      for (const auto& heuristic : tree_heuristics()) {
        auto tree = heuristic.build(problem);
        double p = period(problem, tree);
        auto report = verify_broadcast_tree(platform, tree, problem.costs, p);
        EXPECT_TRUE(report.valid) << heuristic.name << " on " << platform.size() << " nodes: " << report.summary();
        if (heuristic.name != "improve" && heuristic.name != "binomial" && heuristic.name != "simple-prune") {
          best_start = std::min(best_start, p);
        }
        if (heuristic.name == "improve") {
          EXPECT_LE(p, best_start * (1 + 1e-12));
        }
      }
    }
  }
}

}  // namespace
}  // namespace hetcoll
