#include "hetcoll/makespan/sender_speed/broadcast/ordered_tree.h"

#include <algorithm>

namespace hetcoll {

std::vector<Transfer> ordered_tree_transfers(const Cluster& cluster, ProcessorIndex source,
                                         const std::vector<std::vector<ProcessorIndex>>& children,
                                         double start_time) {
  std::vector<Transfer> transfers;
  std::vector<std::pair<ProcessorIndex, double>> stack{{source, start_time}};
  while (!stack.empty()) {
    auto [sender, ready] = stack.back();
    stack.pop_back();
    if (static_cast<size_t>(sender) >= children.size()) continue;
    const double send_time = cluster.transmission_time(sender);
    double clock = ready;
    for (ProcessorIndex child : children[static_cast<size_t>(sender)]) {
      transfers.push_back({sender, child, clock, clock + send_time, Payload::broadcast_value});
      clock += send_time;
      stack.push_back({child, clock});
    }
  }
  std::sort(transfers.begin(), transfers.end(), [](const Transfer& a, const Transfer& b) {
    return a.start != b.start ? a.start < b.start : a.from != b.from ? a.from < b.from : a.to < b.to;
  });
  return transfers;
}

std::vector<std::vector<ProcessorIndex>> ordered_children(const std::vector<Transfer>& transfers,
                                                          ProcessorIndex processor_count) {
  std::vector<const Transfer*> sorted;
  sorted.reserve(transfers.size());
  for (const auto& transfer : transfers) sorted.push_back(&transfer);
  std::sort(sorted.begin(), sorted.end(), [](const Transfer* a, const Transfer* b) {
    return a->start != b->start ? a->start < b->start : a->to < b->to;
  });
  std::vector<std::vector<ProcessorIndex>> children(static_cast<size_t>(processor_count));
  for (const Transfer* transfer : sorted) children[static_cast<size_t>(transfer->from)].push_back(transfer->to);
  return children;
}

std::vector<Transfer> prune_idle_helpers(const Cluster& cluster, ProcessorIndex source,
                                         const std::vector<Transfer>& transfers,
                                         const std::vector<ProcessorIndex>& targets) {
  const ProcessorIndex n = cluster.size();
  auto children = ordered_children(transfers, n);
  std::vector<char> is_target(static_cast<size_t>(n), 0);
  for (ProcessorIndex target : targets) is_target[static_cast<size_t>(target)] = 1;
  // Post-order removal: a child is kept when it is a target or keeps a child.
  std::vector<char> keep(static_cast<size_t>(n), 0);
  std::vector<std::pair<ProcessorIndex, bool>> stack{{source, false}};
  while (!stack.empty()) {
    auto [p, expanded] = stack.back();
    stack.pop_back();
    auto& list = children[static_cast<size_t>(p)];
    if (!expanded) {
      stack.push_back({p, true});
      for (ProcessorIndex child : list) stack.push_back({child, false});
      continue;
    }
    std::erase_if(list, [&](ProcessorIndex child) { return !keep[static_cast<size_t>(child)]; });
    keep[static_cast<size_t>(p)] = is_target[static_cast<size_t>(p)] || !list.empty() || p == source;
  }
  return ordered_tree_transfers(cluster, source, children);
}

}  // namespace hetcoll
