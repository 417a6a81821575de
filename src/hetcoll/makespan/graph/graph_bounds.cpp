#include "hetcoll/makespan/graph/graph_bounds.h"

#include <algorithm>

#include "hetcoll/makespan/bounds.h"
#include "hetcoll/model/shortest_paths.h"

namespace hetcoll {

double doubling_term(const GraphNetwork& network, std::size_t participants) {
  if (participants < 2 || !network.all_participants_one_port()) return 0;
  const double delta = std::max(network.smallest_send_cost(), network.smallest_receive_cost());
  if (!(delta < kNoRoute)) return 0;
  // ceil(log2(N / 2)) = ceil(log2 N) - 1 for N >= 2.
  return delta * (ceil_log2(static_cast<std::int64_t>(participants)) - 1);
}

namespace {

constexpr std::size_t kMaxBandwidthThresholds = 32;

// The least time of any chain of transfers from `root` to every node
// (towards: from every node to `root`). A chain along the walk P takes at
// least w(P) + size / (narrowest bandwidth on P), w = fixed costs and
// latencies (each transfer's route time counts its own, and the narrowest
// link of one of them is the walk's). For each bandwidth threshold b:
// the cheapest w over edges of bandwidth >= b (fixed-cost edges always),
// plus size / b — the minimum over thresholds is below every walk's value.
// With more than kMaxBandwidthThresholds distinct bandwidths, a subset is
// used and each threshold adds size / (the next one up) instead, which stays
// below the walk's value.
std::vector<double> chain_time_bounds(const GraphNetwork& network, ProcessorIndex root, bool towards) {
  const Platform& platform = network.platform();
  const auto& edges = platform.edges();
  std::vector<double> bandwidths;
  for (const auto& edge : edges) {
    if (!edge.cost && edge.bandwidth) bandwidths.push_back(*edge.bandwidth);
  }
  std::sort(bandwidths.begin(), bandwidths.end());
  bandwidths.erase(std::unique(bandwidths.begin(), bandwidths.end()), bandwidths.end());
  auto run = [&](const std::vector<double>& weights) {
    return towards ? shortest_paths_to(platform, root, weights).distance
                   : shortest_paths_from(platform, root, weights).distance;
  };
  std::vector<double> weights(edges.size());
  for (std::size_t e = 0; e < edges.size(); ++e) weights[e] = edges[e].cost ? *edges[e].cost : kNoRoute;
  std::vector<double> best = run(weights);  // walks over fixed-cost edges only
  if (bandwidths.empty()) return best;
  const double size = network.message_size().value_or(0.0);
  std::vector<double> thresholds = bandwidths;
  const bool exact = thresholds.size() <= kMaxBandwidthThresholds;
  if (!exact) {
    std::vector<double> subset;
    for (std::size_t j = 0; j < kMaxBandwidthThresholds; ++j) {
      subset.push_back(bandwidths[j * bandwidths.size() / kMaxBandwidthThresholds]);
    }
    thresholds = subset;
  }
  for (std::size_t j = 0; j < thresholds.size(); ++j) {
    const double b = thresholds[j];
    const double rate = exact ? b : (j + 1 < thresholds.size() ? thresholds[j + 1] : bandwidths.back());
    for (std::size_t e = 0; e < edges.size(); ++e) {
      if (!edges[e].cost) weights[e] = *edges[e].bandwidth >= b ? edges[e].latency.value_or(0.0) : kNoRoute;
    }
    const auto distance = run(weights);
    for (std::size_t v = 0; v < best.size(); ++v) best[v] = std::min(best[v], distance[v] + size / rate);
  }
  return best;
}

double farthest(const std::vector<double>& bound, const std::vector<ProcessorIndex>& nodes, ProcessorIndex except) {
  double result = 0;
  for (auto v : nodes) {
    if (v != except) result = std::max(result, bound[static_cast<std::size_t>(v)]);
  }
  return result;
}

double broadcast_bound(const GraphNetwork& network, ProcessorIndex source, const std::vector<ProcessorIndex>& targets) {
  std::size_t count = 1;
  for (auto t : targets) count += t != source ? 1 : 0;
  if (count < 2) return 0;
  const double bound = network.smallest_out_cost(source) + doubling_term(network, count);
  return std::max(bound, farthest(chain_time_bounds(network, source, false), targets, source));
}

// Into `root`, before the root's last combine (see graph_bounds.h).
double gather_bound(const GraphNetwork& network, ProcessorIndex root) {
  const auto& participants = network.participants();
  if (participants.size() < 2) return 0;
  const double bound = network.smallest_in_cost(root) + doubling_term(network, participants.size());
  return std::max(bound, farthest(chain_time_bounds(network, root, true), participants, root));
}

double reduce_bound(const GraphNetwork& network, ProcessorIndex root) {
  if (network.participants().size() < 2) return 0;
  return network.combine_time(root) + gather_bound(network, root);
}

}  // namespace

double graph_broadcast_lower_bound(const GraphNetwork& network, ProcessorIndex source) {
  return broadcast_bound(network, source, network.participants());
}

double graph_multicast_lower_bound(const GraphNetwork& network, ProcessorIndex source,
                                   const std::vector<ProcessorIndex>& targets) {
  return broadcast_bound(network, source, targets);
}

double graph_reduce_lower_bound(const GraphNetwork& network, ProcessorIndex root) {
  return reduce_bound(network, root);
}

double graph_allreduce_lower_bound(const GraphNetwork& network, ProcessorIndex root) {
  const auto& participants = network.participants();
  if (participants.size() < 2) return 0;
  if (participants.size() > kBoundRootsWithDistances) {
    return gather_bound(network, root == kNoProcessor ? participants.front() : root);
  }
  double best = 0;
  for (auto r : participants) best = std::max(best, gather_bound(network, r));
  return best;
}

}  // namespace hetcoll
