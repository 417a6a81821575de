// The default on a platform graph (`--algo auto`): "the best guaranteed plan
// that finishes quickly", per phase (an all-reduce's reduce and broadcast
// are chosen separately).
//
// Up to kAutoExactMembers participants taking part: the exact search
// (exact_search.h), seeded with the best of the hierarchical, ECEF and
// look-ahead plans (ties: that order) as its incumbent, within a fixed node budget
// of kAutoExactNodeBudget nodes — a node budget, not a time budget, so the
// answer is the same on every machine. A finished search is a proven
// optimum. Larger: the best of the hierarchical plan and, up to
// kMaxFlatMembers participants, ECEF and look-ahead (ties: that order).
// Guarantee: exact when the search finished, else none (heuristic); never a
// longer broadcast than the best of those three heuristics (the search
// only replaces its incumbent by a shorter plan).
// Time limit (limits.time_limit_seconds): ECEF and look-ahead are not
// started when their route table (estimate_route_table) would not be built
// in the time left, and are dropped when still running at the limit; the
// plans so far are kept and the result's status is time_limit.
// Complexity: the budgeted search, or the planners' (graph/*.h).
#pragma once

#include <cstdint>

#include "hetcoll/makespan/graph/exact_search.h"
#include "hetcoll/makespan/graph/graph_planner.h"

namespace hetcoll {

inline constexpr std::size_t kAutoExactMembers = 10;
inline constexpr std::uint64_t kAutoExactNodeBudget = 200000;

// `limits` caps the search further (a user's --time-limit / --node-limit).
EngineResult broadcast_auto(const GraphNetwork& network, const BroadcastTask& task, const SearchLimits& limits);

}  // namespace hetcoll
