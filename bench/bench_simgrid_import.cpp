// Import of SimGrid's example platforms (tests/data/simgrid) into platform
// graphs, and SimGrid's routes answered on them. Counters give each
// graph's size; docs/RESULTS.md records a run.
//
//   build/release/bench/bench_simgrid_import                      # every file
//   build/release/bench/bench_simgrid_import --benchmark_filter=g5k
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "hetcoll/model/platform_io.h"

namespace {

std::filesystem::path data_directory() {
  return std::filesystem::path(HETCOLL_SOURCE_DIR) / "tests" / "data" / "simgrid";
}

void count_nodes(benchmark::State& state, const hetcoll::Platform& platform) {
  double hosts = 0, routers = 0, links = 0;
  for (const auto& node : platform.nodes()) {
    if (node.kind == hetcoll::NodeKind::host) ++hosts;
    if (node.kind == hetcoll::NodeKind::router) ++routers;
    if (node.kind == hetcoll::NodeKind::link) ++links;
  }
  state.counters["hosts"] = hosts;
  state.counters["routers"] = routers;
  state.counters["links"] = links;
  state.counters["nodes"] = static_cast<double>(platform.size());
  state.counters["edges"] = static_cast<double>(platform.edges().size());
}

// Every ordered pair of hosts' declared route, once (the routing caches
// the routes to and from gateways on first use, as a planner would see).
void all_routes(benchmark::State& state, const std::string& path) {
  for (auto _ : state) {
    state.PauseTiming();
    hetcoll::Platform platform = hetcoll::load_platform_file(path).graph();
    auto hosts = platform.participants();
    state.ResumeTiming();
    std::size_t hops = 0;
    for (auto from : hosts) {
      for (auto to : hosts) {
        if (from == to) continue;
        if (auto route = platform.declared_route(from, to)) hops += route->size();
      }
    }
    benchmark::DoNotOptimize(hops);
    state.counters["routes"] = static_cast<double>(hosts.size() * (hosts.size() - 1));
  }
}

int register_benchmarks() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(data_directory())) {
    if (entry.path().extension() == ".xml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::string path = file.string();
    benchmark::RegisterBenchmark(("import/" + file.stem().string()).c_str(), [path](benchmark::State& state) {
      // The counters come from one import outside the timed loop.
      hetcoll::Platform platform = hetcoll::load_platform_file(path).graph();
      count_nodes(state, platform);
      for (auto _ : state) {
        platform = hetcoll::load_platform_file(path).graph();
        benchmark::DoNotOptimize(platform);
      }
    })->Unit(benchmark::kMillisecond);
  }
  for (const char* name : {"g5k", "cloud", "cluster_dragonfly", "small_platform"}) {
    std::string path = (data_directory() / (std::string(name) + ".xml")).string();
    benchmark::RegisterBenchmark((std::string("all_routes/") + name).c_str(),
                                 [path](benchmark::State& state) { all_routes(state, path); })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  }
  return 0;
}

const int registered = register_benchmarks();

}  // namespace
