// Scale of planning on platform graphs: the default planner (hierarchical on
// large grids), the graph verifier and the simulator on two-level grids of
// sites (gen/grid_generator.h, sites of 4 to 64 hosts, WAN 30x LAN), from a
// thousand to ten thousand hosts, and the exact search on 10 hosts.
// Run: build/release/bench/bench_graph --benchmark_min_time=1
// The target: plan and verify a 10,000-host two-level grid in under a second.
#include <benchmark/benchmark.h>

#include "hetcoll/gen/grid_generator.h"
#include "hetcoll/registry/graph_registry.h"
#include "hetcoll/sim/makespan_simulation.h"
#include "hetcoll/verify/verify.h"

namespace {

hetcoll::Platform grid_of(std::int64_t hosts) {
  hetcoll::GridGeneratorOptions options;
  options.levels = 2;
  options.total_hosts = static_cast<int>(hosts);
  options.wan_ratio = 30;
  options.seed = 42;
  return hetcoll::generate_grid(options);
}

hetcoll::MakespanRequest broadcast() {
  hetcoll::MakespanRequest request;
  request.operation = hetcoll::Operation::broadcast;
  return request;
}

void BM_GraphPlan(benchmark::State& state) {
  const auto platform = grid_of(state.range(0));
  const hetcoll::GraphNetwork network(platform, std::nullopt);
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::plan_graph_makespan(network, broadcast()));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_GraphPlanAndVerify(benchmark::State& state) {
  const auto platform = grid_of(state.range(0));
  const hetcoll::GraphNetwork network(platform, std::nullopt);
  for (auto _ : state) {
    auto plan = hetcoll::plan_graph_makespan(network, broadcast());
    if (!hetcoll::verify(network, plan).valid) state.SkipWithError("invalid plan");
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_GraphSimulate(benchmark::State& state) {
  const auto platform = grid_of(state.range(0));
  const hetcoll::GraphNetwork network(platform, std::nullopt);
  const auto plan = hetcoll::plan_graph_makespan(network, broadcast());
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::simulate(network, plan));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_GraphExact10(benchmark::State& state) {
  hetcoll::GridGeneratorOptions options;
  options.levels = 2, options.sites = 2, options.min_hosts = 5, options.max_hosts = 5;
  options.wan_ratio = static_cast<double>(state.range(0));
  options.seed = 7;
  const auto platform = hetcoll::generate_grid(options);
  const hetcoll::GraphNetwork network(platform, std::nullopt);
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::plan_graph_makespan(network, broadcast(), "optimal"));
}

}  // namespace

BENCHMARK(BM_GraphPlan)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GraphPlanAndVerify)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GraphSimulate)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GraphExact10)->Arg(10)->Arg(100)->Unit(benchmark::kMillisecond);
