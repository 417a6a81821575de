// One plan of any family, as the registry's rows return it
// (registry/registry.h): a makespan plan (sender-speed, platform graph,
// eager), a split plan (split broadcast, all-reduce, reduce), and with the
// steady-state layer a periodic plan (scatter, gossip, reduce, broadcast
// series) or a pipelined broadcast along one tree.
#pragma once

#include <string>
#include <variant>

#include "hetcoll/plan/plan.h"
#include "hetcoll/plan/split_plans.h"
#if HETCOLL_WITH_LP
#include "hetcoll/plan/periodic_plan.h"
#include "hetcoll/plan/pipelined_tree_plan.h"
#endif

namespace hetcoll {

using PlanAlternatives = std::variant<MakespanPlan, SplitBroadcastPlan, SplitAllreducePlan, SplitReducePlan
#if HETCOLL_WITH_LP
                                      ,
                                      PeriodicPlan, PipelinedTreePlan
#endif
                                      >;

struct PlanVariant : PlanAlternatives {
  using PlanAlternatives::PlanAlternatives;
};

// The header every plan family shares (plan_header.h): operation,
// algorithm, model, status, statistics, notes.
const PlanHeader& plan_header(const PlanVariant& plan);
PlanHeader& plan_header(PlanVariant& plan);
// The algorithm the plan names itself by (its header's).
std::string plan_algorithm(const PlanVariant& plan);
// Its predicted completion time in its model: the makespan (seconds on
// platforms with latencies and bandwidths), a split plan's prediction, a
// pipelined tree's predicted makespan when it has a message size; for a
// periodic plan the time of one operation in steady state (1 / throughput).
// 0 when the plan predicts none.
double plan_predicted_time(const PlanVariant& plan);

}  // namespace hetcoll
