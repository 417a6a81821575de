// The communication program (comm_program.h) that runs a whole-message
// makespan plan as hetcoll's MPI runtime runs it in the one-port send mode:
// what sim/program_simulation.h predicts and mpi/program_executor.h runs for
// hetcoll's tree plans, beside MPI libraries' own algorithms.
//
// Each rank takes part in the plan's transfers in the plan's execution
// order (by planned start, ties by position):
//  * broadcast phase (payload broadcast_value): it receives the value
//    (blocking) and forwards it with blocking sends, each synchronous
//    (MPI_Issend: the next starts once the child has the message, the
//    one-port rule) except its last, a standard send;
//  * reduce phase (payload partial_reduction, commutative operations): it
//    receives its children's partial results into two alternating scratch
//    buffers (the next receive posted before combining the previous one),
//    combines each into its value, then sends its value to its parent
//    (synchronous when an all-reduce's broadcast follows).
// Eager plans (PlanModel::eager, broadcasts and reduces): a rank posts all
// its sends at once, standard sends completed together (the network shares
// its link among them: the program's prediction says what that costs);
// with `pace`, a broadcast's sends each at its planned start instead, so
// that its link carries one message at a time (the times of the eager
// model, seconds after the call's start); a reduce rank posts all its receives
// at once, each into its own scratch buffer, combines them in the plan's
// order, then sends. Plans of non-commutative operations and multicasts are
// not lowered (InputError).
//
// Complexity: O(m log m) for m transfers.
#pragma once

#include <cstddef>

#include "hetcoll/plan/comm_program.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// `plan`'s processor p is rank p of `ranks`; messages carry `count` elements.
CommProgram program_of_plan(const MakespanPlan& plan, int ranks, std::size_t count, bool pace = false);

}  // namespace hetcoll
