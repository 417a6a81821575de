// The special cases in which the papers prove the greedy planners optimal.
// Each function tests its hypothesis on a multiset of transmission times
// under the tolerance rule (core/ids.h) and says whether it holds exactly on
// the doubles given or only up to the rule (e.g. 1 and 2.0000000005 as a
// divisibility chain, or 0.1 and 0.3, whose doubles are not exactly 1 : 3).
// A multiple is accepted within 1e-9 of the faster time (not of the slower:
// relative to 1e20, every value is near a multiple of 3). A claim resting on
// a hypothesis that holds only up to the rule says so in its proof text.
// O(n log n).
#pragma once

#include <string>
#include <vector>

namespace hetcoll {

struct HypothesisCheck {
  bool holds = false;  // up to the tolerance
  bool exact = false;  // on the doubles as given (implies holds)

  explicit operator bool() const { return holds; }
  // "" when exact, else " (holds only up to the tolerance: ...)" for proofs.
  std::string caveat() const;
};

// Distinct values (merged when within the tolerance of the class's first,
// smallest value), ascending.
std::vector<double> distinct_time_classes(std::vector<double> times, double tolerance);

// Every slower time is an integer multiple of every faster one (Liu 2002
// Thm 4.5; Liu, Kuo, Wang 2009 sec. 1). True for a single class.
HypothesisCheck is_divisibility_chain(const std::vector<double>& times, double tolerance);

// Every time is t_min * 2^k (a "power 2 cluster", Liu 2002 sec. 4.3,
// Liu, Kuo, Wang 2009 Thm 1).
HypothesisCheck is_power_of_two_cluster(const std::vector<double>& times, double tolerance);

// At most two classes, and (when two) slow >= ratio * fast.
HypothesisCheck has_two_classes_with_ratio_at_least(const std::vector<double>& times, double ratio, double tolerance);

// At most two classes (any ratio).
HypothesisCheck has_at_most_two_classes(const std::vector<double>& times, double tolerance);

}  // namespace hetcoll
