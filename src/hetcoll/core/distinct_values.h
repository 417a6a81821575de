// The distinct values of a list of times when there are few of them: the
// test that lets greedy planners and theorem checks bucket a million
// processors by class in one pass instead of sorting them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

namespace hetcoll {

// Greedy planners and theorem checks bucket by class when a cluster has at
// most this many distinct times, and sort otherwise.
inline constexpr std::size_t kFewDistinctTimes = 16;

// The distinct values among `values` (exact doubles, not the tolerance rule),
// ascending, when there are at most `limit`; nullopt as soon as there are
// more. O(n x limit) time, O(limit) space.
template <typename Range, typename Value>
std::optional<std::vector<double>> few_distinct_values(const Range& items, Value&& value_of,
                                                       std::size_t limit = kFewDistinctTimes) {
  std::vector<double> found;
  bool have_last = false;
  double last = 0;
  for (const auto& item : items) {
    const double v = value_of(item);
    if (have_last && v == last) continue;
    if (std::find(found.begin(), found.end(), v) == found.end()) {
      if (found.size() == limit) return std::nullopt;
      found.push_back(v);
    }
    last = v;
    have_last = true;
  }
  std::sort(found.begin(), found.end());
  return found;
}

inline std::optional<std::vector<double>> few_distinct_values(const std::vector<double>& values,
                                                              std::size_t limit = kFewDistinctTimes) {
  return few_distinct_values(values, [](double v) { return v; }, limit);
}

}  // namespace hetcoll
