// Plans made in the sender-speed view of a platform graph (`--view
// sender-speed`): the graph collapsed to one transmission time per node
// (model/platform_io.h, cluster_from_platform). Whatever a planner proves
// there — a theorem, a finished search, a ratio — holds for the view, not
// for the platform. qualify_for_view() rewrites every claim of such a plan
// so that no output (summary, JSON, pictures) can read as a claim about the
// platform.
#pragma once

#include <string_view>

#include "hetcoll/plan/plan.h"

namespace hetcoll {

// Sets plan.claims_scope, qualifies the guarantee and the optimality proof
// with it, and adds a note saying the times are the view's.
void qualify_for_view(MakespanPlan& plan, std::string_view platform_name);

}  // namespace hetcoll
