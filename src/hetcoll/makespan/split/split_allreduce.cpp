#include "hetcoll/makespan/split/split_allreduce.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/split/split_sizing_internal.h"

namespace hetcoll {

namespace {

constexpr double kUnknown = -1;
// Work per planning run is bounded: fewer rounds on large platforms.
constexpr double kTransferBudget = 2e8;

}  // namespace

void schedule_split_allreduce(SplitAllreducePlan& plan, const SplitCosts& costs) {
  const std::size_t k = plan.members.size();
  const std::size_t chunks = std::max<std::size_t>(plan.chunks, 1);
  plan.transfers.clear();
  plan.makespan = 0;
  if (k <= 1) return;
  const std::size_t piece_count = plan.pieces.size();
  std::vector<std::size_t> piece_of(k, piece_count);  // aggregator -> piece
  for (std::size_t p = 0; p < piece_count; ++p) piece_of[plan.pieces[p].spreader] = p;
  auto count_of = [&](std::size_t piece, std::size_t chunk) {
    return split_chunk_range(plan.pieces[piece].elements, chunks, chunk).second;
  };
  auto bytes_of = [&](std::size_t count) { return static_cast<double>(count) * plan.element_bytes + plan.envelope_bytes; };

  // Each member's contributions, in its send order.
  struct Contribution {
    std::size_t piece, chunk;
  };
  std::vector<std::vector<Contribution>> contributions(k);
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t c = 0; c < chunks; ++c) {
      for (std::size_t step = 1; step < k; ++step) {
        const std::size_t aggregator = (i + step) % k;
        const std::size_t p = piece_of[aggregator];
        if (p == piece_count || count_of(p, c) == 0) continue;
        contributions[i].push_back({p, c});
      }
    }
  }
  // Per (piece, chunk): contributions still to be scheduled and the last arrival.
  std::vector<std::size_t> missing(piece_count * chunks, k - 1);
  std::vector<double> ready(piece_count * chunks, kUnknown);
  for (std::size_t p = 0; p < piece_count; ++p) {
    for (std::size_t c = 0; c < chunks; ++c) {
      if (count_of(p, c) == 0) missing[p * chunks + c] = 0;
    }
  }
  std::vector<double> arrival_max(piece_count * chunks, 0.0);
  std::vector<std::size_t> next_contribution(k, 0), next_result_chunk(k, 0);
  std::vector<double> link_free(k, 0.0);
  std::vector<char> parked(k, 0);
  using Entry = std::pair<double, std::size_t>;  // (link free time, member)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> links;
  for (std::size_t i = 0; i < k; ++i) links.emplace(0.0, i);
  auto send = [&](bool contribution, std::size_t piece, std::size_t chunk, std::size_t from, std::size_t to,
                  double start) {
    const double bytes = bytes_of(count_of(piece, chunk));
    const double occupancy = costs.occupancy(from, to, bytes);
    const double end = start + occupancy + costs.delay(from, to);
    plan.transfers.push_back({contribution, piece, chunk, from, to, start, end});
    if (!contribution) plan.makespan = std::max(plan.makespan, end);
    return std::pair{occupancy, end};
  };
  // The member's next result chunk (its piece's, in chunk order; empty ones skipped).
  auto next_result = [&](std::size_t i) -> std::size_t {
    const std::size_t p = piece_of[i];
    if (p == piece_count) return chunks;
    while (next_result_chunk[i] < chunks && count_of(p, next_result_chunk[i]) == 0) ++next_result_chunk[i];
    return next_result_chunk[i];
  };
  while (!links.empty()) {
    auto [now, i] = links.top();
    links.pop();
    if (now != link_free[i]) continue;  // stale entry
    const std::size_t p = piece_of[i];
    const std::size_t c = next_result(i);
    const bool result_pending = c < chunks;
    const double result_ready = result_pending ? ready[p * chunks + c] : kUnknown;
    if (result_pending && result_ready != kUnknown && result_ready <= now) {
      // The reduced chunk to everyone, one message after the other.
      double at = now;
      for (std::size_t step = 1; step < k; ++step) at += send(false, p, c, i, (i + step) % k, at).first;
      ++next_result_chunk[i];
      link_free[i] = at;
      links.emplace(at, i);
    } else if (next_contribution[i] < contributions[i].size()) {
      const auto [piece, chunk] = contributions[i][next_contribution[i]++];
      const std::size_t aggregator = plan.pieces[piece].spreader;
      const auto [occupancy, end] = send(true, piece, chunk, i, aggregator, now);
      const std::size_t slot = piece * chunks + chunk;
      arrival_max[slot] = std::max(arrival_max[slot], end);
      if (--missing[slot] == 0) {
        ready[slot] = arrival_max[slot];
        if (parked[aggregator]) {  // it was waiting for a result chunk to be ready
          parked[aggregator] = 0;
          link_free[aggregator] = std::max(link_free[aggregator], now);
          links.emplace(link_free[aggregator], aggregator);
        }
      }
      link_free[i] = now + occupancy;
      links.emplace(link_free[i], i);
    } else if (result_pending) {
      if (result_ready != kUnknown) {
        link_free[i] = result_ready;  // wait for the chunk's last contribution
        links.emplace(result_ready, i);
      } else {
        parked[i] = 1;  // woken when the chunk's last contribution is scheduled
      }
    }
  }
}

SplitAllreducePlan plan_split_allreduce(const SplitCosts& costs, std::size_t elements, double element_bytes,
                                        double envelope_bytes, std::size_t max_messages) {
  const std::size_t k = costs.size();
  split_sizing::check_arguments(elements, element_bytes, envelope_bytes, "split all-reduce");
  SplitAllreducePlan best;
  best.members = costs.members();
  best.elements = elements;
  best.element_bytes = element_bytes;
  best.envelope_bytes = envelope_bytes;
  best.makespan = std::numeric_limits<double>::infinity();
  if (k <= 1) {
    best.pieces = {{0, 0, elements}};
    best.makespan = 0;
    best.algorithm = "split all-reduce: a single participant";
    return best;
  }
  const std::vector<double> rate = split_sizing::spreading_rates(costs);
  const std::vector<double> equal(k, 1.0);
  const auto square = static_cast<double>(k) * static_cast<double>(k);
  SplitAllreducePlan trial = best;
  for (std::size_t chunks : split_sizing::kChunkCounts) {
    if (chunks > 1 && chunks * k > elements) break;
    if (chunks > 1 && max_messages > 0 && 2 * chunks * k * (k - 1) > max_messages) break;
    const double per_schedule = 2 * static_cast<double>(chunks) * square;
    const int rounds = static_cast<int>(std::clamp(kTransferBudget / (per_schedule * 16), 4.0,
                                                   static_cast<double>(split_sizing::kRefinementRounds)));
    const std::vector<double>* starts[] = {&rate, &equal};
    for (const auto* start : starts) {
      std::vector<std::size_t> sizes = split_sizing::proportional_sizes(*start, elements);
      for (int round = 0; round < rounds; ++round) {
        trial.chunks = chunks;
        trial.pieces = split_sizing::pieces_of(sizes);
        schedule_split_allreduce(trial, costs);
        if (trial.makespan < best.makespan * (1 - 1e-12)) best = trial;
        std::vector<double> finish(k, 0.0);
        for (const auto& transfer : trial.transfers) {
          if (transfer.contribution) continue;
          auto& f = finish[trial.pieces[transfer.piece].spreader];
          f = std::max(f, transfer.end);
        }
        auto next = split_sizing::rebalanced_sizes(sizes, finish, elements);
        if (next == sizes) break;
        sizes = std::move(next);
      }
    }
  }
  best.algorithm = fmt::format("split all-reduce: {} piece{}, {} chunk{} each", best.pieces.size(),
                                 best.pieces.size() == 1 ? "" : "s", best.chunks, best.chunks == 1 ? "" : "s");
  return best;
}

}  // namespace hetcoll
