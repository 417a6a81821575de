// Piece sizing shared by the split broadcast and the split all-reduce
// (split_broadcast.h, split_allreduce.h). Internal to the library.
#pragma once

#include <cstddef>
#include <vector>

#include "hetcoll/model/split_costs.h"
#include "hetcoll/plan/split_plans.h"

namespace hetcoll::split_sizing {

// `total` elements split in proportion to `weights` (largest remainders;
// zero weights get nothing).
std::vector<std::size_t> proportional_sizes(const std::vector<double>& weights, std::size_t total);

// Pieces in member order (spreader = member index), empty ones left out.
std::vector<SplitPiece> pieces_of(const std::vector<std::size_t>& sizes);

// Throws InputError naming the parameter unless elements >= 1 and
// element_bytes > 0, envelope_bytes >= 0 are finite; `what` names the
// collective ("split broadcast").
void check_arguments(std::size_t elements, double element_bytes, double envelope_bytes, const char* what);

// Each member's spreading rate: 1 / its time per byte to all the others.
std::vector<double> spreading_rates(const SplitCosts& costs);

// The chunk counts the planners try, and their refinement rounds.
inline constexpr std::size_t kChunkCounts[] = {1, 2, 3, 4, 6, 8, 12, 16};
inline constexpr int kRefinementRounds = 60;

// The next sizes of one refinement round: each piece (sizes[j] > 0, its
// last arrival finish[j]) scaled by sqrt(mean finish / its finish).
std::vector<std::size_t> rebalanced_sizes(const std::vector<std::size_t>& sizes, const std::vector<double>& finish,
                                          std::size_t total);

}  // namespace hetcoll::split_sizing
