// A program plan (plan/program_plan.h) for people: what it is, its
// prediction, the verdict of the check, its size, the runners-up.
#pragma once

#include <string>
#include <vector>

#include "hetcoll/model/platform.h"
#include "hetcoll/plan/program_plan.h"
#include "hetcoll/registry/default_plan.h"
#include "hetcoll/registry/program_plan_check.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {

// A few aligned lines. `runners_up`: the default plan's other candidates
// (programs and whole-message plans), when known; at most a few are named.
std::string program_plan_summary(const ProgramPlan& plan, const Platform& platform, const ProgramPlanVerifyReport& check,
                                 const DefaultPlan* runners_up = nullptr);

}  // namespace hetcoll
