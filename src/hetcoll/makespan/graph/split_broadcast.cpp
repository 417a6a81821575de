#include "hetcoll/makespan/graph/split_broadcast.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/graph/split_sizing_internal.h"

namespace hetcoll {

namespace {

// The two message sizes SplitCosts::of reads the affine costs from.
constexpr double kSmallBytes = 1024;
constexpr double kLargeBytes = 65536;
// Work per planning run is bounded: fewer rounds on large platforms.
constexpr double kTransferBudget = 2e8;

}  // namespace

namespace split_sizing {

std::vector<std::size_t> proportional_sizes(const std::vector<double>& weights, std::size_t total) {
  const double sum = std::accumulate(weights.begin(), weights.end(), 0.0);
  std::vector<std::size_t> sizes(weights.size(), 0);
  if (!(sum > 0)) return sizes;
  std::vector<std::pair<double, std::size_t>> remainders;
  std::size_t assigned = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double exact = static_cast<double>(total) * weights[i] / sum;
    sizes[i] = static_cast<std::size_t>(std::floor(exact));
    assigned += sizes[i];
    if (weights[i] > 0) remainders.emplace_back(exact - static_cast<double>(sizes[i]), i);
  }
  std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t i = 0; assigned < total && !remainders.empty(); ++i, ++assigned) {
    ++sizes[remainders[i % remainders.size()].second];
  }
  return sizes;
}

std::vector<SplitPiece> pieces_of(const std::vector<std::size_t>& sizes) {
  std::vector<SplitPiece> pieces;
  std::size_t first = 0;
  for (std::size_t member = 0; member < sizes.size(); ++member) {
    if (sizes[member] == 0) continue;
    pieces.push_back({member, first, sizes[member]});
    first += sizes[member];
  }
  return pieces;
}

void check_arguments(std::size_t elements, double element_bytes, double envelope_bytes, const char* what) {
  if (elements == 0) throw InputError("elements", fmt::format("a {} needs at least one element", what));
  if (!(element_bytes > 0) || !std::isfinite(element_bytes)) {
    throw InputError("element_bytes", fmt::format("must be positive and finite, got {}", element_bytes));
  }
  if (!(envelope_bytes >= 0) || !std::isfinite(envelope_bytes)) {
    throw InputError("envelope_bytes", fmt::format("must be >= 0 and finite, got {}", envelope_bytes));
  }
}

std::vector<double> spreading_rates(const SplitCosts& costs) {
  const std::size_t k = costs.size();
  std::vector<double> rate(k, 0.0);
  for (std::size_t j = 0; j < k; ++j) {
    double per_byte = 0;
    for (std::size_t d = 0; d < k; ++d) {
      if (d != j) per_byte += costs.per_byte(j, d);
    }
    rate[j] = per_byte > 0 ? 1 / per_byte : 1;
  }
  return rate;
}

std::vector<std::size_t> rebalanced_sizes(const std::vector<std::size_t>& sizes, const std::vector<double>& finish,
                                          std::size_t total) {
  double mean = 0;
  std::size_t used = 0;
  for (std::size_t j = 0; j < sizes.size(); ++j) {
    if (sizes[j] > 0) mean += finish[j], ++used;
  }
  if (used == 0) return sizes;
  mean /= static_cast<double>(used);
  std::vector<double> weights(sizes.size(), 0.0);
  for (std::size_t j = 0; j < sizes.size(); ++j) {
    if (sizes[j] > 0 && finish[j] > 0) weights[j] = static_cast<double>(sizes[j]) * std::sqrt(mean / finish[j]);
  }
  return proportional_sizes(weights, total);
}

}  // namespace split_sizing

SplitCosts::SplitCosts(const EagerMatrix& at_a, double bytes_a, const EagerMatrix& at_b, double bytes_b)
    : members_(at_a.members()) {
  if (!(bytes_b > bytes_a) || at_a.members() != at_b.members()) {
    throw InputError("message_size", "split costs need the same members at two different message sizes");
  }
  const std::size_t k = members_.size();
  pairs_.assign(k * k, Pair{});
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      if (i == j) continue;
      const auto& a = at_a.cost(i, j);
      const auto& b = at_b.cost(i, j);
      if (!a.connected() || !b.connected()) {
        throw InputError("participants",
                         fmt::format("the split broadcast needs a route between every two participants; there is "
                                     "none from participant {} to participant {}", members_[i], members_[j]));
      }
      Pair& pair = pairs_[i * k + j];
      pair.per_byte = std::max(0.0, (b.occupancy - a.occupancy) / (bytes_b - bytes_a));
      pair.fixed = std::max(0.0, a.occupancy - bytes_a * pair.per_byte);
      pair.delay = a.delay;
    }
  }
}

SplitCosts SplitCosts::of(const Platform& platform, std::vector<ProcessorIndex> members) {
  GraphNetwork small(platform, kSmallBytes), large(platform, kLargeBytes);
  EagerMatrix at_small(small, members), at_large(large, std::move(members));
  return SplitCosts(at_small, kSmallBytes, at_large, kLargeBytes);
}

std::pair<std::size_t, std::size_t> split_chunk_range(std::size_t piece_elements, std::size_t chunks,
                                                      std::size_t chunk) {
  const std::size_t base = piece_elements / chunks, extra = piece_elements % chunks;
  return {chunk * base + std::min(chunk, extra), base + (chunk < extra ? 1 : 0)};
}

void schedule_split_broadcast(SplitBroadcastPlan& plan, const SplitCosts& costs) {
  const std::size_t k = plan.members.size();
  const std::size_t source = plan.source;
  const std::size_t chunks = std::max<std::size_t>(plan.chunks, 1);
  plan.transfers.clear();
  plan.makespan = 0;
  auto bytes_of = [&](std::size_t count) { return static_cast<double>(count) * plan.element_bytes + plan.envelope_bytes; };
  auto add = [&](std::size_t piece, std::size_t chunk, std::size_t from, std::size_t to, double start, double bytes) {
    const double occupancy = costs.occupancy(from, to, bytes);
    const double end = start + occupancy + costs.delay(from, to);
    plan.transfers.push_back({piece, chunk, from, to, start, end});
    plan.makespan = std::max(plan.makespan, end);
    return occupancy;
  };
  // Handing: the source's link, chunk by chunk, piece by piece.
  std::vector<std::vector<double>> arrival(plan.pieces.size(), std::vector<double>(chunks, 0.0));
  double source_free = 0;
  for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
    for (std::size_t p = 0; p < plan.pieces.size(); ++p) {
      const auto [offset, count] = split_chunk_range(plan.pieces[p].elements, chunks, chunk);
      (void)offset;
      if (count == 0) continue;
      const double bytes = bytes_of(count);
      const std::size_t spreader = plan.pieces[p].spreader;
      if (spreader == source) {
        for (std::size_t step = 1; step < k; ++step) {
          source_free += add(p, chunk, source, (source + step) % k, source_free, bytes);
        }
      } else {
        source_free += add(p, chunk, source, spreader, source_free, bytes);
        arrival[p][chunk] = plan.transfers.back().end;
      }
    }
  }
  // Spreading: each spreader's link, its chunks as they arrive.
  for (std::size_t p = 0; p < plan.pieces.size(); ++p) {
    const std::size_t spreader = plan.pieces[p].spreader;
    if (spreader == source) continue;
    double spreader_free = 0;
    for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
      const auto [offset, count] = split_chunk_range(plan.pieces[p].elements, chunks, chunk);
      (void)offset;
      if (count == 0) continue;
      const double bytes = bytes_of(count);
      for (std::size_t step = 1; step < k; ++step) {
        const std::size_t to = (spreader + step) % k;
        if (to == source) continue;
        const double start = std::max(spreader_free, arrival[p][chunk]);
        spreader_free = start + add(p, chunk, spreader, to, start, bytes);
      }
    }
  }
}

SplitBroadcastPlan plan_split_broadcast(const SplitCosts& costs, std::size_t source, std::size_t elements,
                                        double element_bytes, double envelope_bytes) {
  const std::size_t k = costs.size();
  if (source >= k) throw InputError("source", fmt::format("member index {} out of range ({} participants)", source, k));
  split_sizing::check_arguments(elements, element_bytes, envelope_bytes, "split broadcast");
  SplitBroadcastPlan best;
  best.members = costs.members();
  best.source = source;
  best.elements = elements;
  best.element_bytes = element_bytes;
  best.envelope_bytes = envelope_bytes;
  best.makespan = std::numeric_limits<double>::infinity();
  if (k == 1) {
    best.pieces = {{source, 0, elements}};
    best.makespan = 0;
    best.description = "split broadcast: a single participant";
    return best;
  }
  const std::vector<double> rate = split_sizing::spreading_rates(costs);
  std::vector<double> without_source = rate;
  without_source[source] = 0;
  std::vector<double> source_only(k, 0.0);
  source_only[source] = 1;
  const auto square = static_cast<double>(k) * static_cast<double>(k);
  SplitBroadcastPlan trial = best;
  for (std::size_t chunks : split_sizing::kChunkCounts) {
    if (chunks > 1 && chunks * k > elements) break;
    const double per_schedule = static_cast<double>(chunks) * square;
    const int rounds = static_cast<int>(std::clamp(kTransferBudget / (per_schedule * 16), 4.0,
                                                   static_cast<double>(split_sizing::kRefinementRounds)));
    const std::vector<double>* starts[] = {&without_source, &rate, &source_only};
    for (const auto* start : starts) {
      if (k == 2 && start == &without_source) continue;  // the other member alone: the source's piece is the plan
      std::vector<std::size_t> sizes = split_sizing::proportional_sizes(*start, elements);
      for (int round = 0; round < rounds; ++round) {
        trial.chunks = chunks;
        trial.pieces = split_sizing::pieces_of(sizes);
        schedule_split_broadcast(trial, costs);
        if (trial.makespan < best.makespan * (1 - 1e-12)) best = trial;
        // Each piece's finish (its last arrival), then sizes scaled towards the mean.
        std::vector<double> finish(k, 0.0);
        for (const auto& transfer : trial.transfers) {
          auto& f = finish[trial.pieces[transfer.piece].spreader];
          f = std::max(f, transfer.end);
        }
        auto next = split_sizing::rebalanced_sizes(sizes, finish, elements);
        if (next == sizes) break;
        sizes = std::move(next);
      }
    }
  }
  std::size_t spreaders = best.pieces.size();
  best.description = fmt::format("split broadcast: {} piece{}, {} chunk{} each{}", spreaders, spreaders == 1 ? "" : "s",
                                 best.chunks, best.chunks == 1 ? "" : "s",
                                 std::any_of(best.pieces.begin(), best.pieces.end(),
                                             [&](const SplitPiece& piece) { return piece.spreader == source; })
                                     ? " (the source spreads one)"
                                     : "");
  return best;
}

}  // namespace hetcoll
