#include "hetcoll/mpi/calibrate.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/mpi/executable_plan.h"

namespace hetcoll::mpi {

namespace {

constexpr int kDataTag = 21;
constexpr int kAnswerTag = 22;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  auto n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::vector<std::string> unique_names(const std::vector<std::string>& names) {
  std::map<std::string, int> uses;
  for (const auto& name : names) ++uses[name];
  std::vector<std::string> result;
  for (size_t rank = 0; rank < names.size(); ++rank) {
    result.push_back(uses[names[rank]] > 1 || names[rank].empty() ? fmt::format("{}-{}", names[rank], rank) : names[rank]);
  }
  return result;
}

}  // namespace

std::vector<std::vector<std::pair<int, int>>> calibration_rounds(int rank_count) {
  std::vector<std::vector<std::pair<int, int>>> rounds;
  if (rank_count < 2) return rounds;
  // Circle method on an even number of seats; seat `rank_count` (if odd) is a bye.
  int seats = rank_count % 2 ? rank_count + 1 : rank_count;
  for (int round = 0; round < seats - 1; ++round) {
    std::vector<std::pair<int, int>> pairs;
    auto add = [&](int a, int b) {
      if (a >= rank_count || b >= rank_count) return;
      pairs.emplace_back(std::min(a, b), std::max(a, b));
    };
    add(round, seats - 1);
    for (int k = 1; k < seats / 2; ++k) {
      add((round + k) % (seats - 1), (round - k + seats - 1) % (seats - 1));
    }
    rounds.push_back(std::move(pairs));
  }
  return rounds;
}

std::vector<std::string> fit_affine_times(const std::vector<double>& sizes,
                                          const std::vector<std::vector<std::vector<double>>>& round_trip,
                                          const std::vector<std::string>& names,
                                          std::vector<std::vector<double>>& latency,
                                          std::vector<std::vector<double>>& inverse_bandwidth) {
  std::vector<std::string> warnings;
  auto n = names.size();
  latency.assign(n, std::vector<double>(n, 0.0));
  inverse_bandwidth.assign(n, std::vector<double>(n, 0.0));
  std::vector<std::vector<double>> round_trip_latency(n, std::vector<double>(n, 0.0));
  double s1 = sizes[0], s2 = sizes[1];
  for (size_t u = 0; u < n; ++u) {
    for (size_t v = 0; v < n; ++v) {
      if (u == v) continue;
      double slope = (round_trip[1][u][v] - round_trip[0][u][v]) / (s2 - s1);
      if (!(slope > 0)) {
        warnings.push_back(fmt::format("{} -> {}: {} bytes took no longer than {} ({:g} s vs {:g} s): bandwidth "
                                       "set from the larger size alone",
                                       names[u], names[v], s2, s1, round_trip[1][u][v], round_trip[0][u][v]));
        slope = round_trip[1][u][v] > 0 ? round_trip[1][u][v] / s2 : 1e-15;
      }
      inverse_bandwidth[u][v] = slope;
      round_trip_latency[u][v] = round_trip[0][u][v] - s1 * slope;
    }
  }
  for (size_t u = 0; u < n; ++u) {
    for (size_t v = u + 1; v < n; ++v) {
      double one_way = (round_trip_latency[u][v] + round_trip_latency[v][u]) / 4;
      if (one_way < 0) {
        warnings.push_back(fmt::format("{} <-> {}: negative latency fitted ({:g} s): set to 0", names[u], names[v], one_way));
        one_way = 0;
      }
      latency[u][v] = latency[v][u] = one_way;
    }
  }
  return warnings;
}

Platform CalibrationResult::graph() const {
  std::vector<PlatformNode> nodes;
  for (const auto& name : names) {
    PlatformNode node;
    node.id = name;
    nodes.push_back(node);
  }
  std::vector<PlatformEdge> edges;
  for (size_t u = 0; u < names.size(); ++u) {
    for (size_t v = 0; v < names.size(); ++v) {
      if (u == v) continue;
      PlatformEdge edge;
      edge.from = static_cast<ProcessorIndex>(u);
      edge.to = static_cast<ProcessorIndex>(v);
      edge.latency = latency[u][v];
      edge.bandwidth = bandwidth[u][v];
      edges.push_back(edge);
    }
  }
  return Platform(std::move(nodes), std::move(edges), "calibration");
}

Cluster CalibrationResult::cluster(double message_bytes) const {
  return cluster_from_platform(graph(), message_bytes, "calibration");
}

CalibrationResult calibrate(MPI_Comm user_comm, const CalibrationOptions& options) {
  int size = 0, rank = 0;
  MPI_Comm_size(user_comm, &size);
  MPI_Comm_rank(user_comm, &rank);
  if (size < 2) throw InputError("calibrate: needs at least 2 ranks (run it under mpirun -np N or smpirun -np N)");
  if (options.sizes.size() != 2 || !(options.sizes[0] >= 0) || !(options.sizes[1] > options.sizes[0]) ||
      options.sizes[1] > 1 << 30) {
    throw InputError("calibrate: sizes: give two message sizes in bytes, S1 < S2 <= 1 GiB (e.g. 1024,1048576)");
  }
  if (options.repetitions < 1 || options.repetitions > 100000) {
    throw InputError("calibrate: repetitions: must be between 1 and 100000");
  }
  PrivateCommunicator communicator(user_comm);
  MPI_Comm comm = communicator.get();

  CalibrationResult result;
  result.sizes = options.sizes;
  result.names = unique_names(gather_processor_names(comm));
  auto rounds = calibration_rounds(size);
  if (options.one_pair_at_a_time) {
    std::vector<std::vector<std::pair<int, int>>> single;
    for (const auto& round : rounds) {
      for (const auto& pair : round) single.push_back({pair});
    }
    rounds = std::move(single);
  }
  result.rounds = static_cast<int>(rounds.size());

  std::vector<char> buffer(static_cast<size_t>(options.sizes[1]));
  char answer = 0;
  // (size index, from, to, median) for the transfers this rank sent.
  std::vector<double> mine;
  std::size_t pairs_done = 0, pair_count = static_cast<std::size_t>(size) * static_cast<std::size_t>(size - 1) / 2;
  MPI_Barrier(comm);
  double start = MPI_Wtime(), last_report = start;
  for (size_t round = 0; round < rounds.size(); ++round) {
    for (auto [u, v] : rounds[round]) {
      if (rank != u && rank != v) continue;
      for (size_t s = 0; s < options.sizes.size(); ++s) {
        int bytes = static_cast<int>(options.sizes[s]);
        for (auto [sender, receiver] : {std::pair{u, v}, std::pair{v, u}}) {
          std::vector<double> times;
          for (int repetition = 0; repetition <= options.repetitions; ++repetition) {
            if (rank == sender) {
              double t0 = MPI_Wtime();
              MPI_Send(buffer.data(), bytes, MPI_BYTE, receiver, kDataTag, comm);
              MPI_Recv(&answer, 0, MPI_BYTE, receiver, kAnswerTag, comm, MPI_STATUS_IGNORE);
              if (repetition > 0) times.push_back(MPI_Wtime() - t0);  // the first is a warm-up
            } else {
              MPI_Recv(buffer.data(), bytes, MPI_BYTE, sender, kDataTag, comm, MPI_STATUS_IGNORE);
              MPI_Send(&answer, 0, MPI_BYTE, sender, kAnswerTag, comm);
            }
          }
          if (rank == sender) {
            mine.insert(mine.end(), {static_cast<double>(s), static_cast<double>(sender),
                                     static_cast<double>(receiver), median(times)});
          }
        }
      }
    }
    MPI_Barrier(comm);
    pairs_done += rounds[round].size();
    double now = MPI_Wtime();
    if (rank == 0 && options.progress && (now - last_report >= 1 || round + 1 == rounds.size())) {
      last_report = now;
      options.progress(fmt::format("calibrate: round {} of {} done ({} of {} pairs, {} sizes x {} round trips each "
                                   "way), {:.2f} s",
                                   round + 1, rounds.size(), pairs_done, pair_count, options.sizes.size(),
                                   options.repetitions, MPI_Wtime() - start));
    }
  }
  result.seconds = MPI_Wtime() - start;

  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<size_t>(size)), offsets(static_cast<size_t>(size), 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<double> all;
  if (rank == 0) {
    for (int r = 1; r < size; ++r) offsets[static_cast<size_t>(r)] = offsets[static_cast<size_t>(r - 1)] + counts[static_cast<size_t>(r - 1)];
    all.resize(static_cast<size_t>(offsets.back() + counts.back()));
  }
  MPI_Gatherv(mine.data(), count, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE, 0, comm);
  if (rank == 0) {
    auto n = static_cast<size_t>(size);
    result.round_trip.assign(options.sizes.size(), std::vector<std::vector<double>>(n, std::vector<double>(n, 0.0)));
    for (size_t i = 0; i + 3 < all.size(); i += 4) {
      result.round_trip[static_cast<size_t>(all[i])][static_cast<size_t>(all[i + 1])][static_cast<size_t>(all[i + 2])] =
          all[i + 3];
    }
    std::vector<std::vector<double>> inverse_bandwidth;
    result.warnings = fit_affine_times(result.sizes, result.round_trip, result.names, result.latency, inverse_bandwidth);
    result.bandwidth = inverse_bandwidth;
    for (auto& row : result.bandwidth) {
      for (auto& value : row) value = value > 0 ? 1 / value : 0;
    }
  }
  return result;
}

}  // namespace hetcoll::mpi
