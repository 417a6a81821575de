#include "hetcoll/core/units.h"

#include <charconv>
#include <cmath>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace hetcoll {

namespace {

constexpr std::pair<std::string_view, double> kByteUnits[] = {
    {"B", 1},
    {"kB", 1e3},
    {"KB", 1e3},
    {"MB", 1e6},
    {"GB", 1e9},
    {"TB", 1e12},
    {"KiB", 1024.0},
    {"MiB", 1024.0 * 1024},
    {"GiB", 1024.0 * 1024 * 1024},
    {"TiB", 1024.0 * 1024 * 1024 * 1024},
};

}  // namespace

std::optional<double> parse_byte_size(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  double value = 0;
  const char* begin = text.data();
  const char* end = begin + text.size();
  auto [stop, error] = std::from_chars(begin, end, value);
  if (error != std::errc() || stop == begin || !std::isfinite(value) || value < 0) return std::nullopt;
  std::string_view unit(stop, static_cast<std::size_t>(end - stop));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  if (unit.empty()) return value;
  for (const auto& [name, factor] : kByteUnits) {
    if (unit == name) {
      const double bytes = value * factor;
      return std::isfinite(bytes) ? std::optional<double>(bytes) : std::nullopt;
    }
  }
  return std::nullopt;
}

std::string byte_size_text(double bytes) {
  // An exact multiple of a unit, largest first, decimal before binary.
  for (const auto& [name, factor] :
       {std::pair<std::string_view, double>{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"TiB", 1099511627776.0},
        {"GiB", 1073741824.0}, {"MiB", 1048576.0}, {"kB", 1e3}, {"KiB", 1024.0}}) {
    const double count = bytes / factor;
    if (count >= 1 && count == std::floor(count) && count < 1e6) return fmt::format("{:g} {}", count, name);
  }
  if (bytes < 1e3) return fmt::format("{:.6g} B", bytes);
  if (bytes < 1e6) return fmt::format("{:.6g} kB", bytes / 1e3);
  if (bytes < 1e9) return fmt::format("{:.6g} MB", bytes / 1e6);
  return fmt::format("{:.6g} GB", bytes / 1e9);
}

std::string time_unit_name(const std::string& unit, bool plural) {
  if (unit.empty()) return plural ? "time units" : "time unit";
  return unit;
}

std::string time_text(double value, const std::string& unit) {
  return fmt::format("{:.6g} {}", value, time_unit_name(unit, value != 1));
}

}  // namespace hetcoll
