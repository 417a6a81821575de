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

// Times are doubles given by the user. Two times closer than
// `time_tolerance(smallest_time)` are treated as equal wherever a decision
// depends on a tie (FNF, EP, searches, the verifier). The tolerance is
// relative to the smallest transmission time so that it means the same for
// clusters measured in seconds or in microseconds, and it is far below any
// real difference between two schedules (1e-9 of the fastest message).
inline constexpr double kRelativeTimeTolerance = 1e-9;

inline double time_tolerance(double smallest_time) {
  return kRelativeTimeTolerance * smallest_time;
}

// a <= b up to the tolerance.
inline bool time_leq(double a, double b, double tolerance) { return a <= b + tolerance; }
inline bool time_equal(double a, double b, double tolerance) {
  return std::fabs(a - b) <= tolerance;
}

}  // namespace hetcoll
