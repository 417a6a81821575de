// Rabenseifner's all-reduce, as SimGrid SMPI 3.32 runs it
// (simgrid/simgrid, src/smpi/colls/allreduce/allreduce-rab-rdb.cpp, MPICH's
// long-message all-reduce; Rabenseifner, "Optimization of collective
// reduction operations", 2004; Thakur, Rabenseifner, Gropp, "Optimization
// of collective communication operations in MPICH", 2005): with
// r = p - 2^floor(log p), the even ranks below 2r send their vector to the
// next rank and sit out; the 2^floor(log p) others run a reduce-scatter by
// recursive halving (MPI_Sendrecv of half the current range with
// rank xor 2^k, combine the received half), then an allgather by recursive
// doubling (the same exchanges in reverse, no combine); the sitting ranks
// finally receive the result. The vector is cut in 2^floor(log p) blocks
// of floor(count / 2^floor(log p)) elements, the last one taking the rest.
// Complexity: O(p log p) steps.
#include <vector>

#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

CommProgram allreduce_rab_rdb_program(int ranks, int, std::size_t count, std::size_t element_bytes) {
  check_call("rab_rdb", ranks, 0, count, element_bytes);
  CommProgram program(ranks, "Rabenseifner all-reduce, halving and doubling (SMPI)");
  const Slice result = data_slice(0, count);
  const std::uint32_t temporary = program.add_buffer(count);
  int pof2 = 1;
  while (pof2 <= ranks) pof2 <<= 1;
  pof2 >>= 1;
  const int rem = ranks - pof2;
  std::vector<std::size_t> counts(static_cast<std::size_t>(pof2)), displacements(static_cast<std::size_t>(pof2), 0);
  const std::size_t share = count / static_cast<std::size_t>(pof2);
  for (int i = 0; i < pof2 - 1; ++i) counts[static_cast<std::size_t>(i)] = share;
  counts[static_cast<std::size_t>(pof2 - 1)] = count - share * static_cast<std::size_t>(pof2 - 1);
  for (int i = 1; i < pof2; ++i) {
    displacements[static_cast<std::size_t>(i)] =
        displacements[static_cast<std::size_t>(i - 1)] + counts[static_cast<std::size_t>(i - 1)];
  }
  auto sum = [&](int from, int to) {
    std::size_t total = 0;
    for (int i = from; i < to; ++i) total += counts[static_cast<std::size_t>(i)];
    return total;
  };
  auto at = [&](int index) { return displacements[static_cast<std::size_t>(index)]; };
  for (int rank = 0; rank < ranks; ++rank) {
    int newrank;
    if (rank < 2 * rem) {
      if (rank % 2 == 0) {
        program.blocking_send(rank, rank + 1, result);
        newrank = -1;
      } else {
        program.blocking_receive(rank, rank - 1, scratch_slice(temporary, 0, count));
        program.add(rank, ProgramStep::combine_of(scratch_slice(temporary, 0, count), result));
        newrank = rank / 2;
      }
    } else {
      newrank = rank - rem;
    }
    if (newrank != -1) {
      int mask = 1, send_idx = 0, recv_idx = 0, last_idx = pof2;
      auto partner = [&](int newdst) { return newdst < rem ? newdst * 2 + 1 : newdst + rem; };
      while (mask < pof2) {
        const int newdst = newrank ^ mask;
        std::size_t send_cnt, recv_cnt;
        if (newrank < newdst) {
          send_idx = recv_idx + pof2 / (mask * 2);
          send_cnt = sum(send_idx, last_idx);
          recv_cnt = sum(recv_idx, send_idx);
        } else {
          recv_idx = send_idx + pof2 / (mask * 2);
          send_cnt = sum(send_idx, recv_idx);
          recv_cnt = sum(recv_idx, last_idx);
        }
        const int dst = partner(newdst);
        program.send_receive(rank, dst, data_slice(at(send_idx), send_cnt), dst,
                             scratch_slice(temporary, at(recv_idx), recv_cnt));
        program.add(rank, ProgramStep::combine_of(scratch_slice(temporary, at(recv_idx), recv_cnt),
                                                  data_slice(at(recv_idx), recv_cnt)));
        send_idx = recv_idx;
        mask <<= 1;
        if (mask < pof2) last_idx = recv_idx + pof2 / mask;
      }
      for (mask >>= 1; mask > 0; mask >>= 1) {
        const int newdst = newrank ^ mask;
        std::size_t send_cnt, recv_cnt;
        if (newrank < newdst) {
          if (mask != pof2 / 2) last_idx = last_idx + pof2 / (mask * 2);
          recv_idx = send_idx + pof2 / (mask * 2);
          send_cnt = sum(send_idx, recv_idx);
          recv_cnt = sum(recv_idx, last_idx);
        } else {
          recv_idx = send_idx - pof2 / (mask * 2);
          send_cnt = sum(send_idx, last_idx);
          recv_cnt = sum(recv_idx, send_idx);
        }
        const int dst = partner(newdst);
        program.send_receive(rank, dst, data_slice(at(send_idx), send_cnt), dst, data_slice(at(recv_idx), recv_cnt));
        if (newrank > newdst) send_idx = recv_idx;
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
