// Sizes and times as people write and read them: "1MB", "4KiB", "1e6"
// bytes in; "1.29 s", "9 time units", "1 MB" out.
//
// Byte sizes: a non-negative decimal number (1000, 1.5, 1e6) and an
// optional unit, with or without a space: B; the decimal kB/KB (1000),
// MB (10^6), GB (10^9), TB (10^12); the binary KiB (1024), MiB (2^20),
// GiB (2^30), TiB (2^40). Units are written as listed (KB and kB both
// mean 1000); bits (Mb, Mbit) are refused, not guessed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hetcoll {

// The number of bytes `text` denotes, or nullopt when it is not a size as
// above (an unknown unit, a missing number, trailing text, NaN or infinity).
std::optional<double> parse_byte_size(std::string_view text);

// "1 MB", "4 KiB", "1500 B", "1.04858 MB": the exact decimal or binary
// multiple when there is one, else decimal units with 6 significant digits.
std::string byte_size_text(double bytes);

// A time with its unit and 6 significant digits: "0.487787 s",
// "9 time units" (`unit` empty: a platform that declares none).
std::string time_text(double value, const std::string& unit);

// The unit as a noun after a number or "per": "s", "ms", "time unit(s)".
std::string time_unit_name(const std::string& unit, bool plural = true);

}  // namespace hetcoll
