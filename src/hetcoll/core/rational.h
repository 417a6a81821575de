// Exact numbers for the steady-state layer (built with HETCOLL_WITH_LP).
//
// Steady-state problems are solved in floating point, then every answer the
// tool prints as exact — throughput, message rates, periods, slot lengths,
// tree weights, dual values — is an exact rational (GMP's mpq_class) or a
// big integer (mpz_class), computed and checked without rounding.
//
// User numbers are doubles read from decimal text. rational_from_double()
// takes the value the user wrote: the shortest decimal that reads back to the
// same double (0.1 -> 1/10, not 3602879701896397/36028797018963968). Every
// double is converted this way, so two runs on the same file always build the
// same exact problem.
//
// Stable interface (used by the steady and pipelined-broadcast layers).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <gmpxx.h>

namespace hetcoll {

using Rational = mpq_class;
using BigInteger = mpz_class;

// The shortest decimal representation of `value` as an exact rational.
// Throws std::invalid_argument for NaN or infinity.
Rational rational_from_double(double value);

// "p/q", or "p" when the denominator is 1 (always canonical: q > 0, gcd 1).
std::string to_string(const Rational& value);
std::string to_string(const BigInteger& value);

// Reads "p/q", "p", or a decimal such as "0.25", "-3", "1e-3" exactly.
// Returns false (and leaves `out` unspecified) when the text is not a number.
bool parse_rational(std::string_view text, Rational& out);

// Least common multiple of the denominators (1 for an empty list).
BigInteger lcm_of_denominators(const std::vector<Rational>& values);
BigInteger lcm(const BigInteger& a, const BigInteger& b);

// The nearest double (for printing "throughput_value").
inline double to_double(const Rational& value) { return value.get_d(); }

// The integer a rational equals; throws std::logic_error when it is not one
// (for counts that must be whole by construction).
BigInteger whole_number(const Rational& value);

// floor and ceil of a rational.
BigInteger floor_of(const Rational& value);
BigInteger ceil_of(const Rational& value);

}  // namespace hetcoll
