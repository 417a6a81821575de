#include "hetcoll/makespan/sender_speed/theorems.h"

#include <algorithm>
#include <cmath>

#include "hetcoll/core/distinct_values.h"
#include "hetcoll/core/ids.h"

namespace hetcoll {

namespace {

struct Classes {
  std::vector<double> smallest;  // per class, ascending
  bool exact = true;             // every class holds one distinct double
  double tolerance = 0;
};

// Classes of the tolerance rule over `sorted` (ascending; duplicates allowed).
Classes classes_of_sorted(const std::vector<double>& sorted, double tolerance) {
  Classes classes;
  classes.tolerance = tolerance;
  for (double t : sorted) {
    if (classes.smallest.empty() || !time_equal(classes.smallest.back(), t, classes.tolerance)) {
      classes.smallest.push_back(t);
    } else if (t != classes.smallest.back()) {
      classes.exact = false;
    }
  }
  return classes;
}

// The same classes from the distinct values alone when there are few (one
// pass, no copy of a million times to sort), else from the sorted times.
Classes classes_of(const std::vector<double>& times, double tolerance) {
  if (auto distinct = few_distinct_values(times)) return classes_of_sorted(*distinct, tolerance);
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  return classes_of_sorted(sorted, tolerance);
}

// `slower` is the multiple `multiple` of `unit` up to the rule, the slack
// relative to the unit (the faster time), not to the slower one: relative
// to 1e20, any value is within 1e-9 of a multiple of 3, and 2.000000001 is
// within 1e-9 of twice 1 (issue 7's example of a false theorem claim).
bool is_multiple_within(double slower, double multiple, double unit, double tolerance) {
  return std::fabs(slower - multiple) <= std::fmax(tolerance, kRelativeTimeTolerance * unit);
}

}  // namespace

std::string HypothesisCheck::caveat() const {
  if (exact || !holds) return "";
  return " (the hypothesis holds only up to the tolerance, 1e-9 of the times compared: times that close were treated as "
         "equal or as exact multiples)";
}

std::vector<double> distinct_time_classes(std::vector<double> times, double tolerance) {
  return classes_of(times, tolerance).smallest;
}

HypothesisCheck is_divisibility_chain(const std::vector<double>& times, double tolerance) {
  Classes classes = classes_of(times, tolerance);
  HypothesisCheck check{true, classes.exact};
  // Divisibility is transitive, so neighbouring classes suffice.
  for (size_t i = 1; i < classes.smallest.size(); ++i) {
    const double faster = classes.smallest[i - 1], slower = classes.smallest[i];
    const double multiple = std::round(slower / faster) * faster;
    if (!is_multiple_within(slower, multiple, faster, classes.tolerance)) return {false, false};
    if (slower != multiple) check.exact = false;
  }
  return check;
}

HypothesisCheck is_power_of_two_cluster(const std::vector<double>& times, double tolerance) {
  Classes classes = classes_of(times, tolerance);
  HypothesisCheck check{true, classes.exact};
  for (size_t i = 1; i < classes.smallest.size(); ++i) {
    const double power = std::exp2(std::round(std::log2(classes.smallest[i] / classes.smallest.front())));
    const double target = classes.smallest.front() * power;  // exact: a power of two
    if (!is_multiple_within(classes.smallest[i], target, classes.smallest.front(), classes.tolerance)) {
      return {false, false};
    }
    if (classes.smallest[i] != target) check.exact = false;
  }
  return check;
}

HypothesisCheck has_at_most_two_classes(const std::vector<double>& times, double tolerance) {
  Classes classes = classes_of(times, tolerance);
  if (classes.smallest.size() > 2) return {false, false};
  return {true, classes.exact};
}

HypothesisCheck has_two_classes_with_ratio_at_least(const std::vector<double>& times, double ratio, double tolerance) {
  Classes classes = classes_of(times, tolerance);
  if (classes.smallest.size() > 2) return {false, false};
  if (classes.smallest.size() <= 1) return {true, classes.exact};
  const double needed = ratio * classes.smallest[0];
  if (time_less(classes.smallest[1], needed, classes.tolerance)) return {false, false};
  return {true, classes.exact && classes.smallest[1] >= needed};
}

}  // namespace hetcoll
