#include "hetcoll/makespan/sender_speed/reduce/mcp_tree.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/sender_speed/reduce/ep.h"

namespace hetcoll {

std::vector<int> SenderClasses::counts() const {
  std::vector<int> result;
  result.reserve(members.size());
  for (const auto& m : members) result.push_back(static_cast<int>(m.size()));
  return result;
}

int SenderClasses::sender_count() const {
  int total = 0;
  for (const auto& m : members) total += static_cast<int>(m.size());
  return total;
}

SenderClasses sender_classes(const Cluster& cluster, ProcessorIndex root) {
  std::vector<ProcessorIndex> senders;
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != root) senders.push_back(p);
  }
  std::stable_sort(senders.begin(), senders.end(), [&](ProcessorIndex a, ProcessorIndex b) {
    return cluster.transmission_time(a) < cluster.transmission_time(b);
  });
  SenderClasses classes;
  const double tolerance = cluster.tolerance();
  double class_fastest = 0;
  for (auto p : senders) {
    const double t = cluster.transmission_time(p);
    if (classes.times.empty() || !time_leq(t, class_fastest, tolerance)) {
      classes.times.push_back(t);
      classes.members.emplace_back();
      class_fastest = t;
    }
    classes.times.back() = std::max(classes.times.back(), t);
    classes.spread = std::max(classes.spread, t - class_fastest);
    classes.members.back().push_back(p);
  }
  for (auto& m : classes.members) std::sort(m.begin(), m.end());
  return classes;
}

int McpTree::add(int class_index, int left, int right) {
  nodes.push_back({class_index, left, right});
  return static_cast<int>(nodes.size()) - 1;
}

namespace {

// Reversed-time end of every node: the root ends at its own weight, a child
// ends its parent's end plus its own weight. Iterative (trees may be deep).
std::vector<double> reversed_ends(const McpTree& tree, const std::vector<double>& class_times) {
  std::vector<double> end(tree.nodes.size(), 0.0);
  if (tree.root < 0) return end;
  std::vector<int> stack{tree.root};
  end[static_cast<size_t>(tree.root)] = class_times[static_cast<size_t>(tree.nodes[static_cast<size_t>(tree.root)].class_index)];
  while (!stack.empty()) {
    int v = stack.back();
    stack.pop_back();
    for (int child : {tree.nodes[static_cast<size_t>(v)].left, tree.nodes[static_cast<size_t>(v)].right}) {
      if (child < 0) continue;
      end[static_cast<size_t>(child)] =
          end[static_cast<size_t>(v)] +
          class_times[static_cast<size_t>(tree.nodes[static_cast<size_t>(child)].class_index)];
      stack.push_back(child);
    }
  }
  return end;
}

}  // namespace

double mcp_length(const McpTree& tree, const std::vector<double>& class_times) {
  auto end = reversed_ends(tree, class_times);
  return end.empty() ? 0.0 : *std::max_element(end.begin(), end.end());
}

std::vector<ProcessorIndex> ep_order_from_mcp_tree(const McpTree& tree, const SenderClasses& classes) {
  auto end = reversed_ends(tree, classes.times);
  // Forward start = length - reversed end: a larger reversed end starts earlier.
  std::vector<int> nodes(tree.nodes.size());
  std::iota(nodes.begin(), nodes.end(), 0);
  std::stable_sort(nodes.begin(), nodes.end(), [&](int a, int b) {
    if (end[static_cast<size_t>(a)] != end[static_cast<size_t>(b)]) return end[static_cast<size_t>(a)] > end[static_cast<size_t>(b)];
    return tree.nodes[static_cast<size_t>(a)].class_index > tree.nodes[static_cast<size_t>(b)].class_index;
  });
  std::vector<size_t> next_member(classes.members.size(), 0);
  std::vector<ProcessorIndex> order;
  order.reserve(nodes.size());
  for (int v : nodes) {
    const auto c = static_cast<size_t>(tree.nodes[static_cast<size_t>(v)].class_index);
    if (next_member[c] >= classes.members[c].size()) {
      throw std::logic_error("MCP tree uses more senders of a class than the cluster has");
    }
    order.push_back(classes.members[c][next_member[c]++]);
  }
  for (size_t c = 0; c < classes.members.size(); ++c) {
    if (next_member[c] != classes.members[c].size()) {
      throw std::logic_error("MCP tree leaves senders of a class unscheduled");
    }
  }
  return order;
}

MakespanPlan reduce_plan_from_order(const Cluster& cluster, ProcessorIndex root,
                                    const std::vector<ProcessorIndex>& order, std::string algorithm) {
  MakespanPlan plan;
  plan.operation = Operation::reduce;
  plan.algorithm = std::move(algorithm);
  plan.root = root;
  plan.transfers = ep_transfers(cluster, root, order);
  plan.makespan = last_completion(plan.transfers);
  return plan;
}

MakespanPlan plan_from_optimal_mcp_tree(const Cluster& cluster, ProcessorIndex root, const McpTree& tree,
                                        const SenderClasses& classes, double optimum, const char* dp_name,
                                        std::string proof) {
  // Consistency checks of our own code: the tolerance rule (relative to T:
  // the DP merges a time of 3e-19 into a length of 2e-7) plus the rounding
  // noise of summing up to n times in different orders.
  const double slack = tie_tolerance(optimum, optimum, cluster.tolerance()) + 1e-12 * optimum;
  const double tree_length = mcp_length(tree, classes.times);
  if (std::fabs(tree_length - optimum) > slack) {
    throw std::logic_error(fmt::format("{}: rebuilt tree has length {} but T = {}", dp_name, tree_length, optimum));
  }
  MakespanPlan plan = reduce_plan_from_order(cluster, root, ep_order_from_mcp_tree(tree, classes), "dp");
  if (plan.makespan > optimum + slack) {
    throw std::logic_error(fmt::format("{}: EP of the tree order takes {} > T = {}", dp_name, plan.makespan, optimum));
  }
  plan.guarantee = Guarantee::at_most(2.0);  // replaced by `exact` when the bound meets the makespan
  settle_claims(plan, std::max(0.0, optimum - classes.rounding_slack()), cluster.tolerance(), std::move(proof));
  settle_merged_classes(plan, "DP");
  return plan;
}

long double class_sequence_tree_size(const std::vector<int>& counts) {
  // Sum over every sub-vector a <= counts of the multinomial (|a|; a).
  // Built class by class: ways[m] = number of prefixes of length m using the
  // classes seen so far, weighted as multinomials via m! / prod a_i!.
  // Work in log-free form with long double factorial ratios.
  int total = 0;
  for (int c : counts) total += c;
  std::vector<long double> factorial(static_cast<size_t>(total) + 1, 1.0L);
  for (int m = 1; m <= total; ++m) factorial[static_cast<size_t>(m)] = factorial[static_cast<size_t>(m - 1)] * m;
  // poly[m] = sum over sub-vectors of the classes so far with |a| = m of 1 / prod a_i!.
  std::vector<long double> poly{1.0L};
  for (int c : counts) {
    std::vector<long double> next(poly.size() + static_cast<size_t>(c), 0.0L);
    for (size_t m = 0; m < poly.size(); ++m) {
      for (int a = 0; a <= c; ++a) next[m + static_cast<size_t>(a)] += poly[m] / factorial[static_cast<size_t>(a)];
    }
    poly = std::move(next);
  }
  long double size = 0;
  for (size_t m = 0; m < poly.size(); ++m) size += poly[m] * factorial[m];
  return size;
}

}  // namespace hetcoll
