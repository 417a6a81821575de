// The recursive-doubling all-reduce, as SimGrid SMPI 3.32 runs it
// (simgrid/simgrid, src/smpi/colls/allreduce/allreduce-rdb.cpp, MPICH's
// short-message all-reduce; Thakur, Rabenseifner, Gropp, "Optimization of
// collective communication operations in MPICH", 2005): with
// r = p - 2^floor(log p), the even ranks below 2r send their vector to the
// next rank and sit out; the 2^floor(log p) others exchange whole vectors
// with rank xor 2^k (MPI_Sendrecv) and combine, log p rounds; the sitting
// ranks then receive the result. Where the partner has the higher rank,
// SimGrid combines into the temporary and copies it back (a local copy).
// Complexity: O(p log p) steps.
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

CommProgram allreduce_rdb_program(int ranks, int, std::size_t count, std::size_t element_bytes) {
  check_call("rdb", ranks, 0, count, element_bytes);
  CommProgram program(ranks, "recursive doubling all-reduce (SMPI)");
  const Slice result = data_slice(0, count);
  const Slice temporary = scratch_slice(program.add_buffer(count), 0, count);
  int pof2 = 1;
  while (pof2 <= ranks) pof2 <<= 1;
  pof2 >>= 1;
  const int rem = ranks - pof2;
  for (int rank = 0; rank < ranks; ++rank) {
    int newrank;
    if (rank < 2 * rem) {
      if (rank % 2 == 0) {
        program.blocking_send(rank, rank + 1, result);
        newrank = -1;
      } else {
        program.blocking_receive(rank, rank - 1, temporary);
        program.add(rank, ProgramStep::combine_of(temporary, result));
        newrank = rank / 2;
      }
    } else {
      newrank = rank - rem;
    }
    if (newrank != -1) {
      for (int mask = 1; mask < pof2; mask <<= 1) {
        const int newdst = newrank ^ mask;
        const int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
        program.send_receive(rank, dst, result, dst, temporary);
        if (dst < rank) {
          program.add(rank, ProgramStep::combine_of(temporary, result));
        } else {
          program.add(rank, ProgramStep::combine_of(result, temporary));
          program.add(rank, ProgramStep::copy_of(temporary, result));
        }
      }
    }
    if (rank < 2 * rem) {
      if (rank % 2 != 0) {
        program.blocking_send(rank, rank - 1, result);
      } else {
        program.blocking_receive(rank, rank + 1, result);
      }
    }
  }
  return program;
}

}  // namespace hetcoll::mpi_programs
