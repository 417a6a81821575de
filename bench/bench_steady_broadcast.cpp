// Pipelined broadcast on 65-node Tiers platforms (Beaumont, Marchal, Robert
// 2004 sec. 5.1): the SSB linear program (target < 0.5 s), every tree
// heuristic (target < 50 ms each) and the multi-tree packing. Needs the
// steady-state layer (HETCOLL_WITH_LP); an empty program otherwise.
#include <benchmark/benchmark.h>

#ifdef HETCOLL_WITH_LP
#include "hetcoll/gen/tiers_platform.h"
#include "hetcoll/steady/broadcast/multi_tree.h"
#include "hetcoll/steady/broadcast/ssb_lp.h"
#include "hetcoll/steady/broadcast/tree_heuristics.h"

namespace hetcoll {
namespace {

Platform tiers65(std::uint64_t seed) {
  auto options = tiers_preset(65);
  options.seed = seed;
  return generate_tiers_platform(options);
}

// Platforms cycle over 8 seeds so one lucky instance does not decide.
void BM_SsbLp(benchmark::State& state) {
  std::vector<Platform> platforms;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) platforms.push_back(tiers65(seed));
  size_t i = 0;
  for (auto _ : state) {
    const auto& platform = platforms[i++ % platforms.size()];
    benchmark::DoNotOptimize(solve_ssb(platform, 0, platform.edge_costs(1e6)));
  }
}
BENCHMARK(BM_SsbLp)->Unit(benchmark::kMillisecond);

void BM_TreeHeuristic(benchmark::State& state) {
  const auto& heuristic = tree_heuristics()[static_cast<size_t>(state.range(0))];
  state.SetLabel(heuristic.name);
  auto platform = tiers65(1);
  TreeProblem problem;
  problem.platform = &platform;
  problem.source = 0;
  problem.costs = make_tree_costs(platform, 1e6, BroadcastModel::one_port);
  problem.lp_edge_rates = solve_ssb(platform, 0, problem.costs.edge_time).edge_rate_values();
  for (auto _ : state) benchmark::DoNotOptimize(heuristic.build(problem));
}
BENCHMARK(BM_TreeHeuristic)->DenseRange(0, 8)->Unit(benchmark::kMillisecond);

void BM_MultiTreePacking(benchmark::State& state) {
  auto platform = tiers65(1);
  auto times = platform.edge_costs(1e6);
  auto optimum = solve_ssb(platform, 0, times);
  for (auto _ : state) benchmark::DoNotOptimize(pack_broadcast_trees(platform, 0, times, optimum));
}
BENCHMARK(BM_MultiTreePacking)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hetcoll
#endif
