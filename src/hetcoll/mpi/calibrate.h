// Calibration: measure a running MPI job's ranks into a platform description
// (`hetcoll calibrate`, under mpirun or smpirun).
//
// What is measured. For every ordered pair (u, v) and each of two message
// sizes S1 < S2: u sends S bytes to v, v answers with an empty message, and
// u times the round trip; the median of `repetitions` such round trips
// (after one unmeasured warm-up) is m_uv(S). With affine transfer times
// t_uv(S) = L_uv + S / B_uv and latencies the same both ways (L_uv = L_vu),
// m_uv(S) = 2 L + S / B_uv, so
//     1 / B_uv = (m_uv(S2) - m_uv(S1)) / (S2 - S1)     (the empty answer cancels)
//     L_uv = L_vu = ((m_uv(S1) - S1 / B_uv) + (m_vu(S1) - S1 / B_vu)) / 4.
// Bandwidths are per direction; a latency is the average of both directions
// (a round trip cannot tell them apart without synchronised clocks).
// Measurements below noise (m(S2) <= m(S1), a negative latency) are clamped
// with a warning.
//
// Schedule: the pairs are played in rounds (the circle method of
// round-robin tournaments): in each round every rank works with at most one
// partner, so n ranks need n - 1 rounds (n even) or n (n odd) instead of
// n(n-1)/2 one after the other, and a rank's measurements never overlap.
// A barrier separates rounds. Time: O(n · sizes · repetitions) round trips
// per rank; memory O(n) per rank, O(n^2) on rank 0 (the results).
// Pairs of a round share nothing only if every route is private to its two
// hosts. Where routes share a link (two sites joined by one WAN link), the
// round's pairs that cross it share its bandwidth and each measures a
// fraction of it: `one_pair_at_a_time` then plays every pair in a round of
// its own (n(n-1)/2 rounds).
//
// What is written (from the result, on rank 0): the platform graph (one
// edge per ordered pair, latency and bandwidth), the sender-speed cluster
// for a message size (t(p) = p's slowest route, cluster_from_platform), and
// the same graph as a SimGrid platform (model/simgrid/simgrid_xml_writer.h).
// Host names come from MPI_Get_processor_name; a name several ranks share
// gets "-<rank>" appended.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>

#include "hetcoll/model/cluster.h"
#include "hetcoll/model/platform.h"

namespace hetcoll::mpi {

struct CalibrationOptions {
  std::vector<double> sizes{1024, 1048576};  // bytes: exactly two, increasing
  int repetitions = 5;                       // measured round trips per pair, size and direction
  bool one_pair_at_a_time = false;           // a round per pair: for networks whose routes share links
  // Rank 0 is told how far it got ("round 3 of 7 ..."), at most once a
  // second and after the last round.
  std::function<void(std::string_view)> progress;
};

struct CalibrationResult {
  std::vector<std::string> names;  // one per rank
  std::vector<double> sizes;
  // round_trip[s][u][v]: median round trip of sizes[s] bytes u -> v and an
  // empty answer (seconds); 0 on the diagonal.
  std::vector<std::vector<std::vector<double>>> round_trip;
  // Fitted (see above): latency[u][v] (s), bandwidth[u][v] (bytes/s).
  std::vector<std::vector<double>> latency, bandwidth;
  std::vector<std::string> warnings;
  int rounds = 0;
  double seconds = 0;  // wall-clock (simulated under SMPI) time of the measurement

  // The graph: one host per rank, one edge per ordered pair.
  Platform graph() const;
  // Its sender-speed view for a message of `message_bytes`.
  Cluster cluster(double message_bytes) const;
};

// The rounds of the circle method: each unordered pair {u, v} of 0..n-1
// exactly once (as u < v), each rank at most once per round.
std::vector<std::vector<std::pair<int, int>>> calibration_rounds(int rank_count);

// Fits latencies and bandwidths from round trips (exposed for tests):
// fills `latency` and `inverse_bandwidth` ([u][v]) and returns warnings.
std::vector<std::string> fit_affine_times(const std::vector<double>& sizes,
                                          const std::vector<std::vector<std::vector<double>>>& round_trip,
                                          const std::vector<std::string>& names,
                                          std::vector<std::vector<double>>& latency,
                                          std::vector<std::vector<double>>& inverse_bandwidth);

// Collective over `comm` (at least 2 ranks). The result is complete on rank
// 0; other ranks get names, sizes and timing only. Throws InputError (on
// every rank) for bad options.
CalibrationResult calibrate(MPI_Comm comm, const CalibrationOptions& options);

}  // namespace hetcoll::mpi
