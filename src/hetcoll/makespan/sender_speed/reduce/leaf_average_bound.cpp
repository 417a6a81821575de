#include "hetcoll/makespan/sender_speed/reduce/leaf_average_bound.h"

#include <algorithm>
#include <bit>
#include <functional>

namespace hetcoll {

namespace {

// Minimum external path length of a binary tree with `leaves` leaves.
double least_tree_leaf_depth(std::int64_t leaves) {
  const int q = std::bit_width(static_cast<std::uint64_t>(leaves)) - 1;
  return static_cast<double>(leaves * q + 2 * (leaves - (std::int64_t{1} << q)));
}

}  // namespace

std::vector<double> least_forest_leaf_depths(int leaves, int merges) {
  std::vector<double> h(static_cast<size_t>(std::max(merges, 0)) + 1, 0.0);
  for (int j = 1; j <= merges; ++j) {
    double best = -1;
    for (int c = 1; c <= j && j + c <= leaves; ++c) {
      const std::int64_t total = j + c;
      const std::int64_t base = total / c;
      const std::int64_t larger = total % c;  // trees with base + 1 leaves
      const double depth = static_cast<double>(larger) * least_tree_leaf_depth(base + 1) +
                           static_cast<double>(c - larger) * least_tree_leaf_depth(base);
      if (best < 0 || depth < best) best = depth;
    }
    h[static_cast<size_t>(j)] = best;
  }
  return h;
}

double reduce_leaf_average_bound(std::vector<double> sender_times) {
  const size_t n = sender_times.size();
  if (n == 0 || n > kLeafAverageMaxSenders) return 0;
  std::sort(sender_times.begin(), sender_times.end(), std::greater<>());  // c_1 >= c_2 >= ...
  const std::vector<double> h = least_forest_leaf_depths(static_cast<int>(n) + 1, static_cast<int>(n));
  double sum = 0;
  for (size_t j = 1; j <= n; ++j) {
    const double next = j < n ? sender_times[j] : 0.0;
    sum += (sender_times[j - 1] - next) * h[j];
  }
  return sum / static_cast<double>(n + 1) * (1 - 1e-12);
}

double reduce_leaf_average_bound(const Cluster& cluster, ProcessorIndex root) {
  std::vector<double> times;
  times.reserve(static_cast<size_t>(cluster.size()));
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != root) times.push_back(cluster.transmission_time(p));
  }
  return reduce_leaf_average_bound(std::move(times));
}

}  // namespace hetcoll
