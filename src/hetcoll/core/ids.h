// Processor indices and the tolerance rule for comparing times.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
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
// doubles given by the user. Two quantities a and b (times, sums of times,
// makespans, bounds) are equal wherever a decision or a claim depends on a
// tie (FNF, EP, classes, searches, DPs, theorem hypotheses, auto, claims,
// captions) when
//   |a - b| <= max(tau, kRelativeTimeTolerance x max(|a|, |b|)),
//   tau = kRelativeTimeTolerance x t_min (the instance's fastest time).
// The bound is relative to the quantities compared: rescaling every time by
// 1e-6 or 1e6 gives the same decisions, sums of slow times keep their
// rounding noise (~1e-16 of their size) far below it, decimal inputs
// (0.1 + 0.2 against 0.3) tie, and two values that differ by more than a
// billionth of the larger one are never equal — whatever else the instance
// holds (1e-20 and 1 are not equal next to a time of 1e20). tau only sets
// the floor for values near zero (a ready time of 0 against t_min x 1e-10).
// Claims that hold only up to the rule say so (makespan/claims.h,
// makespan/sender_speed/theorems.h). verify/ uses its own, local tolerances (verify.h).
inline constexpr double kRelativeTimeTolerance = 1e-9;

// The instance's time scale: its fastest time (`slowest_time` is kept for
// the callers that pass both; it no longer matters).
inline double time_scale(double fastest_time, [[maybe_unused]] double slowest_time) { return fastest_time; }

// tau: the floor of the rule, for an instance whose fastest time is given.
inline double time_tolerance(double fastest_time, double slowest_time) {
  return kRelativeTimeTolerance * time_scale(fastest_time, slowest_time);
}

// The largest difference between `a` and `b` that is still a tie. An
// infinite value (an empty incumbent, an unreachable node) is compared
// exactly: a relative tolerance of an infinity would make every finite value
// its tie.
inline double tie_tolerance(double a, double b, double tolerance) {
  const double larger = std::fmax(std::fabs(a), std::fabs(b));
  if (!std::isfinite(larger)) return tolerance;
  return std::fmax(tolerance, kRelativeTimeTolerance * larger);
}

// a <= b up to the rule.
inline bool time_leq(double a, double b, double tolerance) { return a <= b + tie_tolerance(a, b, tolerance); }
// a < b beyond the rule (not a tie).
inline bool time_less(double a, double b, double tolerance) { return a < b - tie_tolerance(a, b, tolerance); }
inline bool time_equal(double a, double b, double tolerance) {
  return std::fabs(a - b) <= tie_tolerance(a, b, tolerance);
}

// The largest time (or edge cost) accepted on an instance of `count`
// processors or nodes: a plan adds up to count transfers of up to count
// costs each, and an all-reduce two such phases (4 x count^2 with a margin
// of 2), so every sum a planner forms stays a finite double. Larger times
// are refused at input (exit code 2) instead of overflowing to inf.
inline double largest_accepted_time(double count) {
  const double n = count < 1 ? 1 : count;
  return std::numeric_limits<double>::max() / (4 * n * n);
}

}  // namespace hetcoll
