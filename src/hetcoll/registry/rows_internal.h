// The rows files of the one registry (registry.h): each family adds its
// planners to the table, in this order.
#pragma once

#include <vector>

namespace hetcoll {

struct PlannerEntry;  // registry.h

void add_sender_speed_planners(std::vector<PlannerEntry>& rows);  // registry.cpp
void add_graph_planners(std::vector<PlannerEntry>& rows);         // graph_registry.cpp
void add_eager_planners(std::vector<PlannerEntry>& rows);         // eager_rows.cpp
void add_split_planners(std::vector<PlannerEntry>& rows);         // split_rows.cpp
#if HETCOLL_WITH_LP
void add_steady_planners(std::vector<PlannerEntry>& rows);        // steady_rows.cpp
void add_pipelined_planners(std::vector<PlannerEntry>& rows);     // pipelined_rows.cpp
#endif

}  // namespace hetcoll
