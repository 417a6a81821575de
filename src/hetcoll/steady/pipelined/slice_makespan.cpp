#include "hetcoll/steady/pipelined/slice_makespan.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

double first_slice_time(const Platform& platform, const BroadcastTree& tree, const TreeCosts& costs) {
  const auto n = static_cast<size_t>(platform.size());
  std::vector<std::vector<size_t>> children(n);  // tree edge indices
  for (size_t i = 0; i < tree.edges.size(); ++i) children[static_cast<size_t>(tree.edges[i].from)].push_back(i);
  auto route_time = [&](size_t i) {
    double t = 0;
    for (auto e : tree.edges[i].route) t += costs.edge_time[e];
    return t;
  };
  // Remaining time below each node if it were alone (post-order), to serve
  // the deepest subtree first.
  std::vector<double> below(n, 0.0);
  std::vector<size_t> order;  // pre-order of nodes
  std::vector<ProcessorIndex> stack{tree.source};
  while (!stack.empty()) {
    auto u = stack.back();
    stack.pop_back();
    order.push_back(static_cast<size_t>(u));
    for (auto i : children[static_cast<size_t>(u)]) stack.push_back(tree.edges[i].to);
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    for (auto i : children[*it]) {
      below[*it] = std::max(below[*it], route_time(i) + below[static_cast<size_t>(tree.edges[i].to)]);
    }
  }
  std::vector<double> arrival(n, 0.0);
  double last = 0;
  for (auto u : order) {
    auto& kids = children[u];
    std::stable_sort(kids.begin(), kids.end(), [&](size_t a, size_t b) {
      return route_time(a) + below[static_cast<size_t>(tree.edges[a].to)] >
             route_time(b) + below[static_cast<size_t>(tree.edges[b].to)];
    });
    double clock = arrival[u];
    for (auto i : kids) {
      double start = clock;
      clock = costs.model == BroadcastModel::one_port ? clock + costs.edge_time[tree.edges[i].route.front()]
                                                 : clock + costs.send_time[u];
      double at = start;
      for (auto e : tree.edges[i].route) at += costs.edge_time[e];
      auto v = static_cast<size_t>(tree.edges[i].to);
      arrival[v] = at;
      last = std::max(last, at);
    }
  }
  return last;
}

SliceMakespan tree_makespan(const Platform& platform, const BroadcastTree& tree, BroadcastModel model,
                            double message_size, double slice_size) {
  if (!(message_size > 0) || !std::isfinite(message_size)) {
    throw InputError(fmt::format("message_size: must be a positive number of bytes, got {}", message_size));
  }
  auto costs = make_tree_costs(platform, slice_size, model);
  SliceMakespan result;
  result.slice_size = slice_size;
  result.slices = static_cast<std::int64_t>(std::ceil(message_size / slice_size - 1e-12));
  result.slices = std::max<std::int64_t>(result.slices, 1);
  result.period = evaluate_tree(platform, tree, costs).period;
  result.first_slice = first_slice_time(platform, tree, costs);
  result.makespan = static_cast<double>(result.slices - 1) * result.period + result.first_slice;
  return result;
}

SliceCountChoice best_slice_count(std::int64_t max_count,
                                  const std::function<double(std::int64_t)>& makespan_of_count) {
  max_count = std::max<std::int64_t>(1, max_count);
  std::int64_t best = 1;
  double best_value = makespan_of_count(1);
  constexpr int kScan = 200;
  for (int i = 1; i <= kScan; ++i) {
    auto k = static_cast<std::int64_t>(std::llround(std::pow(static_cast<double>(max_count), i / double(kScan))));
    k = std::clamp<std::int64_t>(k, 1, max_count);
    double value = makespan_of_count(k);
    if (value < best_value) {
      best = k;
      best_value = value;
    }
  }
  // Integer refinement: halve the step around the best count.
  for (std::int64_t step = std::max<std::int64_t>(1, best / 8); step >= 1; step /= 2) {
    for (bool moved = true; moved;) {
      moved = false;
      for (auto k : {best - step, best + step}) {
        if (k < 1 || k > max_count) continue;
        double value = makespan_of_count(k);
        if (value < best_value) {
          best = k;
          best_value = value;
          moved = true;
        }
      }
    }
  }
  if (best < max_count || max_count == 1) return {best, false};
  // Still falling at the cap: the fewest slices within 1% of it. Without
  // latency the prediction decreases in k, so bisection finds the count.
  double good_enough = 1.01 * best_value;
  std::int64_t low = 1, high = best;  // makespan(high) <= good_enough
  while (low < high) {
    std::int64_t middle = low + (high - low) / 2;
    if (makespan_of_count(middle) <= good_enough) {
      high = middle;
    } else {
      low = middle + 1;
    }
  }
  return {high, true};
}

SliceMakespan best_slice_size(const Platform& platform, const BroadcastTree& tree, BroadcastModel model,
                              double message_size) {
  auto max_count = static_cast<std::int64_t>(std::min(std::floor(message_size), 1e7));
  auto choice = best_slice_count(max_count, [&](std::int64_t k) {
    return tree_makespan(platform, tree, model, message_size, message_size / static_cast<double>(k)).makespan;
  });
  auto result = tree_makespan(platform, tree, model, message_size, message_size / static_cast<double>(choice.count));
  result.within_one_percent = choice.within_one_percent;
  return result;
}

}  // namespace hetcoll
