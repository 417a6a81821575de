#include "hetcoll/gen/cluster_generator.h"

#include <cmath>
#include <random>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

Cluster generate_cluster(const ClusterGeneratorOptions& options) {
  // Caps keep a typo from asking for tens of gigabytes.
  constexpr int kMaxProcessors = 100'000'000;
  constexpr int kMaxClasses = 1'000'000;
  if (options.processors < 1 || options.processors > kMaxProcessors) {
    throw InputError("processors", fmt::format("must be between 1 and {}, got {}", kMaxProcessors, options.processors));
  }
  std::vector<double> class_times = options.class_times;
  if (class_times.empty()) {
    if (options.classes < 1 || options.classes > kMaxClasses) {
      throw InputError("classes", fmt::format("must be between 1 and {}, got {}", kMaxClasses, options.classes));
    }
    if (!(options.min_time > 0) || !(options.max_time >= options.min_time) || !std::isfinite(options.max_time)) {
      throw InputError("min_time", "need 0 < min_time <= max_time (both finite)");
    }
    for (int k = 0; k < options.classes; ++k) {
      double fraction = options.classes == 1 ? 0.0 : static_cast<double>(k) / (options.classes - 1);
      class_times.push_back(options.min_time * std::pow(options.max_time / options.min_time, fraction));
    }
  }
  for (double t : class_times) {
    if (!(t > 0) || !std::isfinite(t)) throw InputError(fmt::format("class time {} must be positive and finite", t));
  }
  std::mt19937_64 rng(options.seed);
  std::uniform_int_distribution<size_t> pick(0, class_times.size() - 1);
  std::vector<double> times(static_cast<size_t>(options.processors));
  for (auto& t : times) t = class_times[pick(rng)];
  return Cluster::from_times(std::move(times), "generator");
}

}  // namespace hetcoll
