// Human-readable views of a periodic (steady-state) plan for the terminal,
// with the verifier's verdict: reports sit above plan/ and verify/.
#pragma once

#include <string>

#include "hetcoll/model/platform.h"
#include "hetcoll/plan/periodic_plan.h"
#include "hetcoll/verify/verify_periodic.h"

namespace hetcoll {

// A few aligned lines: operation, throughput (exact and decimal) and its
// proof, period, slots, trees, the linear program, validity, notes.
std::string periodic_plan_summary(const PeriodicPlan& plan, const Platform& platform,
                                  const PeriodicVerifyReport& report);

// The slots of one period, one line each ("slot 1, length 1/2: A->B 3 x [B],
// ..."), at most `max_slots`, then the trees (at most `max_trees`).
std::string periodic_plan_schedule_text(const PeriodicPlan& plan, const Platform& platform, std::size_t max_slots = 12,
                                        std::size_t max_trees = 6);

}  // namespace hetcoll
