// Rabenseifner's all-reduce "rab2", as SimGrid SMPI 3.32 runs it
// (simgrid/simgrid, src/smpi/colls/allreduce/allreduce-rab2.cpp; Rabenseifner,
// "Optimization of collective reduction operations", 2004): the vector cut
// into p blocks, an all-to-all of the blocks (rank i gets block i of every
// rank), each rank combines the p copies of its block, then an allgather
// of the combined blocks. The all-to-all is SMPI's default (alltoall__ompi
// in smpi_openmpi_selector.cpp, by communicator size and block bytes):
// its basic linear algorithm (every receive posted, from rank + 1 on, then
// every send, from rank - 1 down, then one wait) or, for powers of two,
// the pairwise exchange (MPI_Sendrecv with rank xor i); where it picks the
// modified Bruck algorithm the call is refused (not modelled). The
// allgather is SMPI's default (colls::iallgather: an MPI_Isend to and an
// MPI_Irecv from every other rank, in rank order, one wait), as in rab1. A
// count that p does not divide is padded to blocks of max(p, (count + p) /
// p) elements (the padding is sent, never used). Commutative operations.
// Complexity: O(p^2) steps.
#include <fmt/format.h>

#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {
namespace {

enum class Alltoall { basic_linear, pairwise, bruck };

// alltoall__ompi's choice for `ranks` ranks and blocks of `bytes` bytes.
Alltoall ompi_alltoall(int ranks, std::size_t bytes) {
  // Open MPI's numbering: 1 linear, 2 pairwise, 3 modified Bruck, 4 linear_sync, 5 two_proc
  // (SimGrid runs 1, 4 and 5 as its basic linear algorithm).
  int alg = 1;
  if (ranks == 2) {
    alg = bytes < 2 ? 2 : bytes < 4 ? 5 : bytes < 16 ? 2 : bytes < 64 ? 5 : bytes < 256 ? 2 : bytes < 4096 ? 5
          : bytes < 32768 ? 2 : bytes < 262144 ? 4 : bytes < 1048576 ? 5 : 2;
  } else if (ranks < 8) {
    alg = bytes < 8192 ? 4 : bytes < 16384 ? 1 : bytes < 65536 ? 4 : bytes < 524288 ? 1 : bytes < 1048576 ? 2 : 1;
  } else if (ranks < 16) {
    alg = bytes < 262144 ? 4 : 1;
  } else if (ranks < 32) {
    alg = bytes < 4 ? 4 : bytes < 512 ? 3 : bytes < 8192 ? 4 : bytes < 32768 ? 1 : bytes < 262144 ? 4
          : bytes < 524288 ? 1 : 4;
  } else if (ranks < 64) {
    alg = bytes < 512 ? 3 : bytes < 524288 ? 1 : 4;
  } else if (ranks < 128) {
    alg = bytes < 1024 ? 3 : bytes < 2048 ? 1 : bytes < 4096 ? 4 : bytes < 262144 ? 1 : 2;
  } else if (ranks < 256) {
    alg = bytes < 1024 ? 3 : bytes < 2048 ? 4 : bytes < 262144 ? 1 : 2;
  } else if (ranks < 512) {
    alg = bytes < 1024 ? 3 : bytes < 8192 ? 4 : bytes < 32768 ? 1 : 2;
  } else if (ranks < 1024) {
    alg = bytes < 512 ? 3 : bytes < 8192 ? 4 : bytes < 16384 ? 1 : bytes < 131072 ? 4 : bytes < 262144 ? 1 : 2;
  } else if (ranks < 2048) {
    alg = bytes < 512 ? 3 : bytes < 1024 ? 4 : bytes < 2048 ? 1 : bytes < 16384 ? 4 : bytes < 262144 ? 1 : 4;
  } else if (ranks < 4096) {
    alg = bytes < 1024 ? 3 : bytes < 4096 ? 4 : bytes < 8192 ? 1 : bytes < 131072 ? 4 : 1;
  } else {
    alg = bytes < 2048 ? 3 : bytes < 8192 ? 4 : bytes < 16384 ? 1 : bytes < 32768 ? 4 : bytes < 65536 ? 1 : 4;
  }
  return alg == 2 ? Alltoall::pairwise : alg == 3 ? Alltoall::bruck : Alltoall::basic_linear;
}

std::size_t block_elements(int ranks, std::size_t count) {
  const auto size = static_cast<std::size_t>(ranks);
  if (count % size == 0) return count / size;
  return count < size ? size : (count + size) / size;
}

}  // namespace

std::string allreduce_rab2_limit(int ranks, std::size_t count, std::size_t element_bytes) {
  if (ranks < 2) return {};
  const std::size_t block = block_elements(ranks, count);
  switch (ompi_alltoall(ranks, block * element_bytes)) {
    case Alltoall::bruck:
      return fmt::format("SMPI's all-to-all picks the modified Bruck algorithm for {} ranks and blocks of {} bytes "
                         "(not modelled)",
                         ranks, block * element_bytes);
    case Alltoall::pairwise:
      if ((ranks & (ranks - 1)) != 0) {
        return fmt::format("SMPI's pairwise all-to-all throws for {} ranks (not a power of two)", ranks);
      }
      return {};
    case Alltoall::basic_linear:
      return {};
  }
  return {};
}

CommProgram allreduce_rab2_program(int ranks, int, std::size_t count, std::size_t element_bytes) {
  check_call("rab2", ranks, 0, count, element_bytes);
  if (auto why = allreduce_rab2_limit(ranks, count, element_bytes); !why.empty()) unsupported_call("rab2", why);
  CommProgram program(ranks, "Rabenseifner all-reduce, all-to-all then allgather (SMPI rab2)");
  if (ranks == 1) return program;
  const auto size = static_cast<std::size_t>(ranks);
  const std::size_t block = block_elements(ranks, count);
  const bool padded = count % size != 0;
  const Alltoall alltoall = ompi_alltoall(ranks, block * element_bytes);
  // SimGrid's buffers: send (padded copy of the data, or the data itself),
  // recv (p blocks), tmp (the combined block; rbuff's own block when even).
  const std::uint32_t send = padded ? program.add_buffer(block * size) : 0;
  const std::uint32_t recv = program.add_buffer(block * size);
  const std::uint32_t tmp = padded ? program.add_buffer(block) : 0;
  auto block_of = [&](std::uint32_t buffer, std::size_t index) { return Slice{buffer, index * block, block}; };
  for (int rank = 0; rank < ranks; ++rank) {
    const auto me = static_cast<std::size_t>(rank);
    if (padded) program.add(rank, ProgramStep::copy_of(data_slice(0, count), scratch_slice(send, 0, count)));
    // The all-to-all: block i of `send` to rank i, block j of `recv` from rank j.
    program.add(rank, ProgramStep::copy_of(block_of(send, me), block_of(recv, me)));
    if (alltoall == Alltoall::basic_linear) {
      std::vector<std::uint32_t> requests;
      for (int i = (rank + 1) % ranks; i != rank; i = (i + 1) % ranks) {
        requests.push_back(program.add(rank, ProgramStep::receive_of(i, block_of(recv, static_cast<std::size_t>(i)))));
      }
      for (int i = (rank + ranks - 1) % ranks; i != rank; i = (i + ranks - 1) % ranks) {
        requests.push_back(program.add(rank, ProgramStep::send_of(i, block_of(send, static_cast<std::size_t>(i)))));
      }
      program.add(rank, ProgramStep::wait_for(std::move(requests)));
    } else {
      for (int i = 1; i < ranks; ++i) {
        const int partner = rank ^ i;
        program.send_receive(rank, partner, block_of(send, static_cast<std::size_t>(partner)), partner,
                             block_of(recv, static_cast<std::size_t>(partner)));
      }
    }
    // Combine the p copies of this rank's block (block 0 first, then 1, 2, ...).
    const Slice mine = padded ? Slice{tmp, 0, block} : block_of(0, me);
    program.add(rank, ProgramStep::copy_of(block_of(recv, 0), mine));
    for (std::size_t i = 1; i < size; ++i) program.add(rank, ProgramStep::combine_of(block_of(recv, i), mine));
    // SMPI's default allgather of the combined blocks (into recv when padded, else rbuff).
    const std::uint32_t gathered = padded ? recv : 0;
    if (padded) program.add(rank, ProgramStep::copy_of(mine, block_of(recv, me)));
    std::vector<std::uint32_t> requests;
    for (int other = 0; other < ranks; ++other) {
      if (other == rank) continue;
      requests.push_back(program.add(rank, ProgramStep::send_of(other, mine)));
      requests.push_back(
          program.add(rank, ProgramStep::receive_of(other, block_of(gathered, static_cast<std::size_t>(other)))));
    }
    program.add(rank, ProgramStep::wait_for(std::move(requests)));
    if (padded) program.add(rank, ProgramStep::copy_of(scratch_slice(recv, 0, count), data_slice(0, count)));
  }
  return program;
}

}  // namespace hetcoll::mpi_programs
