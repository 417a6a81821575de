// Caption lines describing a plan, shared by the Gantt and tree drawings.
#include "hetcoll/viz/plan_caption.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/viz/svg_support.h"

namespace hetcoll::svg {

const char* root_role(Operation operation) {
  return operation == Operation::broadcast || operation == Operation::multicast ? "source" : "root";
}

bool is_multicast_helper(const MakespanPlan& plan, ProcessorIndex processor) {
  return plan.operation == Operation::multicast && processor != plan.root &&
         std::find(plan.targets.begin(), plan.targets.end(), processor) == plan.targets.end();
}

std::string pretty_guarantee(const std::string& text) {
  std::string pretty;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "<=") == 0) {
      pretty += "≤";
      ++i;
    } else if (text.compare(i, 2, ">=") == 0) {
      pretty += "≥";
      ++i;
    } else if (text.compare(i, 3, " x ") == 0) {
      pretty += " × ";
      i += 2;
    } else {
      pretty += text[i];
    }
  }
  return pretty;
}

std::string plan_headline(const MakespanPlan& plan, const Cluster& cluster) {
  const bool has_root = plan.root >= 0 && plan.root < cluster.size();
  return plan_headline(plan, has_root ? std::string(cluster.id(plan.root)) : std::string("?"),
                       fmt::format("{} processor{}", cluster.size(), cluster.size() == 1 ? "" : "s"));
}

void require_tree(const MakespanPlan& plan) {
  if (is_exchange_allreduce(plan)) {
    throw InputError("plan", "an exchange all-reduce (recursive doubling) has no tree to draw: its Gantt chart "
                             "shows the exchanges");
  }
}

std::string plan_headline(const MakespanPlan& plan, const std::string& root, const std::string& population) {
  const std::string root_id = shorten_id(root, 48);
  std::string what;
  switch (plan.operation) {
    case Operation::broadcast: what = "Broadcast from " + root_id; break;
    case Operation::multicast:
      what = fmt::format("Multicast from {} to {} target{}", root_id, plan.targets.size(),
                         plan.targets.size() == 1 ? "" : "s");
      break;
    case Operation::reduce: what = "Reduce to " + root_id; break;
    case Operation::allreduce:
      what = is_exchange_allreduce(plan) ? "All-reduce by pairwise exchanges (rank 0: " + root_id + ")"
                                         : "All-reduce through root " + root_id;
      break;
    case Operation::scatter:
    case Operation::gossip:
    case Operation::allgather:
      break;  // steady-state operations: never a makespan plan's (the readers refuse them)
  }
  std::string headline = what;
  if (!plan.algorithm.empty()) headline += " · " + shorten(plan.algorithm, 40);
  headline += " · " + population;
  return headline;
}

std::string plan_evidence(const MakespanPlan& plan, const std::string& time_unit) {
  const std::string unit = time_unit.empty() ? "" : " " + time_unit;
  std::string evidence = "makespan " + format_number(plan.makespan) + unit;
  if (plan.lower_bound > 0) evidence += " · lower bound " + format_number(plan.lower_bound) + unit;
  if (!plan.guarantee.text.empty()) evidence += " · guarantee " + pretty_guarantee(plan.guarantee.text);
  // The optimum is at least the lower bound, which certifies this instance.
  // Said only when it is tighter than the guarantee: then it tells more.
  if (!plan.optimal && plan.lower_bound > 0 && plan.makespan > plan.lower_bound) {
    // Rounded up, so that the printed ratio is never below the true one.
    const double ratio = std::ceil(plan.makespan / plan.lower_bound * 1000 - 1e-9) / 1000;
    if (plan.guarantee.kind != Guarantee::Kind::ratio || ratio < plan.guarantee.ratio) {
      evidence += " · here within " + format_number(ratio) + " × optimal";
    }
  }
  // `optimal` already applies the tolerance rule (makespan/claims.h): it is
  // true exactly when the bound meets the makespan.
  if (plan.optimal) {
    evidence += plan.claims_scope.empty() ? " · proven optimal" : " · proven optimal in " + plan.claims_scope;
  } else if (plan.status == SearchStatus::refused) {
    evidence += " · refused to run: fallback plan";
  } else if (plan.limit_reached()) {
    evidence += fmt::format(" · search stopped ({})", to_string(plan.status));
  }
  return evidence;
}

}  // namespace hetcoll::svg
