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
// with `pace_broadcasts`, a broadcast's sends each at its planned start
// instead, so that its link carries one message at a time (the times of
// the eager model, seconds after the call's start); a reduce rank posts
// all its receives at once, each into its own scratch buffer, combines
// them in the plan's order, then sends (with `pace_reduces` not before its
// planned start).
//
// Non-commutative operations (`rank_order`): a rank keeps its values as
// runs of consecutive ranks, each a slice of a buffer, and joins two runs
// as soon as they meet, the lower ranks on the left (a combine whose
// `from` is the left run: the result stays in the right run's slice). A
// message carries the runs the sender holds, packed one after the other
// (one run: its slice as is); the receiver knows which they are because
// the program is computed for every rank at once, so no list of runs
// travels. The root ends with the one run of every rank, copied into
// buffer 0 if it lies elsewhere: MPI's x_0 op x_1 op ... op x_{n-1}. When
// every subtree of the plan covers consecutive ranks each message carries
// one run; otherwise a message carries one value per run and costs more
// than the plan predicts. The program has `rank_order` set.
//
// Multicast plans: the source and the targets use buffer 0, helpers
// receive into and forward from a scratch buffer (their buffer 0 is left as
// it was), other ranks have no steps.
//
// Complexity: O(m log m) for m transfers; with `rank_order`, O(m log m + R)
// for R runs moved in all.
#pragma once

#include <cstddef>
#include <cstdint>

#include "hetcoll/plan/comm_program.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct PlanLowering {
  bool pace_broadcasts = false;  // eager broadcasts: each send at its planned start
  bool pace_reduces = false;     // eager reduces: the send not before its planned start
  bool rank_order = false;       // combine in rank order (non-commutative operations)
  // Sends of whole-message (non-eager) plans: one_port — a send that another
  // send of the rank follows in the call is synchronous (MPI_Issend), the
  // rank's last one standard; standard: MPI_Isend always; synchronous:
  // MPI_Issend always. Eager plans' sends are standard whatever this says.
  enum class Sends : std::uint8_t { one_port, standard, synchronous };
  Sends sends = Sends::one_port;
};

// `plan`'s processor p is rank p of `ranks`; messages carry `count` elements.
CommProgram program_of_plan(const MakespanPlan& plan, int ranks, std::size_t count, const PlanLowering& lowering);
// The defaults, with `pace` for eager broadcasts.
CommProgram program_of_plan(const MakespanPlan& plan, int ranks, std::size_t count, bool pace = false);

}  // namespace hetcoll
