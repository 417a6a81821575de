// How the runtime's collectives wait and send: the program executor
// (program_executor.h) and the lowering of hetcoll's plans to programs
// (lowering_of, sends_of) take them.
#pragma once

namespace hetcoll::mpi {

struct RuntimeOptions {
  // Longest a rank waits for one collective call (seconds); past it the rank
  // prints which message it was waiting for and aborts the communicator.
  // 0 = wait as long as MPI does.
  double timeout_seconds = 0;
  // How sends are made. one_port (the default): a send that another send of
  // the same rank follows in the call is synchronous (MPI_Issend: it
  // completes only once its receiver has it), so the next send starts only
  // then, as the plan has it; the rank's last send is a standard one.
  // Without it, small messages leave eagerly and a rank's consecutive sends
  // run at the same time, sharing its network link: each arrives later than
  // planned (docs/MPI.md shows it under SimGrid). standard: MPI_Isend
  // always; synchronous: MPI_Issend always. It applies to hetcoll's
  // whole-message and pipelined plans; MPI libraries' algorithms and the
  // split plans' programs say themselves which sends are synchronous.
  enum class SendMode { one_port, standard, synchronous };
  SendMode send_mode = SendMode::one_port;
  // Eager plans: when a send is posted. automatic (the default): a
  // broadcast's at its planned time, a reduce's as soon as the rank holds
  // its children's values; always: every send at its planned time (a
  // reduce's at max(ready, planned start)); never: as soon as the rank can.
  // docs/MPI.md says why, with SMPI measurements.
  enum class EagerPacing { automatic, always, never };
  EagerPacing eager_pacing = EagerPacing::automatic;
  bool paces_eager_broadcasts() const { return eager_pacing != EagerPacing::never; }
  bool paces_eager_reduces() const { return eager_pacing == EagerPacing::always; }
};

}  // namespace hetcoll::mpi
