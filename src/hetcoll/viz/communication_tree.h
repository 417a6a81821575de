// The communication tree(s) of a makespan plan, as drawn by tree_dot.h and
// tree_svg.h: who sends to whom, hop counts from the root, and when each
// processor holds what it forwards.
//
// A broadcast or multicast plan is one tree: a processor's parent is the
// processor it first received the message from. A reduce plan is one tree
// whose edges point towards the root: a processor's parent is the processor
// it sends its partial result to. An all-reduce plan is two trees, the
// reduce phase then the broadcast phase (told apart by Transfer::payload).
// Plans that break the rules (a processor sending twice in a reduce, a
// cycle) still give a tree: the first message wins and processors that are
// not connected to the root are listed in `detached`, so a drawing can show
// a broken plan instead of failing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct TreeNode {
  ProcessorIndex processor = kNoProcessor;
  std::size_t parent = 0;  // index into TreePhase::nodes; the root is its own parent
  int depth = 0;           // hop count from the root
  // When the processor holds what it forwards: for a broadcast, the end of
  // its receive (the phase start for the root); for a reduce, the end of its
  // last receive (the phase start for a leaf).
  double ready_time = 0;
  // The message between this node and its parent (none for the root):
  // parent -> node in a broadcast, node -> parent in a reduce.
  double link_start = 0;
  double link_end = 0;
  std::size_t transfer = SIZE_MAX;  // that message: its index in plan.transfers (none for the root)
  std::vector<std::size_t> children;  // indices into TreePhase::nodes, by link start time
};

struct TreePhase {
  Payload payload = Payload::broadcast_value;  // partial_reduction: edges point to the root
  double start_time = 0;                       // when the phase begins
  double end_time = 0;                         // its last message end (start_time if none)
  // Breadth-first from the root (nodes[0]), children in time order, so the
  // depth never decreases along the vector.
  std::vector<TreeNode> nodes;
  // Processors that send or receive in this phase but are not connected to
  // the root (only in broken plans).
  std::vector<ProcessorIndex> detached;

  bool points_to_root() const { return payload == Payload::partial_reduction; }
};

// One phase for broadcast, multicast and reduce plans, two for all-reduce.
// Transfers naming processors outside the cluster are ignored. When the
// plan has no root, the first processor is used.
std::vector<TreePhase> communication_tree(const MakespanPlan& plan, const Cluster& cluster);
// The same for a plan whose processor indices run over `node_count` nodes
// (a platform graph's).
std::vector<TreePhase> communication_tree(const MakespanPlan& plan, ProcessorIndex node_count);

}  // namespace hetcoll
