// Extracts the communication tree(s) of a makespan plan for the drawings.
#include "hetcoll/viz/communication_tree.h"

#include <algorithm>
#include <limits>

namespace hetcoll {

namespace {

constexpr std::size_t kNotInTree = std::numeric_limits<std::size_t>::max();

bool is_valid(ProcessorIndex p, ProcessorIndex processor_count) { return p >= 0 && p < processor_count; }

// The transfers of one phase, all assumed to carry `payload`.
TreePhase build_phase(const std::vector<const Transfer*>& transfers, const Transfer* first, Payload payload,
                      ProcessorIndex root, ProcessorIndex processor_count, double start_time) {
  TreePhase phase;
  phase.payload = payload;
  phase.start_time = start_time;
  phase.end_time = start_time;
  const auto n = static_cast<std::size_t>(processor_count);
  const bool towards_root = payload == Payload::partial_reduction;

  // The link of each processor to its parent: the first message wins (for a
  // broadcast the earliest-ending receive, for a reduce the earliest send).
  std::vector<const Transfer*> link(n, nullptr);
  std::vector<double> last_receive_end(n, start_time);
  std::vector<bool> involved(n, false);
  for (const Transfer* transfer : transfers) {
    phase.end_time = std::max(phase.end_time, transfer->end);
    const auto from = static_cast<std::size_t>(transfer->from);
    const auto to = static_cast<std::size_t>(transfer->to);
    involved[from] = involved[to] = true;
    last_receive_end[to] = std::max(last_receive_end[to], transfer->end);
    const std::size_t child = towards_root ? from : to;
    if (child == static_cast<std::size_t>(root)) continue;
    if (link[child] == nullptr || transfer->end < link[child]->end) link[child] = transfer;
  }

  // Children lists in processor space, then breadth-first from the root.
  std::vector<std::vector<ProcessorIndex>> children_of(n);
  for (std::size_t child = 0; child < n; ++child) {
    if (link[child] == nullptr) continue;
    const ProcessorIndex parent = towards_root ? link[child]->to : link[child]->from;
    children_of[static_cast<std::size_t>(parent)].push_back(static_cast<ProcessorIndex>(child));
  }
  for (auto& children : children_of) {
    std::sort(children.begin(), children.end(), [&](ProcessorIndex a, ProcessorIndex b) {
      const Transfer& la = *link[static_cast<std::size_t>(a)];
      const Transfer& lb = *link[static_cast<std::size_t>(b)];
      if (la.start != lb.start) return la.start < lb.start;
      if (la.end != lb.end) return la.end < lb.end;
      return a < b;
    });
  }

  std::vector<std::size_t> node_of(n, kNotInTree);
  TreeNode root_node;
  root_node.processor = root;
  root_node.ready_time = towards_root ? last_receive_end[static_cast<std::size_t>(root)] : start_time;
  phase.nodes.push_back(root_node);
  node_of[static_cast<std::size_t>(root)] = 0;
  for (std::size_t next = 0; next < phase.nodes.size(); ++next) {
    const ProcessorIndex parent_processor = phase.nodes[next].processor;
    for (ProcessorIndex child : children_of[static_cast<std::size_t>(parent_processor)]) {
      const auto child_slot = static_cast<std::size_t>(child);
      if (node_of[child_slot] != kNotInTree) continue;  // a cycle back into the tree
      const Transfer& transfer = *link[child_slot];
      TreeNode node;
      node.processor = child;
      node.parent = next;
      node.depth = phase.nodes[next].depth + 1;
      node.ready_time = towards_root ? last_receive_end[child_slot] : transfer.end;
      node.link_start = transfer.start;
      node.link_end = transfer.end;
      node.transfer = static_cast<std::size_t>(&transfer - first);
      node_of[child_slot] = phase.nodes.size();
      phase.nodes[next].children.push_back(phase.nodes.size());
      phase.nodes.push_back(std::move(node));
    }
  }
  for (std::size_t p = 0; p < n; ++p) {
    if (involved[p] && node_of[p] == kNotInTree) phase.detached.push_back(static_cast<ProcessorIndex>(p));
  }
  return phase;
}

}  // namespace

std::vector<TreePhase> communication_tree(const MakespanPlan& plan, const Cluster& cluster) {
  return communication_tree(plan, cluster.size());
}

std::vector<TreePhase> communication_tree(const MakespanPlan& plan, ProcessorIndex processor_count) {
  const Transfer* first = plan.transfers.data();
  std::vector<TreePhase> phases;
  if (processor_count == 0) return phases;
  const ProcessorIndex root = is_valid(plan.root, processor_count) ? plan.root : 0;

  std::vector<const Transfer*> reduce_transfers, broadcast_transfers;
  for (const auto& transfer : plan.transfers) {
    if (!is_valid(transfer.from, processor_count) || !is_valid(transfer.to, processor_count)) continue;
    if (transfer.from == transfer.to) continue;
    const bool reduce_message = plan.operation == Operation::reduce ||
                                (plan.operation == Operation::allreduce && transfer.payload == Payload::partial_reduction);
    (reduce_message ? reduce_transfers : broadcast_transfers).push_back(&transfer);
  }
  switch (plan.operation) {
    case Operation::broadcast:
    case Operation::multicast:
      phases.push_back(build_phase(broadcast_transfers, first, Payload::broadcast_value, root, processor_count, 0.0));
      break;
    case Operation::reduce:
      phases.push_back(build_phase(reduce_transfers, first, Payload::partial_reduction, root, processor_count, 0.0));
      break;
    case Operation::allreduce: {
      phases.push_back(build_phase(reduce_transfers, first, Payload::partial_reduction, root, processor_count, 0.0));
      // The broadcast phase starts when the root holds the whole reduction.
      double broadcast_start = phases.front().end_time;
      for (const Transfer* transfer : broadcast_transfers) broadcast_start = std::min(broadcast_start, transfer->start);
      phases.push_back(build_phase(broadcast_transfers, first, Payload::broadcast_value, root, processor_count, broadcast_start));
      break;
    }
    case Operation::scatter:
    case Operation::gossip:
    case Operation::allgather:
      break;  // steady-state operations: never a makespan plan's (the readers refuse them)
  }
  return phases;
}

}  // namespace hetcoll
