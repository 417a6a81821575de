// The special cases in which the papers prove the greedy planners optimal.
// Each function tests its hypothesis on a multiset of transmission times,
// comparing ratios with the tolerance of core/ids.h. O(n log n).
#pragma once

#include <string>
#include <vector>

namespace hetcoll {

// Distinct values (merged up to the tolerance), ascending.
std::vector<double> distinct_time_classes(std::vector<double> times);

// Every slower time is an integer multiple of every faster one (Liu 2002
// Thm 4.5; Liu, Kuo, Wang 2009 sec. 1). True for a single class.
bool is_divisibility_chain(const std::vector<double>& times);

// Every time is t_min * 2^k (a "power 2 cluster", Liu 2002 sec. 4.3,
// Liu, Kuo, Wang 2009 Thm 1).
bool is_power_of_two_cluster(const std::vector<double>& times);

// At most two classes, and (when two) slow >= ratio * fast.
bool has_two_classes_with_ratio_at_least(const std::vector<double>& times, double ratio);

}  // namespace hetcoll
