// verify_split_broadcast (verify.h): the split broadcast's own checks.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

#include <fmt/format.h>

#include "hetcoll/model/split_costs.h"
#include "hetcoll/plan/split_plans.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {

namespace {

// Equal up to the rounding of sums of up to `terms` times of size `scale`.
bool close(double x, double y, double scale, std::size_t terms) {
  return std::abs(x - y) <= 1e-9 * scale + static_cast<double>(terms + 16) * DBL_EPSILON * std::max(std::abs(x), std::abs(y));
}

// A transfer's shape and duration (both split plans): in range, a
// non-empty chunk, a start >= 0, lasting occupancy + delay for its bytes.
// Returns its occupancy, or a negative number when it cannot be checked further.
template <typename Plan, typename Transfer>
double checked_occupancy(const SplitCosts& costs, const Plan& plan, const Transfer& t, const std::string& where,
                         VerifyReport& report) {
  const std::size_t k = plan.members.size();
  if (t.piece >= plan.pieces.size() || t.chunk >= plan.chunks || t.from >= k || t.to >= k || t.from == t.to) {
    report.add_violation(fmt::format("{}: piece {}, chunk {}, from {} to {}: out of range or to itself", where,
                                     t.piece, t.chunk, t.from, t.to));
    return -1;
  }
  const auto count = split_chunk_range(plan.pieces[t.piece].elements, plan.chunks, t.chunk).second;
  if (count == 0) {
    report.add_violation(fmt::format("{}: chunk {} of piece {} is empty", where, t.chunk, t.piece));
    return -1;
  }
  if (!(t.start >= 0) || !std::isfinite(t.end)) report.add_violation(fmt::format("{}: starts at {}", where, t.start));
  const double bytes = static_cast<double>(count) * plan.element_bytes + plan.envelope_bytes;
  const double occupancy = costs.occupancy(t.from, t.to, bytes);
  const double duration = occupancy + costs.delay(t.from, t.to);
  if (!close(t.end - t.start, duration, duration, plan.transfers.size())) {
    report.add_violation(fmt::format("{}: lasts {}, its {} bytes take {} (occupancy + delay)", where,
                                     t.end - t.start, bytes, duration));
  }
  return occupancy;
}

// Pieces: distinct spreaders (aggregators), non-empty, covering [0, elements) once.
void check_pieces(const std::vector<SplitPiece>& pieces, std::size_t elements, std::size_t k, VerifyReport& report) {
  std::vector<std::size_t> order(pieces.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return pieces[a].first < pieces[b].first; });
  std::vector<char> spreads(k, 0);
  std::size_t covered = 0;
  for (std::size_t i : order) {
    const auto& piece = pieces[i];
    if (piece.spreader >= k) {
      report.add_violation(fmt::format("pieces[{}]: spreader {} out of range", i, piece.spreader));
      return;
    }
    if (spreads[piece.spreader]++) report.add_violation(fmt::format("pieces[{}]: member {} has two pieces", i, piece.spreader));
    if (piece.elements == 0) report.add_violation(fmt::format("pieces[{}]: empty", i));
    if (piece.first != covered) {
      report.add_violation(fmt::format("pieces[{}]: starts at element {}, the pieces before it end at {}", i,
                                       piece.first, covered));
    }
    covered = std::max(covered, piece.first + piece.elements);
  }
  if (covered != elements) {
    report.add_violation(fmt::format("pieces: cover elements up to {}, the message has {}", covered, elements));
  }
}

// A sender's transfers, by start, each after the previous one has left its link.
template <typename Transfer>
void check_links(const std::vector<Transfer>& transfers, const std::vector<double>& occupancy, std::size_t k,
                 VerifyReport& report) {
  const std::size_t m = transfers.size();
  std::vector<std::size_t> by_start(m);
  std::iota(by_start.begin(), by_start.end(), 0);
  std::stable_sort(by_start.begin(), by_start.end(),
                   [&](std::size_t a, std::size_t b) { return transfers[a].start < transfers[b].start; });
  std::vector<double> link_free(k, 0);
  std::vector<std::size_t> last_on_link(k, m);
  for (std::size_t i : by_start) {
    const auto& t = transfers[i];
    if (t.start < link_free[t.from] && !close(t.start, link_free[t.from], occupancy[i], m)) {
      report.add_violation(fmt::format("transfers[{}]: member {} starts it at {} while transfers[{}] holds its link "
                                       "until {}", i, t.from, t.start, last_on_link[t.from], link_free[t.from]));
    }
    link_free[t.from] = std::max(link_free[t.from], t.start + occupancy[i]);
    last_on_link[t.from] = i;
  }
}

}  // namespace

VerifyReport verify_split_broadcast(const SplitCosts& costs, const SplitBroadcastPlan& plan) {
  VerifyReport report;
  const std::size_t k = plan.members.size();
  if (plan.members != costs.members()) {
    report.add_violation(fmt::format("members: the plan has {} members, not the costs' {} (or in another order)", k,
                                     costs.size()));
    return report;
  }
  if (plan.source >= k) {
    report.add_violation(fmt::format("source: member {} out of range ({} members)", plan.source, k));
    return report;
  }
  if (plan.chunks == 0) {
    report.add_violation("chunks: must be at least 1");
    return report;
  }
  check_pieces(plan.pieces, plan.elements, k, report);
  if (!report.valid) return report;

  // Transfers: shape, durations; who holds what when.
  const std::size_t m = plan.transfers.size();
  const std::size_t chunks = plan.chunks;
  auto slot = [&](std::size_t piece, std::size_t chunk, std::size_t member) {
    return (piece * chunks + chunk) * k + member;
  };
  std::vector<double> received(plan.pieces.size() * chunks * k, -1);  // arrival time, -1: never
  std::vector<double> occupancy(m, 0);
  double last_arrival = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const auto& t = plan.transfers[i];
    const auto where = fmt::format("transfers[{}]", i);
    occupancy[i] = checked_occupancy(costs, plan, t, where, report);
    if (occupancy[i] < 0) continue;
    const auto& piece = plan.pieces[t.piece];
    if (t.from != plan.source && t.from != piece.spreader) {
      report.add_violation(fmt::format("{}: member {} sends piece {}, which it neither holds from the start nor "
                                       "spreads", where, t.from, t.piece));
    }
    double& arrival = received[slot(t.piece, t.chunk, t.to)];
    if (t.to == plan.source) {
      report.add_violation(fmt::format("{}: the source receives", where));
    } else if (arrival >= 0) {
      report.add_violation(fmt::format("{}: member {} receives chunk {} of piece {} a second time", where, t.to,
                                       t.chunk, t.piece));
    }
    arrival = arrival >= 0 ? std::min(arrival, t.end) : t.end;
    last_arrival = std::max(last_arrival, t.end);
  }
  if (!report.valid) return report;
  // Causality: a sender other than the source holds the chunk when it starts.
  for (std::size_t i = 0; i < m; ++i) {
    const auto& t = plan.transfers[i];
    if (t.from == plan.source) continue;
    const double arrival = received[slot(t.piece, t.chunk, t.from)];
    if (arrival < 0 || (arrival > t.start && !close(arrival, t.start, occupancy[i], m))) {
      report.add_violation(fmt::format("transfers[{}]: member {} sends chunk {} of piece {} at {} but holds it {}", i,
                                       t.from, t.chunk, t.piece, t.start,
                                       arrival < 0 ? std::string("never") : fmt::format("from {}", arrival)));
    }
  }
  check_links(plan.transfers, occupancy, k, report);
  // Completeness.
  for (std::size_t p = 0; p < plan.pieces.size(); ++p) {
    for (std::size_t c = 0; c < chunks; ++c) {
      if (split_chunk_range(plan.pieces[p].elements, chunks, c).second == 0) continue;
      for (std::size_t member = 0; member < k; ++member) {
        if (member != plan.source && received[slot(p, c, member)] < 0) {
          report.add_violation(fmt::format("member {} never receives chunk {} of piece {}", member, c, p));
        }
      }
    }
  }
  report.measured_makespan = last_arrival;
  if (!close(plan.makespan, last_arrival, last_arrival, m)) {
    report.add_violation(fmt::format("makespan: claimed {}, the last arrival is at {}", plan.makespan, last_arrival));
  }
  return report;
}

VerifyReport verify_split_allreduce(const SplitCosts& costs, const SplitAllreducePlan& plan) {
  VerifyReport report;
  const std::size_t k = plan.members.size();
  if (plan.members != costs.members()) {
    report.add_violation(fmt::format("members: the plan has {} members, not the costs' {} (or in another order)", k,
                                     costs.size()));
    return report;
  }
  if (plan.chunks == 0) {
    report.add_violation("chunks: must be at least 1");
    return report;
  }
  check_pieces(plan.pieces, plan.elements, k, report);
  if (!report.valid) return report;
  const std::size_t m = plan.transfers.size();
  const std::size_t chunks = plan.chunks;
  const std::size_t pieces = plan.pieces.size();
  auto slot = [&](std::size_t piece, std::size_t chunk, std::size_t member) {
    return (piece * chunks + chunk) * k + member;
  };
  std::vector<char> contributed(pieces * chunks * k, 0), received(pieces * chunks * k, 0);
  std::vector<double> last_contribution(pieces * chunks, 0);
  std::vector<double> occupancy(m, 0);
  double last_result = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const auto& t = plan.transfers[i];
    const auto where = fmt::format("transfers[{}]", i);
    occupancy[i] = checked_occupancy(costs, plan, t, where, report);
    if (occupancy[i] < 0) continue;
    const auto& piece = plan.pieces[t.piece];
    if (t.contribution) {
      if (t.to != piece.spreader) {
        report.add_violation(fmt::format("{}: a contribution to piece {} goes to member {}, not its aggregator {}",
                                         where, t.piece, t.to, piece.spreader));
      } else if (contributed[slot(t.piece, t.chunk, t.from)]++) {
        report.add_violation(fmt::format("{}: member {} contributes chunk {} of piece {} twice", where, t.from,
                                         t.chunk, t.piece));
      }
      auto& last = last_contribution[t.piece * chunks + t.chunk];
      last = std::max(last, t.end);
    } else {
      if (t.from != piece.spreader) {
        report.add_violation(fmt::format("{}: member {} sends the result of piece {}, which it does not aggregate",
                                         where, t.from, t.piece));
      } else if (received[slot(t.piece, t.chunk, t.to)]++) {
        report.add_violation(fmt::format("{}: member {} receives the result of chunk {} of piece {} twice", where,
                                         t.to, t.chunk, t.piece));
      }
      last_result = std::max(last_result, t.end);
    }
  }
  if (!report.valid) return report;
  // Results leave after the chunk's last contribution has arrived.
  for (std::size_t i = 0; i < m; ++i) {
    const auto& t = plan.transfers[i];
    if (t.contribution) continue;
    const double last = last_contribution[t.piece * chunks + t.chunk];
    if (t.start < last && !close(t.start, last, occupancy[i], m)) {
      report.add_violation(fmt::format("transfers[{}]: the result of chunk {} of piece {} leaves at {}, before its "
                                       "last contribution arrives at {}", i, t.chunk, t.piece, t.start, last));
    }
  }
  check_links(plan.transfers, occupancy, k, report);
  // Completeness: every other member contributes, and receives, every chunk.
  for (std::size_t p = 0; p < pieces; ++p) {
    for (std::size_t c = 0; c < chunks; ++c) {
      if (split_chunk_range(plan.pieces[p].elements, chunks, c).second == 0) continue;
      for (std::size_t member = 0; member < k; ++member) {
        if (member == plan.pieces[p].spreader) continue;
        if (!contributed[slot(p, c, member)]) {
          report.add_violation(fmt::format("member {} never contributes chunk {} of piece {}", member, c, p));
        }
        if (!received[slot(p, c, member)]) {
          report.add_violation(fmt::format("member {} never receives the result of chunk {} of piece {}", member, c, p));
        }
      }
    }
  }
  report.measured_makespan = last_result;
  if (!close(plan.makespan, last_result, last_result, m)) {
    report.add_violation(fmt::format("makespan: claimed {}, the last result arrives at {}", plan.makespan, last_result));
  }
  return report;
}

}  // namespace hetcoll
