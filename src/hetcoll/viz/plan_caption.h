// The two caption lines that the Gantt chart and the tree drawings put above
// a plan: what was planned, and how good the plan is proven to be.
#pragma once

#include <string>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll::svg {

// e.g. "Broadcast from p0 · fnf · 8 processors" (plain text, not escaped).
std::string plan_headline(const MakespanPlan& plan, const Cluster& cluster);
// The same with the root's id and the population said by the caller
// ("8 participants, 3 routers and links").
std::string plan_headline(const MakespanPlan& plan, const std::string& root, const std::string& population);

// e.g. "makespan 6 ms · lower bound 5 ms · guarantee ≤ 1.5 × optimal"; times
// carry `time_unit` (the cluster's, possibly empty).
std::string plan_evidence(const MakespanPlan& plan, const std::string& time_unit = {});

// The tree drawings' precondition: an exchange all-reduce (recursive
// doubling, plan.h is_exchange_allreduce) has no tree; throws
// InputError("plan", ...) pointing to the Gantt chart instead.
void require_tree(const MakespanPlan& plan);

// "source" for broadcast and multicast, "root" for reduce and all-reduce.
const char* root_role(Operation operation);

// A multicast processor that receives without being a target: it only
// relays the message (false for every other operation).
bool is_multicast_helper(const MakespanPlan& plan, ProcessorIndex processor);

// The guarantee text with ≤ and × in place of <= and x.
std::string pretty_guarantee(const std::string& text);

}  // namespace hetcoll::svg
