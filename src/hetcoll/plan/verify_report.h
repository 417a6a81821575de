// The one verdict every check of a plan returns, whatever its family: valid
// or not, the violations in words (the first kMaxListedViolations), how many
// there were, and the completion time the check measured.
//
// Every verifier reports through it: verify() and the split verifiers
// (verify/verify.h), verify_broadcast_tree (verify/verify_tree.h),
// verify_program (verify/verify_program.h), verify_periodic_plan
// (PeriodicVerifyReport: and whether a certificate proved the bound),
// verify_program_plan (ProgramPlanVerifyReport: and whether the symbolic
// run took place). Plans that carry their own check's verdict
// (PipelinedTreePlan, SteadyBroadcastResult) hold one. It lives with the
// plans, below verify/, so that a plan type can hold it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hetcoll {

struct VerifyReport {
  bool valid = true;
  std::vector<std::string> violations;  // the first few, in human words
  std::size_t violation_count = 0;      // all of them
  double measured_makespan = 0;         // the last completion time
  // Sender-speed plans: a claimed lower bound above every bound verify/
  // re-derives, on an instance beyond the reach of its exact re-search
  // (verify/sender_speed_bounds_internal.h). Not a violation by itself: the
  // claim is unproven, and whoever accepts the plan must prove it another
  // way (validate re-runs the plan's algorithm on the platform) or refuse it.
  bool lower_bound_unproven = false;
  double proven_lower_bound = 0;        // the best bound verify/ re-derived

  // One line per violation (at most the first 20), for stderr; "valid"
  // when there is none.
  std::string summary() const;
  // The listed violations joined by `separator` ("" when valid).
  std::string joined(std::string_view separator) const;

  // Marks the report invalid, counts the violation and keeps its words if
  // fewer than kMaxListedViolations are listed: every verifier reports
  // through this one rule.
  static constexpr std::size_t kMaxListedViolations = 20;
  void add_violation(std::string message);
  // An invalid report for what no check has looked at yet.
  static VerifyReport unchecked();
  // Adds every violation of `other` (its count too, listed or not).
  void add_violations(const VerifyReport& other);
};

}  // namespace hetcoll
