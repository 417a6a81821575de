// The binomial-tree reduce, as SimGrid SMPI 3.32 runs it (simgrid/simgrid,
// src/smpi/colls/reduce/reduce-binomial.cpp, MPICH's; Thakur,
// Rabenseifner, Gropp, "Optimization of collective communication
// operations in MPICH", 2005): for k = 0, 1, ...: a rank whose relative
// rank has bit k clear receives (blocking) from relative rank + 2^k into a
// temporary and combines it; the first rank with bit k set sends its
// partial result (blocking) to relative rank - 2^k and stops. Nothing is
// sent for count 0 (SimGrid returns at once). Commutative operations.
// Complexity: O(p) steps, log p rounds.
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

CommProgram reduce_binomial_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("binomial", ranks, root, count, element_bytes);
  CommProgram program(ranks, "binomial tree reduce (SMPI)");
  if (count == 0 || ranks == 1) return program;
  const Slice partial = data_slice(0, count);
  const Slice temporary = scratch_slice(program.add_buffer(count), 0, count);
  for (int rank = 0; rank < ranks; ++rank) {
    const int relative = (rank - root + ranks) % ranks;
    for (int mask = 1; mask < ranks; mask <<= 1) {
      if ((mask & relative) == 0) {
        const int source = relative | mask;
        if (source < ranks) {
          program.blocking_receive(rank, (source + root) % ranks, temporary);
          program.add(rank, ProgramStep::combine_of(temporary, partial));
        }
      } else {
        program.blocking_send(rank, ((relative & ~mask) + root) % ranks, partial);
        break;
      }
    }
  }
  return program;
}

}  // namespace hetcoll::mpi_programs
