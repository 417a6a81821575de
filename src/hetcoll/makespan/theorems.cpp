#include "hetcoll/makespan/theorems.h"

#include <algorithm>
#include <cmath>

#include "hetcoll/core/ids.h"

namespace hetcoll {

namespace {
bool is_integer_ratio(double slower, double faster) {
  double ratio = slower / faster;
  return std::fabs(ratio - std::round(ratio)) <= 1e-9 * ratio;
}
}  // namespace

std::vector<double> distinct_time_classes(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  std::vector<double> distinct;
  if (times.empty()) return distinct;
  const double tolerance = time_tolerance(times.front());
  for (double t : times) {
    if (distinct.empty() || !time_equal(distinct.back(), t, tolerance)) distinct.push_back(t);
  }
  return distinct;
}

bool is_divisibility_chain(const std::vector<double>& times) {
  auto classes = distinct_time_classes(times);
  // Divisibility is transitive, so neighbouring classes suffice.
  for (size_t i = 1; i < classes.size(); ++i) {
    if (!is_integer_ratio(classes[i], classes[i - 1])) return false;
  }
  return true;
}

bool is_power_of_two_cluster(const std::vector<double>& times) {
  auto classes = distinct_time_classes(times);
  for (size_t i = 1; i < classes.size(); ++i) {
    double ratio = classes[i] / classes.front();
    double exponent = std::round(std::log2(ratio));
    if (std::fabs(ratio - std::exp2(exponent)) > 1e-9 * ratio) return false;
  }
  return true;
}

bool has_two_classes_with_ratio_at_least(const std::vector<double>& times, double ratio) {
  auto classes = distinct_time_classes(times);
  if (classes.size() <= 1) return true;
  if (classes.size() > 2) return false;
  return classes[1] >= ratio * classes[0] * (1 - 1e-12);
}

}  // namespace hetcoll
