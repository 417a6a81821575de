// Processor indices and the tolerance rule for comparing times.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

namespace hetcoll {

// Processors (cluster) and nodes (platform graph) are numbered 0..n-1 in the
// order of the platform file; their string ids live in the model.
using ProcessorIndex = std::int32_t;
inline constexpr ProcessorIndex kNoProcessor = -1;

// "17" -> 17 when it is a whole decimal index below `count`; the fallback of
// id look-ups ("wherever an option takes a processor, its id or its index").
inline std::optional<ProcessorIndex> parse_processor_index(std::string_view text, std::size_t count) {
  long long index = -1;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), index);
  if (error != std::errc() || end != text.data() + text.size() || index < 0 ||
      index >= static_cast<long long>(count)) {
    return std::nullopt;
  }
  return static_cast<ProcessorIndex>(index);
}

// The tolerance rule (docs/ALGORITHMS.md, "Numbers and ties"). Times are
// doubles given by the user. An instance's time scale is
//   s = max(t_min, kTimeScaleFloor x t_max),
// and two times closer than tau = kRelativeTimeTolerance x s = 1e-9 s are
// equal wherever a decision depends on a tie (FNF, EP, classes, searches,
// DPs, theorem hypotheses, auto, captions). tau is relative, so a cluster
// measured in seconds or in microseconds gives the same decisions (every
// time x 1e-6 or x 1e6 gives the same tree); it is far below any real
// difference between two schedules (1e-9 of the fastest message), and far
// above the rounding noise of decimal inputs (0.1 + 0.2 against 0.3). The
// floor 1e-4 t_max matters only when times span more than four orders of
// magnitude: it keeps tau above the rounding noise of sums of slow times
// (~1e-16 of their size), at the price of merging fast times closer than
// 1e-13 t_max. Claims that hold only up to tau say so (makespan/claims.h,
// makespan/sender_speed/theorems.h). verify/ uses its own, local tolerances (verify.h).
inline constexpr double kRelativeTimeTolerance = 1e-9;
inline constexpr double kTimeScaleFloor = 1e-4;

inline double time_scale(double fastest_time, double slowest_time) {
  return std::fmax(fastest_time, kTimeScaleFloor * slowest_time);
}

inline double time_tolerance(double fastest_time, double slowest_time) {
  return kRelativeTimeTolerance * time_scale(fastest_time, slowest_time);
}

// a <= b up to the tolerance.
inline bool time_leq(double a, double b, double tolerance) { return a <= b + tolerance; }
inline bool time_equal(double a, double b, double tolerance) {
  return std::fabs(a - b) <= tolerance;
}

}  // namespace hetcoll
