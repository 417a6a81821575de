// Checking a program plan file (plan/program_plan.h) against its platform,
// as `hetcoll validate` does, and predicting it, as `hetcoll simulate` does.
//
// verify_program_plan reports (ProgramPlanVerifyReport: a VerifyReport,
// every violation in words, and whether the symbolic run took place):
// the program malformed (check_program: peers, slices, waits, unmatched
// messages); the steps not computing the operation (verify_program:
// symbolic run, deadlocks, data read early, contributions missing or
// counted twice, at the root or at every rank); a claim of optimality
// (program plans claim none); and a claimed `predicted_seconds` other than
// the flow model's prediction recomputed on the platform (relative
// tolerance 1e-9), or a program that does not complete in that model.
// measured_makespan is the recomputed prediction. The symbolic run holds
// a set of ranks per element of every rank's buffers: above
// kMaxSymbolicElementRanks (elements x ranks; 2^24 is about 1 GB) it is
// skipped, and the check says so (every other check still runs).
//
// Complexity: verify_program's plus one prediction (program_simulation.h).
#pragma once

#include "hetcoll/model/platform.h"
#include "hetcoll/plan/program_plan.h"
#include "hetcoll/sim/program_simulation.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {

inline constexpr double kMaxSymbolicElementRanks = 16777216;

struct ProgramPlanVerifyReport : VerifyReport {
  bool symbolic_run = true;  // false: too large, verify_program skipped
};
ProgramPlanVerifyReport verify_program_plan(const Platform& platform, const ProgramPlan& plan);

// The plan's program in the flow model with the plan's settings; the
// program must pass check_program (InputError naming "program" otherwise).
sim::ProgramTiming predict_program_plan(const Platform& platform, const ProgramPlan& plan);

}  // namespace hetcoll
