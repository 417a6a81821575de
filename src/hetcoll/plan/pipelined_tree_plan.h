// A pipelined broadcast along a single tree: what `hetcoll tree` prints and
// writes (docs/FORMATS.md "Pipelined broadcast plans"), and the prediction it
// carries. Made by steady/pipelined/pipelined_tree_plan.h; checked by
// verify/verify_tree.h; written by plan/pipelined_plan_json.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "hetcoll/core/limits.h"
#include "hetcoll/plan/broadcast_tree.h"
#include "hetcoll/plan/plan_header.h"
#include "hetcoll/plan/verify_report.h"

namespace hetcoll {

// The predicted makespan of a whole message cut into slices
// (steady/pipelined/slice_makespan.h computes it).
struct SliceMakespan {
  double slice_size = 0;        // bytes
  std::int64_t slices = 0;      // ceil(message / slice)
  double period = 0;            // per slice
  double first_slice = 0;       // start-up: the first slice's broadcast time
  double makespan = 0;          // (slices - 1) period + first_slice
  // best_slice_size only: the prediction still fell at the finest slicing
  // (no latency), so the fewest slices within 1% of it were taken.
  bool within_one_percent = false;
};

// Header: operation broadcast, model pipelined; `algorithm` is the tree
// heuristic ("grow", ..., "optimal": the exact tree search, whose status and
// node count are the header's `status` and `stats.nodes`).
struct PipelinedTreePlan : PlanHeader {
  PipelinedTreePlan() {
    operation = Operation::broadcast;
    model = PlanModel::pipelined;
  }
  std::string heuristic_reference;
  BroadcastModel port_model = BroadcastModel::one_port;
  ProcessorIndex source = kNoProcessor;
  std::optional<double> slice_size;
  bool slice_size_chosen = false;      // picked by best_slice_size, not given
  // The prediction kept falling with smaller slices (links without latency):
  // the fewest slices within 1% of the finest slicing's makespan were taken.
  bool slice_size_within_one_percent = false;
  BroadcastTree tree;
  TreeEvaluation evaluation;
  std::optional<double> optimal_throughput;
  std::optional<double> message_size;
  std::optional<SliceMakespan> makespan;
  // Whether the exact tree search made the tree (algorithm "optimal"):
  // then the header's status says whether it finished (the tree is optimal).
  bool searched() const { return algorithm == "optimal"; }
  // verify_broadcast_tree's verdict on the tree and its period (invalid
  // until the planner has checked it).
  VerifyReport verification = VerifyReport::unchecked();
  bool valid() const { return verification.valid; }
};

}  // namespace hetcoll
