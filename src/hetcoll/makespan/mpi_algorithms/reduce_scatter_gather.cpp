// Rabenseifner's reduce, a reduce-scatter by recursive halving then a
// binomial gather to the root, as SimGrid SMPI 3.32 runs it
// (simgrid/simgrid, src/smpi/colls/reduce/reduce-scatter-gather.cpp, from
// MPICH; Thakur, Rabenseifner, Gropp, "Optimization of collective
// communication operations in MPICH", 2005). With p not a power of two,
// the first 2r ranks (r = p - 2^floor(log p)) pair up first: odd ranks
// send their data to the even one below and sit out. All calls are
// blocking MPI_Send / MPI_Recv / MPI_Sendrecv. Commutative operations;
// nothing is sent for count 0.
// For count < p SimGrid pads the vector to p elements (the padding is sent
// and combined, then dropped); an even rank then posts a receive of count
// elements for a message of p: the program receives all p (same bytes on
// the network, the padding is never used).
// Complexity: O(p log p) steps.
#include <vector>

#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

CommProgram reduce_scatter_gather_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("scatter_gather", ranks, root, count, element_bytes);
  CommProgram program(ranks, "reduce-scatter and gather reduce (SMPI)");
  if (count == 0) return program;
  const int size = ranks;
  int pof2 = 1;
  while (pof2 <= size) pof2 <<= 1;
  pof2 >>= 1;
  const int rem = size - pof2;
  const bool padded = count < static_cast<std::size_t>(size);
  const std::size_t n = padded ? static_cast<std::size_t>(size) : count;
  // The working vector (recvbuf, or recv_ptr when padded) and tmp_buf.
  std::uint32_t work = 0;
  std::uint32_t send_copy = 0;
  if (padded) {
    send_copy = program.add_buffer(n);
    work = program.add_buffer(n);
  }
  const std::uint32_t temporary = program.add_buffer(n);
  auto at = [](std::uint32_t buffer, std::size_t offset, std::size_t length) {
    return scratch_slice(buffer, offset, length);
  };
  std::vector<std::size_t> counts(static_cast<std::size_t>(pof2)), displacements(static_cast<std::size_t>(pof2), 0);
  for (int i = 0; i < pof2 - 1; ++i) counts[static_cast<std::size_t>(i)] = n / static_cast<std::size_t>(pof2);
  counts[static_cast<std::size_t>(pof2 - 1)] = n - (n / static_cast<std::size_t>(pof2)) * static_cast<std::size_t>(pof2 - 1);
  for (int i = 1; i < pof2; ++i) {
    displacements[static_cast<std::size_t>(i)] =
        displacements[static_cast<std::size_t>(i - 1)] + counts[static_cast<std::size_t>(i - 1)];
  }
  auto sum = [&](int from, int to) {
    std::size_t total = 0;
    for (int i = from; i < to; ++i) total += counts[static_cast<std::size_t>(i)];
    return total;
  };
  auto real_rank = [&](int newrank) { return newrank < rem ? newrank * 2 : newrank + rem; };
  for (int rank = 0; rank < size; ++rank) {
    if (padded) {
      program.add(rank, ProgramStep::copy_of(data_slice(0, count), at(send_copy, 0, count)));
      program.add(rank, ProgramStep::copy_of(at(send_copy, 0, n), at(work, 0, n)));  // the self MPI_Sendrecv
    }
    int newrank;
    if (rank < 2 * rem) {
      if (rank % 2 != 0) {
        program.blocking_send(rank, rank - 1, at(work, 0, n));
        newrank = -1;
      } else {
        program.blocking_receive(rank, rank + 1, at(temporary, 0, n));
        program.add(rank, ProgramStep::combine_of(at(temporary, 0, n), at(work, 0, n)));
        newrank = rank / 2;
      }
    } else {
      newrank = rank - rem;
    }
    int send_idx = 0, recv_idx = 0, last_idx = pof2;
    if (newrank != -1) {
      for (int mask = 1; mask < pof2;) {
        const int newdst = newrank ^ mask;
        const int dst = real_rank(newdst);
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
        const std::size_t recv_at = displacements[static_cast<std::size_t>(recv_idx)];
        program.send_receive(rank, dst, at(work, displacements[static_cast<std::size_t>(send_idx)], send_cnt), dst,
                             at(temporary, recv_at, recv_cnt));
        program.add(rank, ProgramStep::combine_of(at(temporary, recv_at, recv_cnt), at(work, recv_at, recv_cnt)));
        send_idx = recv_idx;
        mask <<= 1;
        if (mask < pof2) last_idx = recv_idx + pof2 / mask;
      }
    }
    int newroot;
    if (root < 2 * rem) {
      if (root % 2 != 0) {
        if (rank == root) {
          program.blocking_receive(rank, 0, at(work, 0, counts[0]));
          newrank = 0;
          send_idx = 0;
          last_idx = 2;
        } else if (newrank == 0) {
          program.blocking_send(rank, root, at(work, 0, counts[0]));
          newrank = -1;
        }
        newroot = 0;
      } else {
        newroot = root / 2;
      }
    } else {
      newroot = root - rem;
    }
    if (newrank != -1) {
      int j = 0;
      int mask = 1;
      while (mask < pof2) {
        mask <<= 1;
        ++j;
      }
      mask >>= 1;
      --j;
      while (mask > 0) {
        const int newdst = newrank ^ mask;
        int dst = real_rank(newdst);
        if (newdst == 0 && root < 2 * rem && root % 2 != 0) dst = root;
        const int newdst_tree_root = (newdst >> j) << j;
        const int newroot_tree_root = (newroot >> j) << j;
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
        if (newdst_tree_root == newroot_tree_root) {
          program.blocking_send(rank, dst, at(work, displacements[static_cast<std::size_t>(send_idx)], send_cnt));
          break;
        }
        program.blocking_receive(rank, dst, at(work, displacements[static_cast<std::size_t>(recv_idx)], recv_cnt));
        if (newrank > newdst) send_idx = recv_idx;
        mask >>= 1;
        --j;
      }
    }
    if (padded) program.add(rank, ProgramStep::copy_of(at(work, 0, count), data_slice(0, count)));
  }
  return program;
}

}  // namespace hetcoll::mpi_programs
