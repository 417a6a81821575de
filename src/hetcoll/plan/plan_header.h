// What every plan says about itself, whatever its family: the operation, the
// algorithm that made it, the model its times and claims hold in, how the
// run that made it ended, its statistics and remarks for the user.
//
// Every plan type of plan/ derives from PlanHeader — MakespanPlan (plan.h),
// the split plans (split_plans.h), PeriodicPlan (periodic_plan.h),
// PipelinedTreePlan (pipelined_tree_plan.h) — so the registry, report/ and
// the command line read these fields one way for every family
// (plan_variant.h: plan_header). The family's own fields (transfers, slots,
// pieces, trees; its claims: makespan and bound, throughput and
// certificate) stay in the family's type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/core/limits.h"

namespace hetcoll {

// Every collective hetcoll plans, in every model: the makespan planners take
// the first four, the steady-state planners scatter, gossip, reduce and
// broadcast (periodic_plan.h). One enum, one name table (plan_header.cpp).
// allgather: calls of the MPI runtime only (its programs; no plan file
// holds one).
enum class Operation { broadcast, multicast, reduce, allreduce, scatter, gossip, allgather };

const char* to_string(Operation operation);
// Any of the six names of plan files (not "allgather").
std::optional<Operation> operation_from_string(std::string_view name);
// The four a makespan plan (MakespanPlan) can hold.
bool is_makespan_operation(Operation operation);

// The model a plan's times and claims hold in: one enum for every plan
// family (registry/registry.h keys its planners by (operation, model)).
enum class PlanModel : std::uint8_t {
  sender_speed,    // one time per processor (a cluster, or the sender-speed view of a graph)
  platform_graph,  // model/graph_network.h: routes, exclusive links, bidirectional one-port
  // model/eager_model.h: a platform graph's routes; a node sends to all its
  // children at once, their occupancies add up in send order, latencies
  // overlap (broadcasts); reduces are its time reversal
  // (makespan/eager/eager_reduce.h: a node's receive windows add up)
  eager,
  // model/split_costs.h: the eager model with affine costs; messages cut into
  // pieces and chunks (makespan/split/split_broadcast.h, split_allreduce.h)
  split,
  // model/nic_network.h: per-processor up and down links shared max-min fair
  // by concurrent flows (makespan/split/split_reduce.h)
  fluid,
  // A series of operations on a platform graph, bidirectional one-port:
  // throughput, not makespan (steady/, periodic_plan.h)
  steady_state,
  // One operation pipelined in slices along trees of a platform graph
  // (steady/pipelined/, pipelined_tree_plan.h)
  pipelined,
};
// The same enum under the name the planner registry used.
using CommunicationModel = PlanModel;

const char* to_string(PlanModel model);
// Any model's name ("sender-speed", "graph", "eager", "split", "fluid",
// "steady-state", "pipelined").
std::optional<PlanModel> plan_model_from_string(std::string_view name);
// The models a MakespanPlan's transfers are timed in (sender-speed, graph, eager).
bool is_makespan_model(PlanModel model);

struct PlanHeader {
  Operation operation = Operation::broadcast;
  // The algorithm (formulation, heuristic) that made the plan, as it names
  // itself: "fnf", "scatter-per-type", "split broadcast: 3 pieces, ...".
  std::string algorithm;
  PlanModel model = PlanModel::sender_speed;
  // finished, or why the run stopped early (a limit, the caller) or refused
  // to start (core/limits.h); the plan is then the best found so far.
  SearchStatus status = SearchStatus::finished;
  SearchStats stats;               // search nodes, DP look-ups, planning seconds
  std::vector<std::string> notes;  // remarks for the user (e.g. guarantee caveats)

  bool limit_reached() const { return status != SearchStatus::finished; }
};

}  // namespace hetcoll
