#include "hetcoll/makespan/split/split_sizing_internal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

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

}  // namespace hetcoll
