#include "hetcoll/verify/verify_split_reduce.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

namespace hetcoll {

namespace {

bool later_or_equal(double a, double b) { return a >= b - (1e-9 * std::max(std::abs(a), std::abs(b)) + 1e-15); }

}  // namespace

VerifyReport verify_split_reduce(const NicNetwork& network, const SplitReducePlan& plan) {
  VerifyReport report;
  const auto n = network.size();
  const auto k = plan.pieces.size();
  if (network.up_bandwidth.size() != n || network.down_bandwidth.size() != n) {
    report.add_violation("network: latency, up_bandwidth and down_bandwidth differ in length");
    return report;
  }
  if (plan.root < 0 || static_cast<std::size_t>(plan.root) >= n) {
    report.add_violation(fmt::format("root {} is not a processor 0..{}", plan.root, n - 1));
    return report;
  }
  if (!(plan.element_bytes > 0)) report.add_violation("element_bytes must be > 0");
  if (plan.contributions.size() != n || plan.post_times.size() != n) {
    report.add_violation(fmt::format("contributions and post_times need one list per processor ({})", n));
    return report;
  }
  if (plan.piece_ready.size() != k || plan.piece_at_root.size() != k) {
    report.add_violation("piece_ready and piece_at_root need one time per piece");
    return report;
  }
  const auto root = static_cast<std::size_t>(plan.root);
  // Pieces: consecutive, non-empty, covering [0, count).
  std::size_t next = 0;
  for (std::size_t j = 0; j < k; ++j) {
    const auto& piece = plan.pieces[j];
    if (piece.aggregator < 0 || static_cast<std::size_t>(piece.aggregator) >= n) {
      report.add_violation(fmt::format("piece {}: aggregator {} is not a processor", j, piece.aggregator));
      return report;
    }
    if (piece.count == 0) report.add_violation(fmt::format("piece {} is empty", j));
    if (piece.first != next) {
      report.add_violation(fmt::format("piece {} starts at element {}, not {} (a gap or an overlap)", j, piece.first, next));
    }
    next = piece.first + piece.count;
  }
  if (next != plan.count || (plan.count > 0 && k == 0)) {
    report.add_violation(fmt::format("the pieces cover {} elements, not count = {}", next, plan.count));
  }
  if (!plan.contributions[root].empty()) report.add_violation("the root sends contributions");
  // Completeness: who sends piece j, and when.
  std::vector<std::vector<int>> sent(k, std::vector<int>(n, 0));
  std::vector<double> first_post(n, std::numeric_limits<double>::infinity());
  std::vector<double> last_arrival(n, 0.0), bytes_sent(n, 0.0);
  std::vector<double> first_post_to(n, std::numeric_limits<double>::infinity());
  std::vector<double> last_arrival_at(n, 0.0), bytes_received(n, 0.0), least_latency_to(n, std::numeric_limits<double>::infinity());
  auto message = [&](std::size_t from, std::size_t to, double post, double bytes, double arrival, const std::string& what) {
    const double alone = network.latency[from] + bytes / std::min(network.up_bandwidth[from], network.down_bandwidth[to]);
    if (!later_or_equal(arrival, post + alone)) {
      report.add_violation(fmt::format("{}: complete at {:.9g} s, but posted at {:.9g} s it needs {:.9g} s alone", what,
                                       arrival, post, alone));
    }
    first_post[from] = std::min(first_post[from], post);
    last_arrival[from] = std::max(last_arrival[from], arrival);
    bytes_sent[from] += bytes;
    first_post_to[to] = std::min(first_post_to[to], post);
    last_arrival_at[to] = std::max(last_arrival_at[to], arrival);
    bytes_received[to] += bytes;
    least_latency_to[to] = std::min(least_latency_to[to], network.latency[from]);
  };
  for (std::size_t u = 0; u < n; ++u) {
    if (plan.contributions[u].size() != plan.post_times[u].size()) {
      report.add_violation(fmt::format("processor {}: {} contributions but {} post times", u,
                                       plan.contributions[u].size(), plan.post_times[u].size()));
      continue;
    }
    for (std::size_t i = 0; i < plan.contributions[u].size(); ++i) {
      const auto j = plan.contributions[u][i];
      const double post = plan.post_times[u][i];
      if (j >= k) {
        report.add_violation(fmt::format("processor {} contributes to piece {}, which does not exist", u, j));
        continue;
      }
      if (!std::isfinite(post) || post < 0) report.add_violation(fmt::format("processor {}: post time {} is not >= 0", u, post));
      ++sent[j][u];
      const auto aggregator = static_cast<std::size_t>(plan.pieces[j].aggregator);
      message(u, aggregator, post, static_cast<double>(plan.pieces[j].count) * plan.element_bytes + network.envelope_bytes,
              plan.piece_ready[j], fmt::format("piece {} from processor {}", j, u));
    }
  }
  for (std::size_t j = 0; j < k; ++j) {
    const auto aggregator = static_cast<std::size_t>(plan.pieces[j].aggregator);
    for (std::size_t u = 0; u < n; ++u) {
      const int expected = u == root || u == aggregator ? 0 : 1;
      if (sent[j][u] != expected) {
        report.add_violation(fmt::format("piece {}: processor {} sends it {} times to its aggregator {}, not {}{}", j, u,
                                         sent[j][u], aggregator, expected,
                                         expected ? "" : u == root ? " (the root combines its own)" : " (its own piece)"));
      }
    }
    if (!std::isfinite(plan.piece_ready[j]) || !std::isfinite(plan.piece_at_root[j])) {
      report.add_violation(fmt::format("piece {}: a time is not finite", j));
      continue;
    }
    if (aggregator != root) {
      message(aggregator, root, plan.piece_ready[j],
              static_cast<double>(plan.pieces[j].count) * plan.element_bytes + network.envelope_bytes,
              plan.piece_at_root[j], fmt::format("forward of piece {} from its aggregator {}", j, aggregator));
    } else if (!later_or_equal(plan.piece_at_root[j], plan.piece_ready[j])) {
      report.add_violation(fmt::format("piece {}: at the root before it is complete", j));
    }
  }
  // Capacity of each processor's links.
  for (std::size_t u = 0; u < n; ++u) {
    if (bytes_sent[u] > 0) {
      const double least = first_post[u] + network.latency[u] + bytes_sent[u] / network.up_bandwidth[u];
      if (!later_or_equal(last_arrival[u], least)) {
        report.add_violation(fmt::format("processor {}: its {:.9g} bytes all arrived at {:.9g} s, before its up link "
                                         "can carry them ({:.9g} s)", u, bytes_sent[u], last_arrival[u], least));
      }
    }
    if (bytes_received[u] > 0) {
      const double least = first_post_to[u] + least_latency_to[u] + bytes_received[u] / network.down_bandwidth[u];
      if (!later_or_equal(last_arrival_at[u], least)) {
        report.add_violation(fmt::format("processor {}: the {:.9g} bytes it receives all arrived at {:.9g} s, before "
                                         "its down link can carry them ({:.9g} s)", u, bytes_received[u],
                                         last_arrival_at[u], least));
      }
    }
  }
  double last = 0;
  for (double t : plan.piece_at_root) last = std::max(last, t);
  report.measured_makespan = last;
  if (!(std::abs(plan.predicted_seconds - last) <= 1e-9 * std::max(last, plan.predicted_seconds) + 1e-15)) {
    report.add_violation(fmt::format("predicted_seconds {:.9g} is not the last piece's arrival at the root ({:.9g})",
                                     plan.predicted_seconds, last));
  }
  return report;
}

}  // namespace hetcoll
