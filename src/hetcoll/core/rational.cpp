#include "hetcoll/core/rational.h"

#include <charconv>
#include <cmath>
#include <stdexcept>

namespace hetcoll {

namespace {

// Parses [-]digits[.digits][e[+-]digits] exactly.
bool parse_decimal(std::string_view text, Rational& out) {
  std::size_t position = 0;
  bool negative = false;
  if (position < text.size() && (text[position] == '-' || text[position] == '+')) {
    negative = text[position] == '-';
    ++position;
  }
  std::string digits;
  long long fraction_digits = 0;
  bool seen_point = false;
  bool seen_digit = false;
  for (; position < text.size(); ++position) {
    const char c = text[position];
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
      seen_digit = true;
      if (seen_point) ++fraction_digits;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!seen_digit) return false;
  long long exponent = 0;
  if (position < text.size() && (text[position] == 'e' || text[position] == 'E')) {
    ++position;
    const char* begin = text.data() + position;
    if (position < text.size() && text[position] == '+') ++begin;
    auto [end, error] = std::from_chars(begin, text.data() + text.size(), exponent);
    if (error != std::errc() || end != text.data() + text.size()) return false;
    if (exponent > 100000 || exponent < -100000) return false;
    position = text.size();
  }
  if (position != text.size()) return false;
  BigInteger numerator(digits, 10);
  if (negative) numerator = -numerator;
  const long long scale = exponent - fraction_digits;
  BigInteger power;
  mpz_ui_pow_ui(power.get_mpz_t(), 10, static_cast<unsigned long>(scale < 0 ? -scale : scale));
  if (scale >= 0) {
    out = Rational(numerator * power);
  } else {
    out = Rational(numerator, power);
    out.canonicalize();
  }
  return true;
}

}  // namespace

Rational rational_from_double(double value) {
  if (!std::isfinite(value)) throw std::invalid_argument("rational_from_double: not a finite number");
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  if (error != std::errc()) throw std::invalid_argument("rational_from_double: cannot format");
  Rational result;
  if (!parse_decimal(std::string_view(buffer, static_cast<std::size_t>(end - buffer)), result)) {
    throw std::invalid_argument("rational_from_double: cannot parse " + std::string(buffer, end));
  }
  return result;
}

std::string to_string(const Rational& value) {
  if (value.get_den() == 1) return value.get_num().get_str();
  return value.get_num().get_str() + "/" + value.get_den().get_str();
}

std::string to_string(const BigInteger& value) { return value.get_str(); }

bool parse_rational(std::string_view text, Rational& out) {
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return parse_decimal(text, out);
  Rational numerator;
  Rational denominator;
  const auto is_integer = [](std::string_view part) {
    std::size_t start = (!part.empty() && (part[0] == '-' || part[0] == '+')) ? 1 : 0;
    if (start == part.size()) return false;
    for (std::size_t i = start; i < part.size(); ++i) {
      if (part[i] < '0' || part[i] > '9') return false;
    }
    return true;
  };
  const auto top = text.substr(0, slash);
  const auto bottom = text.substr(slash + 1);
  if (!is_integer(top) || !is_integer(bottom)) return false;
  if (!parse_decimal(top, numerator) || !parse_decimal(bottom, denominator)) return false;
  if (denominator == 0) return false;
  out = numerator / denominator;
  return true;
}

BigInteger lcm(const BigInteger& a, const BigInteger& b) {
  BigInteger result;
  mpz_lcm(result.get_mpz_t(), a.get_mpz_t(), b.get_mpz_t());
  return result;
}

BigInteger lcm_of_denominators(const std::vector<Rational>& values) {
  BigInteger result = 1;
  for (const auto& value : values) {
    if (value.get_den() != 1) result = lcm(result, value.get_den());
  }
  return result;
}

BigInteger whole_number(const Rational& value) {
  if (value.get_den() != 1) throw std::logic_error("expected a whole number, got " + to_string(value));
  return value.get_num();
}

BigInteger floor_of(const Rational& value) {
  BigInteger result;
  mpz_fdiv_q(result.get_mpz_t(), value.get_num_mpz_t(), value.get_den_mpz_t());
  return result;
}

BigInteger ceil_of(const Rational& value) {
  BigInteger result;
  mpz_cdiv_q(result.get_mpz_t(), value.get_num_mpz_t(), value.get_den_mpz_t());
  return result;
}

}  // namespace hetcoll
