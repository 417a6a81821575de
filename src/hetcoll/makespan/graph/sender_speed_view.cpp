#include "hetcoll/makespan/graph/sender_speed_view.h"

#include <fmt/format.h>

namespace hetcoll {

void qualify_for_view(MakespanPlan& plan, std::string_view platform_name) {
  plan.claims_scope = fmt::format("the sender-speed view of {}", platform_name);
  const std::string scope = fmt::format("in the sender-speed view of {} only, not on the platform graph",
                                        platform_name);
  plan.guarantee.text = fmt::format("{} ({})", plan.guarantee.text, scope);
  if (plan.optimal) plan.optimality_proof = fmt::format("{}: {}", scope, plan.optimality_proof);
  plan.notes.push_back(fmt::format(
      "times and claims are the sender-speed view's (each node sends at the time of its slowest route); "
      "`hetcoll simulate` gives what this plan takes on the platform, and the default --view graph plans on it"));
}

}  // namespace hetcoll
