// The transfers of a split broadcast in detail (split_broadcast.h states the contract):
//
//  * handing: for chunk c = 0..K-1, for each piece in order, the source
//    sends chunk c of the piece to its spreader, or — for the source's own
//    piece — to every other participant;
//  * spreading: a spreader other than the source sends each chunk of its
//    piece, as it arrives (chunk order), to every participant but itself
//    and the source, in member order starting after itself.
//
// The planner in detail (split_broadcast.h states the contract):
//
// Planner: for each K in 1, 2, 3, 4, 6, 8, 12, 16 (K x k at most the
// elements), three starts — pieces proportional to each member's spreading
// rate (1 / the per-byte occupancy of sending one byte to all the others),
// the same without the source, and the source's piece alone (the flat tree
// in K chunks) — each refined by up to 60 rounds that move elements from
// the pieces that finish last to those that finish first (each piece scaled
// by sqrt(mean finish / its finish), rounded to whole elements); the best
// schedule seen wins (ties: the first found). So the plan is never slower,
// in the model, than the flat tree sending the whole message.

#include "hetcoll/makespan/split/split_broadcast.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/split/split_sizing_internal.h"

namespace hetcoll {

namespace {

// Work per planning run is bounded: fewer rounds on large platforms.
constexpr double kBroadcastTransferBudget = 2e8;

}  // namespace


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
    best.algorithm = "split broadcast: a single participant";
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
    const int rounds = static_cast<int>(std::clamp(kBroadcastTransferBudget / (per_schedule * 16), 4.0,
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
  best.algorithm = fmt::format("split broadcast: {} piece{}, {} chunk{} each{}", spreaders, spreaders == 1 ? "" : "s",
                                 best.chunks, best.chunks == 1 ? "" : "s",
                                 std::any_of(best.pieces.begin(), best.pieces.end(),
                                             [&](const SplitPiece& piece) { return piece.spreader == source; })
                                     ? " (the source spreads one)"
                                     : "");
  return best;
}

}  // namespace hetcoll
