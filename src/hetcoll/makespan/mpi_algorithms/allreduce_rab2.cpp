// Rabenseifner's all-reduce "rab2", as SimGrid SMPI 3.32 runs it
// (simgrid/simgrid, src/smpi/colls/allreduce/allreduce-rab2.cpp; Rabenseifner,
// "Optimization of collective reduction operations", 2004): an alltoall
// gives rank r block r of every rank's vector, r reduces the p blocks
// locally, then an allgather spreads the reduced blocks. A count p does not
// divide is padded to p blocks of floor((count + p) / p) elements (p
// elements each when count < p). The alltoall and allgather are SMPI's
// defaults (what runs when only the allreduce is forced):
//  * alltoall__default -> alltoall__ompi (smpi_openmpi_selector.cpp), Open
//    MPI's decision table on p and the block's bytes, among basic_linear
//    (alltoall/alltoall-basic-linear.cpp: MPI_Irecv from rank+1, rank+2, ...,
//    MPI_Isend to rank-1, rank-2, ..., one wait), pair
//    (alltoall-pair.cpp: MPI_Sendrecv with rank xor i, i = 0 .. p-1; SimGrid
//    throws for p not a power of two: refused) and bruck
//    (alltoall-bruck.cpp: receives into indexed datatypes: not modelled,
//    refused);
//  * allgather__default -> colls::iallgather (smpi_nbc_impl.cpp): MPI_Isend
//    to and MPI_Irecv from every other rank in rank order, one wait.
// Commutative operations. Complexity: O(p^2) steps.
#include <fmt/format.h>

#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

namespace {

// alltoall__ompi's choice: 1 linear, 2 pairwise, 3 modified Bruck, 4
// linear_sync, 5 two_proc (4 and 5 run basic_linear in SimGrid).
int ompi_alltoall_choice(int size, std::size_t total) {
  struct Step {
    std::size_t below;
    int algorithm;
  };
  auto pick = [&](std::initializer_list<Step> steps, int otherwise) {
    for (const auto& step : steps) {
      if (total < step.below) return step.algorithm;
    }
    return otherwise;
  };
  if (size == 2) {
    return pick({{2, 2}, {4, 5}, {16, 2}, {64, 5}, {256, 2}, {4096, 5}, {32768, 2}, {262144, 4}, {1048576, 5}}, 2);
  }
  if (size < 8) return pick({{8192, 4}, {16384, 1}, {65536, 4}, {524288, 1}, {1048576, 2}}, 1);
  if (size < 16) return pick({{262144, 4}}, 1);
  if (size < 32) return pick({{4, 4}, {512, 3}, {8192, 4}, {32768, 1}, {262144, 4}, {524288, 1}}, 4);
  if (size < 64) return pick({{512, 3}, {524288, 1}}, 4);
  if (size < 128) return pick({{1024, 3}, {2048, 1}, {4096, 4}, {262144, 1}}, 2);
  if (size < 256) return pick({{1024, 3}, {2048, 4}, {262144, 1}}, 2);
  if (size < 512) return pick({{1024, 3}, {8192, 4}, {32768, 1}}, 2);
  if (size < 1024) return pick({{512, 3}, {8192, 4}, {16384, 1}, {131072, 4}, {262144, 1}}, 2);
  if (size < 2048) return pick({{512, 3}, {1024, 4}, {2048, 1}, {16384, 4}, {262144, 1}}, 4);
  if (size < 4096) return pick({{1024, 3}, {4096, 4}, {8192, 1}, {131072, 4}}, 1);
  return pick({{2048, 3}, {8192, 4}, {16384, 1}, {32768, 4}, {65536, 1}}, 4);
}

std::size_t block_of(int ranks, std::size_t count) {
  const auto size = static_cast<std::size_t>(ranks);
  if (count % size == 0) return count / size;
  return count < size ? size : (count + size) / size;
}

}  // namespace

std::string allreduce_rab2_limit(int ranks, std::size_t count, std::size_t element_bytes) {
  if (ranks < 2) return {};
  const int choice = ompi_alltoall_choice(ranks, block_of(ranks, count) * element_bytes);
  if (choice == 3) return "SMPI's default alltoall runs Bruck's algorithm here (indexed datatypes, not modelled)";
  if (choice == 2 && (ranks & (ranks - 1)) != 0) {
    return fmt::format("SMPI's default alltoall runs pair here, which throws for {} ranks (not a power of two)", ranks);
  }
  return {};
}

CommProgram allreduce_rab2_program(int ranks, int, std::size_t count, std::size_t element_bytes) {
  check_call("rab2", ranks, 0, count, element_bytes);
  if (auto why = allreduce_rab2_limit(ranks, count, element_bytes); !why.empty()) unsupported_call("rab2", why);
  CommProgram program(ranks, "Rabenseifner all-reduce, alltoall then allgather (SMPI rab2)");
  const auto size = static_cast<std::size_t>(ranks);
  const bool padded = count % size != 0;
  const std::size_t block = block_of(ranks, count);
  const int choice = ranks < 2 ? 1 : ompi_alltoall_choice(ranks, block * element_bytes);
  const std::uint32_t send = padded ? program.add_buffer(block * size) : 0;
  const std::uint32_t received = program.add_buffer(block * size);
  const std::uint32_t reduced = padded ? program.add_buffer(block) : 0;  // tmp; rbuff + r_offset when even
  auto at = [&](std::uint32_t buffer, std::size_t index) { return scratch_slice(buffer, index * block, block); };
  for (int rank = 0; rank < ranks; ++rank) {
    const auto me = static_cast<std::size_t>(rank);
    if (padded) program.add(rank, ProgramStep::copy_of(data_slice(0, count), scratch_slice(send, 0, count)));
    // The alltoall: block i of `send` to rank i, into block `rank` of its `received`.
    program.add(rank, ProgramStep::copy_of(at(send, me), at(received, me)));
    if (choice == 2) {
      for (int i = 1; i < ranks; ++i) {
        const int peer = rank ^ i;
        const auto p = static_cast<std::size_t>(peer);
        program.send_receive(rank, peer, at(send, p), peer, at(received, p));
      }
    } else if (ranks > 1) {
      std::vector<std::uint32_t> requests;
      for (int i = (rank + 1) % ranks; i != rank; i = (i + 1) % ranks) {
        requests.push_back(program.add(rank, ProgramStep::receive_of(i, at(received, static_cast<std::size_t>(i)))));
      }
      for (int i = (rank + ranks - 1) % ranks; i != rank; i = (i + ranks - 1) % ranks) {
        requests.push_back(program.add(rank, ProgramStep::send_of(i, at(send, static_cast<std::size_t>(i)))));
      }
      program.add(rank, ProgramStep::wait_for(requests));
    }
    // The local reduction of the p blocks.
    const Slice mine = padded ? at(reduced, 0) : at(0, me);
    program.add(rank, ProgramStep::copy_of(at(received, 0), mine));
    for (std::size_t i = 1; i < size; ++i) program.add(rank, ProgramStep::combine_of(at(received, i), mine));
    // The allgather (colls::iallgather) into `received` (padded) or buffer 0.
    const std::uint32_t gathered = padded ? received : 0;
    program.add(rank, ProgramStep::copy_of(mine, at(gathered, me)));
    std::vector<std::uint32_t> requests;
    for (int other = 0; other < ranks; ++other) {
      if (other == rank) continue;
      requests.push_back(program.add(rank, ProgramStep::send_of(other, mine)));
      requests.push_back(
          program.add(rank, ProgramStep::receive_of(other, at(gathered, static_cast<std::size_t>(other)))));
    }
    if (!requests.empty()) program.add(rank, ProgramStep::wait_for(requests));
    if (padded) program.add(rank, ProgramStep::copy_of(scratch_slice(received, 0, count), data_slice(0, count)));
  }
  return program;
}

}  // namespace hetcoll::mpi_programs
