#include "hetcoll/verify/verify_split_allreduce_nic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include <fmt/format.h>

namespace hetcoll {

namespace {

constexpr double kNicInfinity = std::numeric_limits<double>::infinity();

double tolerance(double a, double b) { return 1e-9 * std::max(std::abs(a), std::abs(b)) + 1e-15; }
bool nic_later_or_equal(double a, double b) { return a >= b - tolerance(a, b); }
bool same(double a, double b) { return std::abs(a - b) <= tolerance(a, b); }

// The least T with sum_u rate_u max(0, T - start_u) >= volume (bisection:
// independent of the planner's closed form).
double least_time(const std::vector<double>& rate, const std::vector<double>& start, double volume) {
  auto carried = [&](double t) {
    double sum = 0;
    for (std::size_t u = 0; u < rate.size(); ++u) sum += rate[u] * std::max(0.0, t - start[u]);
    return sum;
  };
  double lo = 0, hi = 1;
  while (carried(hi) < volume) hi *= 2;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (carried(mid) >= volume ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace

VerifyReport verify_split_allreduce_nic(const NicNetwork& network, const SplitAllreducePlan& plan) {
  VerifyReport report;
  const std::size_t n = network.size();
  if (network.up_bandwidth.size() != n || network.down_bandwidth.size() != n) {
    report.add_violation("network: latency, up_bandwidth and down_bandwidth differ in length");
    return report;
  }
  if (plan.model != SplitAllreducePlan::Model::nic_fluid) report.add_violation("model: not the NIC fluid model");
  if (plan.members.size() != n) {
    report.add_violation(fmt::format("members: {} members, the network has {} processors", plan.members.size(), n));
    return report;
  }
  auto sorted_members = plan.members;
  std::sort(sorted_members.begin(), sorted_members.end());
  if (std::adjacent_find(sorted_members.begin(), sorted_members.end()) != sorted_members.end()) {
    report.add_violation("members: a processor twice");
    return report;
  }
  if (plan.chunks == 0) {
    report.add_violation("chunks: must be at least 1");
    return report;
  }
  if (!(plan.element_bytes > 0)) report.add_violation("element_bytes must be > 0");
  // Pieces: distinct aggregators, non-empty, covering [0, elements) once.
  const std::size_t pieces = plan.pieces.size(), chunks = plan.chunks;
  std::vector<char> aggregates(n, 0);
  std::vector<std::size_t> order(pieces);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return plan.pieces[a].first < plan.pieces[b].first; });
  std::size_t covered = 0;
  for (auto j : order) {
    const auto& piece = plan.pieces[j];
    if (piece.spreader >= n || aggregates[piece.spreader]++) {
      report.add_violation(fmt::format("piece {}: aggregator {} is out of range or aggregates another piece", j, piece.spreader));
      return report;
    }
    if (piece.elements == 0) report.add_violation(fmt::format("piece {} is empty", j));
    if (piece.first != covered) {
      report.add_violation(fmt::format("piece {} starts at element {}, not {} (a gap or an overlap)", j, piece.first, covered));
    }
    covered = piece.first + piece.elements;
  }
  if (covered != plan.elements) {
    report.add_violation(fmt::format("the pieces cover {} elements, not {}", covered, plan.elements));
  }
  if (!report.valid) return report;
  auto count_of = [&](std::size_t piece, std::size_t chunk) {
    return split_chunk_range(plan.pieces[piece].elements, chunks, chunk).second;
  };
  // Messages: shape, completeness, order, and the per-message time.
  std::vector<char> contributed(pieces * chunks * n, 0), received(pieces * chunks * n, 0);
  std::vector<double> last_contribution(pieces * chunks, 0.0), last_start(n, -kNicInfinity);
  std::vector<double> first_start(n, kNicInfinity), last_arrival(n, 0.0), bytes_sent(n, 0.0);
  std::vector<double> first_start_to(n, kNicInfinity), last_arrival_at(n, 0.0), bytes_received(n, 0.0),
      least_latency_to(n, kNicInfinity);
  double last_result = 0;
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const auto& t = plan.transfers[i];
    const auto where = fmt::format("transfers[{}]", i);
    if (t.piece >= pieces || t.chunk >= chunks || t.from >= n || t.to >= n || t.from == t.to) {
      report.add_violation(fmt::format("{}: piece {}, chunk {}, from {} to {}: out of range or to itself", where, t.piece,
                                       t.chunk, t.from, t.to));
      continue;
    }
    if (count_of(t.piece, t.chunk) == 0) {
      report.add_violation(fmt::format("{}: chunk {} of piece {} is empty", where, t.chunk, t.piece));
      continue;
    }
    if (!(t.start >= 0) || !std::isfinite(t.start) || !std::isfinite(t.end)) {
      report.add_violation(fmt::format("{}: times {} .. {}", where, t.start, t.end));
      continue;
    }
    const auto aggregator = plan.pieces[t.piece].spreader;
    const auto slot = t.piece * chunks + t.chunk;
    if (t.contribution) {
      if (t.to != aggregator) {
        report.add_violation(fmt::format("{}: a contribution to piece {} goes to {}, not its aggregator {}", where,
                                         t.piece, t.to, aggregator));
      } else if (contributed[slot * n + t.from]++) {
        report.add_violation(fmt::format("{}: member {} contributes chunk {} of piece {} twice", where, t.from, t.chunk, t.piece));
      }
      last_contribution[slot] = std::max(last_contribution[slot], t.end);
    } else {
      if (t.from != aggregator) {
        report.add_violation(fmt::format("{}: member {} sends the result of piece {}, which it does not aggregate",
                                         where, t.from, t.piece));
      } else if (received[slot * n + t.to]++) {
        report.add_violation(fmt::format("{}: member {} receives the result of chunk {} of piece {} twice", where, t.to,
                                         t.chunk, t.piece));
      }
      last_result = std::max(last_result, t.end);
    }
    if (t.start < last_start[t.from]) {
      report.add_violation(fmt::format("{}: member {}'s messages are not listed in the order of their starts", where, t.from));
    }
    last_start[t.from] = t.start;
    const double bytes = static_cast<double>(count_of(t.piece, t.chunk)) * plan.element_bytes + network.envelope_bytes;
    const double alone = network.latency[t.from] + bytes / std::min(network.up_bandwidth[t.from], network.down_bandwidth[t.to]);
    if (!nic_later_or_equal(t.end, t.start + alone)) {
      report.add_violation(fmt::format("{}: arrives at {:.9g} s, but started at {:.9g} s it needs {:.9g} s alone", where,
                                       t.end, t.start, alone));
    }
    first_start[t.from] = std::min(first_start[t.from], t.start);
    last_arrival[t.from] = std::max(last_arrival[t.from], t.end);
    bytes_sent[t.from] += bytes;
    first_start_to[t.to] = std::min(first_start_to[t.to], t.start);
    last_arrival_at[t.to] = std::max(last_arrival_at[t.to], t.end);
    bytes_received[t.to] += bytes;
    least_latency_to[t.to] = std::min(least_latency_to[t.to], network.latency[t.from]);
  }
  if (!report.valid) return report;
  for (std::size_t p = 0; p < pieces; ++p) {
    for (std::size_t c = 0; c < chunks; ++c) {
      if (count_of(p, c) == 0) continue;
      for (std::size_t member = 0; member < n; ++member) {
        if (member == plan.pieces[p].spreader) continue;
        if (!contributed[(p * chunks + c) * n + member]) {
          report.add_violation(fmt::format("member {} never contributes chunk {} of piece {}", member, c, p));
        }
        if (!received[(p * chunks + c) * n + member]) {
          report.add_violation(fmt::format("member {} never receives the result of chunk {} of piece {}", member, c, p));
        }
      }
    }
  }
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const auto& t = plan.transfers[i];
    if (t.contribution) continue;
    const double last = last_contribution[t.piece * chunks + t.chunk];
    if (!nic_later_or_equal(t.start, last)) {
      report.add_violation(fmt::format("transfers[{}]: the result of chunk {} of piece {} starts at {:.9g} s, before its "
                                       "last contribution arrives at {:.9g} s", i, t.chunk, t.piece, t.start, last));
    }
  }
  for (std::size_t u = 0; u < n; ++u) {
    if (bytes_sent[u] > 0 &&
        !nic_later_or_equal(last_arrival[u], first_start[u] + network.latency[u] + bytes_sent[u] / network.up_bandwidth[u])) {
      report.add_violation(fmt::format("member {}: its {} bytes have all arrived at {:.9g} s, sooner than its up link "
                                       "allows", u, bytes_sent[u], last_arrival[u]));
    }
    if (bytes_received[u] > 0 &&
        !nic_later_or_equal(last_arrival_at[u], first_start_to[u] + least_latency_to[u] + bytes_received[u] / network.down_bandwidth[u])) {
      report.add_violation(fmt::format("member {}: the {} bytes to it have all arrived at {:.9g} s, sooner than its down "
                                       "link allows", u, bytes_received[u], last_arrival_at[u]));
    }
  }
  report.measured_makespan = last_result;
  if (!same(plan.makespan, last_result)) {
    report.add_violation(fmt::format("makespan: claimed {:.9g} s, the last result arrives at {:.9g} s", plan.makespan, last_result));
  }
  // The bounds, recomputed.
  if (n >= 2) {
    const double data = static_cast<double>(plan.elements) * plan.element_bytes;
    double own = 0;
    std::vector<double> latency_to(n, kNicInfinity);
    for (std::size_t v = 0; v < n; ++v) {
      for (std::size_t w = 0; w < n; ++w) {
        if (w != v) latency_to[v] = std::min(latency_to[v], network.latency[w]);
      }
      own = std::max({own, network.latency[v] + (data + network.envelope_bytes) / network.up_bandwidth[v],
                      latency_to[v] + (data + network.envelope_bytes) / network.down_bandwidth[v]});
    }
    const double volume = 2 * static_cast<double>(n - 1) * data;
    const double traffic = std::max(least_time(network.up_bandwidth, network.latency, volume),
                                    least_time(network.down_bandwidth, latency_to, volume));
    if (!same(plan.own_data_bound, own)) {
      report.add_violation(fmt::format("own_data_bound: claimed {:.9g} s, it is {:.9g} s", plan.own_data_bound, own));
    }
    if (!same(plan.traffic_bound, traffic)) {
      report.add_violation(fmt::format("traffic_bound: claimed {:.9g} s, it is {:.9g} s", plan.traffic_bound, traffic));
    }
    if (!nic_later_or_equal(plan.makespan, std::max(own, traffic))) {
      report.add_violation(fmt::format("makespan {:.9g} s below the lower bound {:.9g} s", plan.makespan, std::max(own, traffic)));
    }
  }
  return report;
}

}  // namespace hetcoll
