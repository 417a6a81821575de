// The ring all-reduce ("lr": logical ring), as SimGrid SMPI 3.32 runs it
// (simgrid/simgrid, src/smpi/colls/allreduce/allreduce-lr.cpp, Faraj and
// Yuan's; Patarasuk, Yuan, "Bandwidth optimal all-reduce algorithms for
// clusters of workstations", 2009): the vector is cut in p blocks of
// floor(count / p) elements; p - 1 MPI_Sendrecv steps of a ring
// reduce-scatter (send to rank + 1, receive from rank - 1, combine the
// rank's own block from its send buffer), then p - 1 steps of a ring
// allgather. The last count mod p elements are all-reduced again by the
// selected allreduce, modelled as lr itself (what
// --cfg=smpi/allreduce:lr runs), which for fewer than p elements runs
// "redbcast": the default reduce to rank 0, then the default (binomial)
// bcast.
// Deviation: SimGrid combines from the separate send buffer; the program
// first copies buffer 0 to scratch (one local copy).
// Complexity: O(p) steps.
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

CommProgram allreduce_lr_program(int ranks, int, std::size_t count, std::size_t element_bytes) {
  check_call("lr", ranks, 0, count, element_bytes);
  CommProgram program(ranks, "logical ring all-reduce (SMPI)");
  const std::size_t size = static_cast<std::size_t>(ranks);
  if (count < size) {
    append_reduce_default(program, 0, 0, count);
    append_bcast_binomial_tree(program, 0, 0, count);
    return program;
  }
  const std::size_t block = count / size;
  const std::uint32_t send_buffer = program.add_buffer(count);
  auto block_at = [&](int index) { return (static_cast<std::size_t>(index % ranks) * block); };
  for (int rank = 0; rank < ranks; ++rank) {
    program.add(rank, ProgramStep::copy_of(data_slice(0, count), scratch_slice(send_buffer, 0, count)));
    const int right = (rank + 1) % ranks;
    const int left = (rank + ranks - 1) % ranks;
    for (int i = 0; i < ranks - 1; ++i) {
      const std::size_t send_offset = block_at(rank - 1 - i + 2 * ranks);
      const std::size_t recv_offset = block_at(rank - 2 - i + 2 * ranks);
      program.send_receive(rank, right, data_slice(send_offset, block), left, data_slice(recv_offset, block));
      program.add(rank, ProgramStep::combine_of(scratch_slice(send_buffer, recv_offset, block),
                                                data_slice(recv_offset, block)));
    }
    for (int i = 0; i < ranks - 1; ++i) {
      const std::size_t send_offset = block_at(rank - i + 2 * ranks);
      const std::size_t recv_offset = block_at(rank - 1 - i + 2 * ranks);
      program.send_receive(rank, right, data_slice(send_offset, block), left, data_slice(recv_offset, block));
    }
  }
  const std::size_t remainder = count % size;
  if (remainder != 0) {
    append_reduce_default(program, 0, block * size, remainder);
    append_bcast_binomial_tree(program, 0, block * size, remainder);
  }
  return program;
}

}  // namespace hetcoll::mpi_programs
