#include "hetcoll/makespan/split/split_allgather.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"
#include "hetcoll/makespan/split/split_broadcast.h"
#include "hetcoll/model/split_costs.h"
#include "hetcoll/plan/split_program.h"

namespace hetcoll {

namespace {

// Phase 1: every rank's block to the hub, all posted at once.
CommProgram gather_at(int ranks, int hub, std::size_t count) {
  CommProgram program(ranks, "gather at the hub");
  std::vector<std::uint32_t> receives;
  for (int rank = 0; rank < ranks; ++rank) {
    if (rank == hub) continue;
    const Slice block{0, static_cast<std::size_t>(rank) * count, count};
    const auto send = program.add(rank, ProgramStep::send_of(hub, block));
    program.add(rank, ProgramStep::wait_for({send}));
    receives.push_back(program.add(hub, ProgramStep::receive_of(rank, block)));
  }
  if (!receives.empty()) program.add(hub, ProgramStep::wait_for(std::move(receives)));
  return program;
}

// Ranks by their mean seconds per byte to the others (fastest first).
std::vector<int> hubs_by_speed(const SplitCosts& costs) {
  const std::size_t k = costs.size();
  std::vector<double> mean(k, 0);
  for (std::size_t u = 0; u < k; ++u) {
    for (std::size_t v = 0; v < k; ++v) {
      if (u != v) mean[u] += costs.per_byte(u, v);
    }
  }
  std::vector<int> order(k);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return mean[static_cast<std::size_t>(a)] < mean[static_cast<std::size_t>(b)];
  });
  return order;
}

}  // namespace

SplitAllgather plan_split_allgather(const Platform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                                    const FlowNetwork& network, std::size_t count, std::size_t element_bytes,
                                    const SplitAllgatherOptions& options) {
  const auto ranks = static_cast<int>(processor_of_rank.size());
  if (ranks < 2) throw InputError("members", "the split all-gather needs at least 2 ranks");
  if (count == 0) throw InputError("count", "must be at least 1 element per rank");
  if (element_bytes == 0) throw InputError("element_bytes", "must be at least 1");
  const std::size_t elements = count * static_cast<std::size_t>(ranks);
  if (elements * element_bytes > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw InputError("count", fmt::format("{} ranks x {} elements of {} bytes exceed an MPI int of bytes", ranks,
                                          count, element_bytes));
  }
  const auto costs = SplitCosts::of(platform, processor_of_rank);
  const std::vector<int> hubs = hubs_by_speed(costs);
  SplitAllgather best;
  best.predicted_seconds = std::numeric_limits<double>::infinity();
  const std::size_t tried = std::min<std::size_t>(std::max<std::size_t>(options.hub_candidates, 1), hubs.size());
  for (std::size_t h = 0; h < tried; ++h) {
    const int hub = hubs[h];
    CommProgram gather = gather_at(ranks, hub, count);
    const auto gathered = sim::predict_program(gather, network, element_bytes, options.flow);
    if (!gathered.completed()) continue;
    const double hub_ready = gathered.rank_finish[static_cast<std::size_t>(hub)];
    const auto plan = plan_split_broadcast(costs, static_cast<std::size_t>(hub), elements,
                                           static_cast<double>(element_bytes), options.envelope_bytes);
    CommProgram spread = program_of_split_broadcast(plan);
    for (auto& steps : spread.steps) {
      for (auto& step : steps) {
        if (step.kind == ProgramStep::Kind::pace) step.seconds += hub_ready;
      }
    }
    CommProgram program = mpi_programs::run_in_sequence(std::move(gather), spread,
                                                        fmt::format("split all-gather through rank {}", hub));
    const auto timing = sim::predict_program(program, network, element_bytes, options.flow);
    if (timing.completed() && timing.makespan < best.predicted_seconds) {
      best.program = std::move(program);
      best.hub = hub;
      best.predicted_seconds = timing.makespan;
    }
  }
  if (!(best.predicted_seconds < std::numeric_limits<double>::infinity())) {
    throw InputError("members", "no hub's split all-gather completes in the flow model");
  }
  return best;
}

}  // namespace hetcoll
