// Scale of the greedy planners: FNF broadcast, SNF reduce, all-reduce and the
// verifier, from a thousand to a million processors (5 classes of times).
// Run: build/release/bench/bench_greedy --benchmark_min_time=1
// The target: plan and verify one million processors in about a second.
#include <benchmark/benchmark.h>

#include <sstream>

#include "hetcoll/gen/cluster_generator.h"
#include "hetcoll/makespan/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/broadcast/fnf.h"
#include "hetcoll/makespan/reduce/snf.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/verify/verify.h"

namespace {

hetcoll::Cluster cluster_of(std::int64_t n) {
  hetcoll::ClusterGeneratorOptions options;
  options.processors = static_cast<int>(n);
  options.classes = 5;
  options.min_time = 1.0;
  options.max_time = 8.0;
  options.seed = 42;
  return hetcoll::generate_cluster(options);
}

void BM_FnfBroadcast(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::plan_broadcast_fnf(cluster, 0));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_SnfReduce(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::plan_reduce_snf(cluster, 0));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_AllReduce(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::plan_allreduce_snf_fnf(cluster, hetcoll::kNoProcessor));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_VerifyBroadcast(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  auto plan = hetcoll::plan_broadcast_fnf(cluster, 0);
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::verify(cluster, plan));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_VerifyReduce(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  auto plan = hetcoll::plan_reduce_snf(cluster, 0);
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::verify(cluster, plan));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_PlanAndVerifyFnf(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  for (auto _ : state) {
    auto plan = hetcoll::plan_broadcast_fnf(cluster, 0);
    benchmark::DoNotOptimize(hetcoll::verify(cluster, plan));
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_WritePlanJson(benchmark::State& state) {
  auto cluster = cluster_of(state.range(0));
  auto plan = hetcoll::plan_broadcast_fnf(cluster, 0);
  for (auto _ : state) {
    std::ostringstream out;
    hetcoll::write_plan_json(out, plan, cluster, {true, true});
    benchmark::DoNotOptimize(out.tellp());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

}  // namespace

#define HETCOLL_SIZES ->RangeMultiplier(10)->Range(1000, 1000000)->Unit(benchmark::kMillisecond)
BENCHMARK(BM_FnfBroadcast) HETCOLL_SIZES;
BENCHMARK(BM_SnfReduce) HETCOLL_SIZES;
BENCHMARK(BM_AllReduce) HETCOLL_SIZES;
BENCHMARK(BM_VerifyBroadcast) HETCOLL_SIZES;
BENCHMARK(BM_VerifyReduce) HETCOLL_SIZES;
BENCHMARK(BM_PlanAndVerifyFnf) HETCOLL_SIZES;
BENCHMARK(BM_WritePlanJson) HETCOLL_SIZES;
