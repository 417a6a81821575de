// Building blocks shared by the SVG drawings of viz/ (Gantt charts, trees,
// line plots): XML escaping, compact number formatting, "nice" axis ticks,
// a colour-blind-friendly palette and a rough text-width estimate so that
// labels are only placed where they fit.
//
// The pictures are plain SVG 1.1 text with no scripts or external resources,
// so they display in browsers, in rsvg-convert and in Inkscape alike.
#pragma once

#include <cmath>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace hetcoll::svg {

// Accumulates SVG text. Floating-point arguments are rounded to 0.01 (a
// hundredth of a pixel) so that coordinates print short ("12.5", not
// "12.500000000000002") and never as "-0".
class SvgText {
 public:
  template <typename... Args>
  void add(fmt::format_string<Args...> format, Args&&... args) {
    fmt::vformat_to(std::back_inserter(text_), fmt::string_view(format), fmt::make_format_args(tidy(args)...));
  }
  void add_raw(std::string_view text) { text_ += text; }
  std::string take() { return std::move(text_); }
  std::size_t size() const { return text_.size(); }

 private:
  template <typename T>
  static decltype(auto) tidy(const T& value) {
    if constexpr (std::is_floating_point_v<T>) {
      return std::round(static_cast<double>(value) * 100) / 100 + 0.0;
    } else {
      return (value);
    }
  }
  std::string text_;
};

// Escapes & < > " ' and replaces control characters that XML 1.0 forbids, so
// any processor id can go into text and attribute values.
std::string xml_escape(std::string_view text);

// At most `max_characters` code points (UTF-8 aware); longer text ends in "…".
std::string shorten(std::string_view text, std::size_t max_characters);

// Lines of at most `max_characters` code points, broken at spaces (a word
// longer than that is shortened); at most `max_lines` lines, the last one
// shortened when the text does not fit. Legends use it so that long series
// names are wrapped, not cut.
std::vector<std::string> wrap_words(std::string_view text, std::size_t max_characters, std::size_t max_lines = 3);

// Lines no wider than `max_width` pixels at `font_size` (text_width), broken
// after a " · " between parts when it can, else between words: headlines
// and notes that would run off the picture.
std::vector<std::string> wrap_to_width(std::string_view text, double max_width, double font_size);

// The same, cutting in the middle ("rack0-node…stname-12"): processor ids
// often share a long prefix and differ at the end.
std::string shorten_id(std::string_view id, std::size_t max_characters);

// Short names for a set of ids drawn together, keeping the part that tells
// them apart: the suffix every id shares (".bordeaux.grid5000.fr") goes
// first ("bordeplage-12…"), then the domain part after a host name's first
// dot, then a prefix every id shares ("…12"); a cut in the middle
// (shorten_id) only when none of these fits. Shared parts end (prefix) or
// start (suffix) at a separator, so "node-1" and "node-12" keep their digits.
class IdShortener {
 public:
  IdShortener() = default;
  explicit IdShortener(const std::vector<std::string>& ids);
  std::string operator()(std::string_view id, std::size_t max_characters) const;

 private:
  std::string prefix_, suffix_;
};

// "10⁶", "10⁻³": a power of ten with a Unicode superscript exponent.
std::string power_of_ten(int exponent);

// For a linear axis whose ticks would print as tiny or huge numbers: the
// exponent (a multiple of 3) to divide them by, so that labels read "2.5"
// and the axis title says "(×10⁻⁶)"; 0 when plain labels read well.
int axis_scale_exponent(const std::vector<double>& ticks);

// Up to 4 significant digits, integers without a decimal point, no "-0":
// 3, 0.5, 1.333, 12500, 2.5e-6.
std::string format_number(double value);

// Evenly spaced round values (steps of 1, 2 or 5 x 10^k) covering [low, high]
// with about `target_count` ticks; `low` and `high` of the result are the
// first and last tick, so an axis drawn over them starts and ends on a tick.
struct LinearTicks {
  double low = 0, high = 1, step = 1;
  std::vector<double> values;
};
LinearTicks nice_linear_ticks(double low, double high, int target_count = 7);

// Ticks of a log10 axis over [low, high] (both > 0): whole decades (every
// k-th when there are many), with 2 and 5 in between when the data span at
// most 2.5 decades; `low`/`high` of the result are the end ticks. Data from
// 2^i to 2^j (0 <= i, i + 2 <= j <= 16) get ticks at powers of two instead,
// and `low`/`high` a quarter of a tick interval beyond the end ticks.
struct LogTicks {
  double low = 1, high = 10;
  std::vector<double> values;
};
LogTicks nice_log_ticks(double low, double high);

// The labels of a log axis, in one style for the whole axis: plain numbers
// when every tick lies in [0.001, 100000), otherwise powers of ten with
// Unicode superscripts ("10⁶", "2×10⁻³").
std::vector<std::string> format_log_ticks(const std::vector<double>& ticks);

// Okabe–Ito palette (distinguishable with the common colour-vision
// deficiencies), ordered so that the first colours contrast most.
const std::vector<std::string>& palette();

// A generous estimate of the width of `text` in the sans-serif font used by
// these drawings (DejaVu Sans metrics), so that "does it fit" errs on no.
double text_width(std::string_view text, double font_size);

// The font-family attribute value used by every drawing.
inline constexpr const char* kFontFamily = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif";

}  // namespace hetcoll::svg
