// The communication programs (comm_program.h) that run the split plans
// (split_plans.h: the split broadcast, reduce and all-reduce of
// makespan/split/) — what sim/program_simulation.h predicts and
// mpi/program_executor.h runs, beside every other candidate of the MPI
// runtime's chooser.
//
// Member m of a split broadcast or all-reduce plan, and processor m of a
// split reduce plan, is rank m. Every rank posts all its receives at the
// start (each chunk into its place: the broadcast buffer, a scratch slot
// for a contribution, the result's range), then works through its sends in
// the plan's order:
//  * split broadcast: a spreader waits for a chunk before forwarding it;
//    with `pace`, the source posts each chunk at its planned start;
//  * split all-reduce: contributions leave from a copy of the rank's own
//    vector (with `pace`, each at its planned start); before sending a
//    reduced chunk, the aggregator waits for that chunk's contributions and
//    combines them into its result (in rank order);
//  * split reduce: every contribution is posted at its planned time (the
//    plan's pacing, always kept); an aggregator, when the plan says its
//    piece is complete, waits for the piece's contributions, combines them
//    into its own and forwards the piece to the root, which combines it
//    into its result. Actions at the same time: sends first.
// Then every rank waits for what is still pending. Sends are standard
// (MPI_Isend); the k-th message a -> b is the k-th receive b posts from a
// (receives are posted in each sender's send order).
//
// Throws InputError (parameter "plan") when the plan is malformed for the
// runtime: members not 0..ranks-1 in order, pieces that do not cover the
// elements, a transfer out of range, a spreader forwarding a chunk it never
// receives. verify/ checks the plans' times; verify/verify_program.h what
// the program computes.
//
// Complexity: O(m log m) for m messages.
#pragma once

#include <cstddef>

#include "hetcoll/plan/comm_program.h"
#include "hetcoll/plan/split_plans.h"

namespace hetcoll {

CommProgram program_of_split_broadcast(const SplitBroadcastPlan& plan, bool pace = true);
CommProgram program_of_split_allreduce(const SplitAllreducePlan& plan, bool pace = true);
CommProgram program_of_split_reduce(const SplitReducePlan& plan);

}  // namespace hetcoll
