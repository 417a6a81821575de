// Shared helpers of the SVG drawings: escaping, numbers, ticks, palette.
#include "hetcoll/viz/svg_support.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

namespace hetcoll::svg {

std::string xml_escape(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&apos;"; break;
      default:
        // XML 1.0 allows no control characters but tab, newline and return.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
          escaped += '?';
        } else {
          escaped += c;
        }
    }
  }
  return escaped;
}

namespace {

bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

std::size_t code_point_count(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return !is_utf8_continuation(c); }));
}

}  // namespace

std::string shorten(std::string_view text, std::size_t max_characters) {
  if (max_characters == 0) return "";
  if (code_point_count(text) <= max_characters) return std::string(text);
  std::size_t kept = 0;
  std::size_t end = 0;
  while (end < text.size()) {
    if (!is_utf8_continuation(text[end])) {
      if (kept == max_characters - 1) break;
      ++kept;
    }
    ++end;
  }
  return std::string(text.substr(0, end)) + "…";
}

std::vector<std::string> wrap_words(std::string_view text, std::size_t max_characters, std::size_t max_lines) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t position = 0;
  while (position < text.size()) {
    std::size_t space = text.find(' ', position);
    if (space == std::string_view::npos) space = text.size();
    const std::string word = shorten(text.substr(position, space - position), max_characters);
    position = space + 1;
    if (word.empty()) continue;
    if (!line.empty() && code_point_count(line) + 1 + code_point_count(word) > max_characters) {
      lines.push_back(std::move(line));
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(std::move(line));
  if (lines.size() > max_lines && max_lines > 0) {
    std::string last = lines[max_lines - 1];
    for (std::size_t i = max_lines; i < lines.size(); ++i) last += " " + lines[i];
    lines.resize(max_lines);
    lines.back() = shorten(last, max_characters);
  }
  return lines;
}

std::vector<std::string> wrap_to_width(std::string_view text, double max_width, double font_size) {
  if (text_width(text, font_size) <= max_width) return {std::string(text)};
  constexpr std::string_view kSeparator = " · ";
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const std::size_t found = text.find(kSeparator, start);
    parts.emplace_back(text.substr(start, found == std::string_view::npos ? std::string_view::npos : found - start));
    if (found == std::string_view::npos) break;
    start = found + kSeparator.size();
  }
  std::vector<std::string> lines;
  std::string line;
  auto add_words = [&](const std::string& part) {
    // A part too wide on its own: by words.
    std::size_t position = 0;
    while (position < part.size()) {
      std::size_t space = part.find(' ', position);
      if (space == std::string::npos) space = part.size();
      const std::string word = part.substr(position, space - position);
      position = space + 1;
      if (!line.empty() && text_width(line + " " + word, font_size) > max_width) {
        lines.push_back(std::move(line));
        line.clear();
      }
      line += (line.empty() ? "" : " ") + word;
    }
  };
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string piece = (i + 1 < parts.size()) ? parts[i] + " ·" : parts[i];
    if (line.empty() && text_width(piece, font_size) <= max_width) {
      line = piece;
    } else if (!line.empty() && text_width(line + " " + piece, font_size) <= max_width) {
      line += " " + piece;
    } else if (text_width(piece, font_size) <= max_width) {
      lines.push_back(std::move(line));
      line = piece;
    } else {
      add_words(piece);
    }
  }
  if (!line.empty()) lines.push_back(std::move(line));
  return lines;
}

std::string shorten_id(std::string_view id, std::size_t max_characters) {
  if (code_point_count(id) <= max_characters || max_characters < 5) return shorten(id, max_characters);
  // Byte offsets of the code points, to cut between them.
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < id.size(); ++i) {
    if (!is_utf8_continuation(id[i])) starts.push_back(i);
  }
  const std::size_t head = max_characters / 2;
  const std::size_t tail = max_characters - 1 - head;
  return std::string(id.substr(0, starts[head])) + "…" + std::string(id.substr(starts[starts.size() - tail]));
}

namespace {

// ASCII punctuation: "-", ".", "_" (never part of a multi-byte character).
bool is_separator(char c) { return (static_cast<unsigned char>(c) & 0x80) == 0 && !std::isalnum(static_cast<unsigned char>(c)); }

}  // namespace

IdShortener::IdShortener(const std::vector<std::string>& ids) {
  if (ids.size() < 2) return;
  std::string_view prefix = ids.front(), suffix = ids.front();
  for (const auto& id : ids) {
    std::size_t p = 0;
    while (p < prefix.size() && p < id.size() && prefix[p] == id[p]) ++p;
    prefix = prefix.substr(0, p);
    std::size_t s = 0;
    while (s < suffix.size() && s < id.size() && suffix[suffix.size() - 1 - s] == id[id.size() - 1 - s]) ++s;
    suffix = suffix.substr(suffix.size() - s);
  }
  // A shared prefix ends just after a separator, a shared suffix starts at one.
  while (!prefix.empty() && !is_separator(prefix.back())) prefix.remove_suffix(1);
  while (!suffix.empty() && !is_separator(suffix.front())) suffix.remove_prefix(1);
  prefix_ = prefix;
  suffix_ = suffix;
}

std::string IdShortener::operator()(std::string_view id, std::size_t max_characters) const {
  if (code_point_count(id) <= max_characters) return std::string(id);
  std::string_view core = id;
  if (!suffix_.empty() && core.size() > suffix_.size() && core.substr(core.size() - suffix_.size()) == suffix_) {
    core.remove_suffix(suffix_.size());
  }
  if (code_point_count(core) + 1 <= max_characters) return std::string(core) + "…";
  // A host name's first label: "bordeplage-12" of "bordeplage-12.bordeaux...".
  if (const auto dot = core.find('.'); dot != std::string_view::npos && dot > 0) core = core.substr(0, dot);
  if (code_point_count(core) + 1 <= max_characters) return std::string(core) + "…";
  if (!prefix_.empty() && core.size() > prefix_.size() && core.substr(0, prefix_.size()) == prefix_) {
    const std::string_view rest = core.substr(prefix_.size());
    if (code_point_count(rest) + 1 <= max_characters) return "…" + std::string(rest);
  }
  return shorten_id(id, max_characters);
}

std::string power_of_ten(int exponent) {
  static const char* const kSuperscriptDigits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string text = "10";
  if (exponent < 0) text += "⁻";
  for (char digit : std::to_string(std::abs(exponent))) text += kSuperscriptDigits[digit - '0'];
  return text;
}

int axis_scale_exponent(const std::vector<double>& ticks) {
  double largest = 0;
  for (double tick : ticks) largest = std::max(largest, std::fabs(tick));
  if (largest == 0 || !std::isfinite(largest) || (largest >= 1e-2 && largest < 1e5)) return 0;
  return 3 * static_cast<int>(std::floor(std::log10(largest) / 3 + 1e-9));
}

std::string format_number(double value) {
  if (!std::isfinite(value)) return value > 0 ? "∞" : (value < 0 ? "-∞" : "NaN");
  if (value == 0) return "0";
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    const double rounded = std::round(value);
    if (std::fabs(value - rounded) <= 1e-9 * std::max(1.0, magnitude)) return fmt::format("{:.0f}", rounded);
    // 4 significant digits, without trailing zeros.
    const int integer_digits = magnitude >= 1 ? static_cast<int>(std::floor(std::log10(magnitude))) + 1 : 0;
    int decimals = std::max(0, 4 - integer_digits);
    if (magnitude < 1) decimals = 3 - static_cast<int>(std::floor(std::log10(magnitude)));
    std::string text = fmt::format("{:.{}f}", value, decimals);
    if (text.find('.') != std::string::npos) {
      while (text.back() == '0') text.pop_back();
      if (text.back() == '.') text.pop_back();
    }
    if (text == "-0") return "0";
    return text;
  }
  // Scientific: drop the exponent's sign "+" and leading zeros (2.5e-6, 1e12).
  std::string text = fmt::format("{:.4g}", value);
  const auto e = text.find('e');
  if (e == std::string::npos) return text;
  std::string exponent = text.substr(e + 1);
  const bool negative = exponent.front() == '-';
  exponent.erase(0, exponent.find_first_not_of("+-0"));
  return text.substr(0, e + 1) + (negative ? "-" : "") + exponent;
}

LinearTicks nice_linear_ticks(double low, double high, int target_count) {
  LinearTicks ticks;
  if (!std::isfinite(low) || !std::isfinite(high)) low = 0, high = 1;
  if (high < low) std::swap(low, high);
  if (high == low) {
    const double pad = low == 0 ? 1 : std::fabs(low) * 0.1;
    low -= low == 0 ? 0 : pad;
    high += pad;
  }
  target_count = std::max(2, target_count);
  const double raw_step = (high - low) / (target_count - 1);
  const double decade = std::pow(10.0, std::floor(std::log10(raw_step)));
  double step = decade;
  for (double factor : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    step = factor * decade;
    if (step >= raw_step * (1 - 1e-9)) break;
  }
  // Slightly tolerant rounding so that a bound equal to a tick up to
  // floating-point noise does not add one more tick.
  const double first = std::floor(low / step + 1e-9) * step;
  const double last = std::ceil(high / step - 1e-9) * step;
  ticks.step = step;
  ticks.low = first;
  ticks.high = last;
  const auto count = static_cast<long>(std::llround((last - first) / step));
  for (long i = 0; i <= count; ++i) {
    double value = first + static_cast<double>(i) * step;
    if (std::fabs(value) < step * 1e-9) value = 0;
    ticks.values.push_back(value);
  }
  return ticks;
}

namespace {

// The exponent of x when x is 2^k for an integer k in [0, 16], else -1.
int power_of_two_exponent(double x) {
  for (int exponent = 0; exponent <= 16; ++exponent) {
    if (x == std::ldexp(1.0, exponent)) return exponent;
  }
  return -1;
}

}  // namespace

LogTicks nice_log_ticks(double low, double high) {
  LogTicks ticks;
  if (!(low > 0) || !std::isfinite(low)) low = 1;
  if (!(high > 0) || !std::isfinite(high)) high = low * 10;
  if (high < low) std::swap(low, high);
  // Data from one power of two to another (processor counts 8 .. 64): ticks
  // at the powers of two between them, every k-th for at most 8 intervals,
  // so that ticks fall on the data; the axis ends a quarter of an interval
  // beyond the data, so that end points do not sit on the frame.
  if (const int first = power_of_two_exponent(low), last = power_of_two_exponent(high); first >= 0 && last >= first + 2) {
    int stride = 1;
    while ((last - first) / stride > 8 || (last - first) % stride != 0) ++stride;
    for (int exponent = first; exponent <= last; exponent += stride) ticks.values.push_back(std::ldexp(1.0, exponent));
    const double margin = std::exp2(0.25 * stride);
    ticks.low = low / margin;
    ticks.high = high * margin;
    return ticks;
  }
  int first_decade = static_cast<int>(std::floor(std::log10(low) + 1e-9));
  int last_decade = static_cast<int>(std::ceil(std::log10(high) - 1e-9));
  if (last_decade == first_decade) ++last_decade;
  // Many decades: label every k-th one, with the last label at or above `high`.
  const int decade_stride = std::max(1, (last_decade - first_decade + 7) / 8);
  last_decade = first_decade + (last_decade - first_decade + decade_stride - 1) / decade_stride * decade_stride;
  // Data spanning few decades: 1-2-5 steps, trimmed to the data below;
  // more: decades only.
  const bool one_two_five = std::log10(high / low) <= 2.5;
  const std::vector<double> multiples = one_two_five ? std::vector<double>{1, 2, 5} : std::vector<double>{1};
  for (int decade = first_decade; decade <= last_decade; ++decade) {
    if ((decade - first_decade) % decade_stride != 0) continue;
    for (double multiple : multiples) {
      if (decade == last_decade && multiple > 1) break;
      ticks.values.push_back(multiple * std::pow(10.0, decade));
    }
  }
  if (one_two_five) {
    while (ticks.values.size() > 2 && ticks.values[1] <= low * (1 + 1e-9)) ticks.values.erase(ticks.values.begin());
    while (ticks.values.size() > 2 && ticks.values[ticks.values.size() - 2] >= high * (1 - 1e-9)) ticks.values.pop_back();
  }
  ticks.low = ticks.values.front();
  ticks.high = ticks.values.back();
  return ticks;
}

std::vector<std::string> format_log_ticks(const std::vector<double>& ticks) {
  const bool plain = std::all_of(ticks.begin(), ticks.end(), [](double tick) { return tick >= 1e-3 && tick < 1e5; });
  std::vector<std::string> labels;
  for (double tick : ticks) {
    if (plain || !(tick > 0)) {
      labels.push_back(format_number(tick));
      continue;
    }
    const int decade = static_cast<int>(std::floor(std::log10(tick) + 1e-9));
    const double mantissa = tick / std::pow(10.0, decade);
    std::string label;
    if (std::fabs(mantissa - 1) > 1e-6) label = format_number(mantissa) + "×";
    labels.push_back(label + power_of_ten(decade));
  }
  return labels;
}

const std::vector<std::string>& palette() {
  static const std::vector<std::string> colours = {
      "#0072B2",  // blue
      "#E69F00",  // orange
      "#009E73",  // bluish green
      "#CC79A7",  // reddish purple
      "#56B4E9",  // sky blue
      "#D55E00",  // vermillion
      "#000000",  // black
      "#882255",  // wine (Tol's muted scheme; Okabe-Ito's yellow is unreadable on white)
  };
  return colours;
}

double text_width(std::string_view text, double font_size) {
  double width_in_em = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (is_utf8_continuation(c)) continue;
    if (byte >= 0x80) {
      width_in_em += 0.84;  // arrows, ellipsis, superscripts: about an em
    } else if (std::string_view(" .,:;'!|il[]()").find(c) != std::string_view::npos) {
      width_in_em += 0.34;
    } else if (std::string_view("frtj-").find(c) != std::string_view::npos) {
      width_in_em += 0.44;
    } else if (std::string_view("mwMW@%").find(c) != std::string_view::npos) {
      width_in_em += 0.98;
    } else if (c >= 'A' && c <= 'Z') {
      width_in_em += 0.74;
    } else if (std::string_view("=+<>~").find(c) != std::string_view::npos) {
      width_in_em += 0.84;
    } else {
      width_in_em += 0.64;
    }
  }
  return width_in_em * font_size;
}

}  // namespace hetcoll::svg
