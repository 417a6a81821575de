#include "hetcoll/makespan/graph/sender_speed_view.h"

#include <fmt/format.h>

namespace hetcoll {

void qualify_for_view(MakespanPlan& plan, std::string_view platform_name) {
  plan.claims_scope = fmt::format("the sender-speed view of {}", platform_name);
  // The scope in full once (claims_scope); the guarantee and the proof
  // keep a short reminder, as they may be read alone (JSON).
  const std::string scope = "in the sender-speed view only";
  plan.guarantee.text = fmt::format("{} ({})", plan.guarantee.text, scope);
  if (plan.optimal) plan.optimality_proof = fmt::format("{}: {}", scope, plan.optimality_proof);
  plan.notes.push_back(fmt::format(
      "times are the sender-speed view's (each node sends at the time of its slowest route); "
      "`hetcoll simulate` gives what this plan takes on the platform, and the default --view graph plans on it"));
}

}  // namespace hetcoll
