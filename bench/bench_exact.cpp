// The exact and approximation planners on the seeds' experiment sizes:
// optimal broadcast and reduce searches (3 classes, P = 21 — the last row of
// Table 1 in seeds 000 and 004), the generic branch-and-bound they are
// compared with, the two-class reduce DP table, and the broadcast PTAS.
// Run: build/release/bench/bench_exact
// The side-by-side tables (50 clusters per size) are `hetcoll experiment
// bcast-search | reduce-search | dp-references | ptas-quality`.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "hetcoll/gen/cluster_generator.h"
#include "hetcoll/makespan/sender_speed/broadcast/generic_search.h"
#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"
#include "hetcoll/makespan/sender_speed/broadcast/ptas.h"
#include "hetcoll/makespan/sender_speed/reduce/dp_k_class.h"
#include "hetcoll/makespan/sender_speed/reduce/dp_two_class.h"
#include "hetcoll/makespan/sender_speed/reduce/optimal_search.h"

namespace {

hetcoll::Cluster three_class_cluster(int processors, std::uint64_t seed) {
  hetcoll::ClusterGeneratorOptions options;
  options.processors = processors;
  options.class_times = {1.0, 1.5, 2.25};
  options.seed = seed;
  return hetcoll::generate_cluster(options);
}

void BM_OptimalBroadcast(benchmark::State& state) {
  auto cluster = three_class_cluster(static_cast<int>(state.range(0)), 7);
  const auto source = cluster.fastest_processor();
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::plan_broadcast_optimal(cluster, source));
}

void BM_GenericBroadcastSearch(benchmark::State& state) {
  auto cluster = three_class_cluster(static_cast<int>(state.range(0)), 7);
  const auto source = cluster.fastest_processor();
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::plan_broadcast_generic_bnb(cluster, source, {}));
}

void BM_OptimalReduce(benchmark::State& state) {
  auto cluster = three_class_cluster(static_cast<int>(state.range(0)), 7);
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::plan_reduce_optimal(cluster, 0));
}

// All-distinct times (uniform in [1, 4), fixed seed) under a node budget:
// the work per search node of issue 13's hard case, deterministic. The
// counters report nodes per second and the bound reached (gap in %).
hetcoll::Cluster distinct_cluster(int processors, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(1.0, 4.0);
  std::vector<double> times(static_cast<size_t>(processors));
  for (auto& t : times) t = uniform(rng);
  return hetcoll::Cluster::from_times(times);
}

void report_search(benchmark::State& state, const hetcoll::MakespanPlan& plan) {
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(plan.stats.nodes) * static_cast<double>(state.iterations()),
                                                 benchmark::Counter::kIsRate);
  state.counters["nodes"] = static_cast<double>(plan.stats.nodes);
  state.counters["gap_%"] = plan.lower_bound > 0 ? 100.0 * (plan.makespan / plan.lower_bound - 1) : -1;
}

// One exact search on all-distinct times (seed 11) with a node budget, so
// every run explores the same nodes.
template <class Search>
void run_distinct_search(benchmark::State& state, Search search) {
  const auto cluster = distinct_cluster(static_cast<int>(state.range(0)), 11);
  hetcoll::SearchLimits limits;
  limits.node_limit = static_cast<std::uint64_t>(state.range(1));
  hetcoll::MakespanPlan plan;
  for (auto _ : state) plan = search(cluster, 0, limits);
  report_search(state, plan);
}

void BM_OptimalBroadcastDistinct(benchmark::State& state) {
  run_distinct_search(state, [](const auto& cluster, auto source, const auto& limits) {
    return hetcoll::plan_broadcast_optimal(cluster, source, limits);
  });
}

void BM_OptimalReduceDistinct(benchmark::State& state) {
  run_distinct_search(state, [](const auto& cluster, auto destination, const auto& limits) {
    return hetcoll::plan_reduce_optimal(cluster, destination, limits);
  });
}

void BM_TwoClassTable(benchmark::State& state) {
  const int size = static_cast<int>(state.range(0));
  for (auto _ : state) {
    hetcoll::TwoClassCapacity table(1.0, 1.5, size, size);
    benchmark::DoNotOptimize(table.value(size, size));
  }
}

// Calibration of the DPs' time predictions (kSecondsPerPair and
// kSecondsPerLatticePoint in dp_two_class.cpp, kSecondsPerSplit in
// dp_k_class.cpp): the counters report measured seconds per predicted step.
void BM_TwoClassCapacityCalibration(benchmark::State& state) {
  const int fast = static_cast<int>(state.range(0));
  const double ratio = static_cast<double>(state.range(1)) / 10.0;
  const auto work = hetcoll::TwoClassCapacity::estimate(1.0, ratio, fast, 4 * fast);
  for (auto _ : state) {
    hetcoll::TwoClassCapacity table(1.0, ratio, fast, 4 * fast);
    benchmark::DoNotOptimize(table.value(fast, 4 * fast));
  }
  state.counters["predicted_s"] = work.seconds;
  state.counters["lattice"] = work.table_entries;
}

void BM_KClassDpCalibration(benchmark::State& state) {
  const int count = static_cast<int>(state.range(0));
  const std::vector<int> counts{count, count, count};
  const auto work = hetcoll::KClassDp::estimate(counts);
  for (auto _ : state) {
    hetcoll::KClassDp dp({1.0, 1.3, 1.7}, counts);
    benchmark::DoNotOptimize(dp.optimum());
  }
  state.counters["predicted_s"] = work.seconds;
}

void BM_BroadcastPtas(benchmark::State& state) {
  auto cluster = three_class_cluster(20, 7);
  hetcoll::PtasParameters parameters;
  parameters.eps = static_cast<double>(state.range(0)) / 100.0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(hetcoll::plan_broadcast_ptas(cluster, cluster.fastest_processor(), parameters));
  }
}

}  // namespace

BENCHMARK(BM_OptimalBroadcast)->Arg(21)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GenericBroadcastSearch)->Arg(14)->Arg(21)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_OptimalReduce)->Arg(21)->Arg(60)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_OptimalBroadcastDistinct)->Args({30, 100000})->Args({40, 100000})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OptimalReduceDistinct)->Args({25, 200000})->Args({40, 200000})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TwoClassTable)->Arg(150)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TwoClassCapacityCalibration)->Args({100, 15})->Args({300, 15})->Args({30, 1000})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KClassDpCalibration)->Arg(15)->Arg(30)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BroadcastPtas)->Arg(100)->Arg(50)->Arg(30)->Unit(benchmark::kMillisecond);
