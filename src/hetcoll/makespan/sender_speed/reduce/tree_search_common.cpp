#include "hetcoll/makespan/sender_speed/reduce/tree_search_common.h"

#include "hetcoll/core/error.h"
#include "hetcoll/core/ids.h"

namespace hetcoll {

void check_reduce_search_classes(const std::vector<double>& class_times, const std::vector<int>& counts) {
  if (class_times.size() != counts.size()) throw InputError("reduce search: one count per class");
  for (size_t i = 0; i < class_times.size(); ++i) {
    if (!(class_times[i] > 0) || (i > 0 && !(class_times[i] > class_times[i - 1]))) {
      throw InputError("reduce search: class times must be positive and strictly ascending");
    }
    if (counts[i] < 0) throw InputError("reduce search: negative count");
  }
}

double reduce_search_tolerance(const std::vector<double>& class_times, double tolerance) {
  if (tolerance >= 0) return tolerance;
  return class_times.empty() ? 0.0 : time_tolerance(class_times.front(), class_times.back());
}

}  // namespace hetcoll
