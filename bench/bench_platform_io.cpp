// Reading cluster platform files: the fast reader that load_platform_file
// uses (simdjson on-demand, model/cluster_json_reader_internal.h) against the
// reference reader (an nlohmann document, parse_platform_json), from 10^4 to
// 10^6 processors (5 classes of times, the file `hetcoll generate cluster`
// writes). Run: build/release/bench/bench_platform_io
// The target: `hetcoll broadcast --platform` on 10^6 processors,
// reading included, under 1 s and 200 MB.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "hetcoll/gen/cluster_generator.h"
#include "hetcoll/model/platform_io.h"

namespace {

// Writes the cluster file once per size and returns its path.
std::string cluster_file(std::int64_t n) {
  auto path = std::filesystem::temp_directory_path() / ("hetcoll_bench_cluster_" + std::to_string(n) + ".json");
  if (!std::filesystem::exists(path)) {
    hetcoll::ClusterGeneratorOptions options;
    options.processors = static_cast<int>(n);
    options.classes = 5;
    options.seed = 42;
    std::ofstream out(path);
    hetcoll::write_cluster_json(out, hetcoll::generate_cluster(options));
  }
  return path.string();
}

void BM_LoadClusterFile(benchmark::State& state) {
  std::string path = cluster_file(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::load_platform_file(path));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(std::filesystem::file_size(path)));
}

void BM_ParseClusterReference(benchmark::State& state) {
  std::string path = cluster_file(state.range(0));
  std::string text = hetcoll::read_text_file(path);
  for (auto _ : state) benchmark::DoNotOptimize(hetcoll::parse_platform_json(text, path));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}

#define HETCOLL_SIZES ->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)
BENCHMARK(BM_LoadClusterFile) HETCOLL_SIZES;
BENCHMARK(BM_ParseClusterReference) HETCOLL_SIZES;

}  // namespace
