// Rabenseifner's all-reduce "rab1", as SimGrid SMPI 3.32 runs it
// (simgrid/simgrid, src/smpi/colls/allreduce/allreduce-rab1.cpp; Rabenseifner,
// "Optimization of collective reduction operations", 2004): for p a power
// of two only (SimGrid throws otherwise: refused). A reduce-scatter by
// recursive halving (MPI_Sendrecv of half the current range with
// rank xor 2^k, largest k first, combine the received half), then the
// selected allgather of the p blocks, modelled as SMPI's default
// (allgather__default -> colls::iallgather in smpi_nbc_impl.cpp: every rank
// posts an MPI_Isend to and an MPI_Irecv from every other rank, in rank
// order, then waits for all). A count that p does not divide is padded to
// p · floor((count + p) / p) elements (the padding is sent, never used).
// Commutative operations. Complexity: O(p log p + p^2) steps.
#include <fmt/format.h>

#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

std::string allreduce_rab1_limit(int ranks, std::size_t, std::size_t) {
  if (ranks > 0 && (ranks & (ranks - 1)) != 0) {
    return fmt::format("SimGrid's rab1 throws for {} ranks (not a power of two)", ranks);
  }
  return {};
}

CommProgram allreduce_rab1_program(int ranks, int, std::size_t count, std::size_t element_bytes) {
  check_call("rab1", ranks, 0, count, element_bytes);
  if (auto why = allreduce_rab1_limit(ranks, count, element_bytes); !why.empty()) unsupported_call("rab1", why);
  CommProgram program(ranks, "Rabenseifner all-reduce, halving then allgather (SMPI rab1)");
  const auto size = static_cast<std::size_t>(ranks);
  const bool padded = count % size != 0;
  const std::size_t n = padded ? (count + size) / size * size : count;
  const std::uint32_t work = padded ? program.add_buffer(n) : 0;  // SimGrid's recv, or rbuff
  const std::uint32_t temporary = program.add_buffer(n);
  const std::size_t share = n / size;
  for (int rank = 0; rank < ranks; ++rank) {
    if (padded) program.add(rank, ProgramStep::copy_of(data_slice(0, count), scratch_slice(work, 0, count)));
    std::size_t send_idx = 0, recv_idx = 0, recv_cnt = n;
    for (int mask = ranks / 2; mask > 0; mask >>= 1) {
      const int dst = rank ^ mask;
      const std::size_t exchanged = n / static_cast<std::size_t>(ranks / mask);
      recv_cnt = exchanged;
      if (rank < dst) {
        send_idx = recv_idx + static_cast<std::size_t>(mask) * share;
      } else {
        recv_idx = send_idx + static_cast<std::size_t>(mask) * share;
      }
      program.send_receive(rank, dst, scratch_slice(work, send_idx, exchanged), dst,
                           scratch_slice(temporary, 0, exchanged));
      program.add(rank, ProgramStep::combine_of(scratch_slice(temporary, 0, exchanged),
                                                scratch_slice(work, recv_idx, exchanged)));
      send_idx = recv_idx;
    }
    // The allgather of each rank's block (recv_cnt elements at recv_idx = rank · share).
    const Slice block = scratch_slice(temporary, 0, recv_cnt);
    program.add(rank, ProgramStep::copy_of(scratch_slice(work, recv_idx, recv_cnt), block));
    program.add(rank, ProgramStep::copy_of(block, scratch_slice(work, static_cast<std::size_t>(rank) * recv_cnt, recv_cnt)));
    std::vector<std::uint32_t> requests;
    for (int other = 0; other < ranks; ++other) {
      if (other == rank) continue;
      requests.push_back(program.add(rank, ProgramStep::send_of(other, block)));
      requests.push_back(program.add(
          rank, ProgramStep::receive_of(other, scratch_slice(work, static_cast<std::size_t>(other) * recv_cnt, recv_cnt))));
    }
    if (!requests.empty()) program.add(rank, ProgramStep::wait_for(requests));
    if (padded) program.add(rank, ProgramStep::copy_of(scratch_slice(work, 0, count), data_slice(0, count)));
  }
  return program;
}

}  // namespace hetcoll::mpi_programs
