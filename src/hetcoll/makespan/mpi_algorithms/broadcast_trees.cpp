// Broadcasts along fixed trees, as SimGrid SMPI 3.32 runs them
// (simgrid/simgrid, src/smpi/colls/bcast/):
//  * binomial_tree (bcast-binomial-tree.cpp, MPICH's short-message
//    broadcast; Thakur, Rabenseifner, Gropp, "Optimization of collective
//    communication operations in MPICH", 2005): rank r (relative to the
//    root) receives from r minus its lowest set bit, then sends with
//    blocking MPI_Send to r + 2^k for decreasing k. SMPI's default bcast.
//  * flattree (bcast-flattree.cpp): the root posts an MPI_Isend to every
//    other rank in rank order and waits for all.
//  * flattree_pipeline (bcast-flattree-pipeline.cpp): segments of 8192
//    bytes; the root sends every segment to rank 1, then every segment to
//    rank 2, ... with blocking sends; the others post all receives. SimGrid
//    never sends the last count mod segment elements: such calls are
//    refused (the program would not broadcast).
//  * NTSL (bcast-NTSL.cpp): a chain 0 -> 1 -> ... -> p-1 in segments of 8192
//    bytes (a root other than 0 first sends the whole buffer to 0); the
//    remainder is broadcast again by the selected bcast, modelled as NTSL
//    itself (what --cfg=smpi/bcast:NTSL runs).
// Guarantee: the same messages, in the same order, with the same blocking
// calls as SimGrid's code. Complexity: O(p + p · segments) steps.
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"

#include <fmt/format.h>

#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

void append_bcast_binomial_tree(CommProgram& program, int root, std::size_t offset, std::size_t count) {
  const int ranks = program.ranks;
  if (ranks == 1) return;
  const Slice all = data_slice(offset, count);
  for (int rank = 0; rank < ranks; ++rank) {
    const int relative = (rank - root + ranks) % ranks;
    int mask = 1;
    while (mask < ranks) {
      if (relative & mask) {
        program.blocking_receive(rank, (rank - mask + ranks) % ranks, all);
        break;
      }
      mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
      if (relative + mask < ranks) program.blocking_send(rank, (rank + mask) % ranks, all);
    }
  }
}

CommProgram bcast_binomial_tree_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("binomial_tree", ranks, root, count, element_bytes);
  CommProgram program(ranks, "binomial tree broadcast (SMPI)");
  append_bcast_binomial_tree(program, root, 0, count);
  return program;
}

CommProgram bcast_flattree_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("flattree", ranks, root, count, element_bytes);
  CommProgram program(ranks, "flat tree broadcast (SMPI)");
  if (ranks == 1) return program;
  const Slice all = data_slice(0, count);
  std::vector<std::uint32_t> sends;
  for (int rank = 0; rank < ranks; ++rank) {
    if (rank == root) continue;
    program.blocking_receive(rank, root, all);
    sends.push_back(program.add(root, ProgramStep::send_of(rank, all)));
  }
  program.add(root, ProgramStep::wait_for(sends));
  return program;
}

namespace {

std::size_t bytes_segment(std::size_t segment_bytes, std::size_t element_bytes) {
  const std::size_t segment = segment_bytes / element_bytes;
  return segment == 0 ? 1 : segment;
}

}  // namespace

std::string bcast_flattree_pipeline_limit(int, std::size_t count, std::size_t element_bytes) {
  const std::size_t segment = bytes_segment(8192, element_bytes);
  if (count / segment > 0 && count % segment != 0) {
    return fmt::format("SimGrid's flattree_pipeline never sends the last {} elements ({} elements mod segments of {})",
                       count % segment, count, segment);
  }
  return {};
}

CommProgram bcast_flattree_pipeline_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("flattree_pipeline", ranks, root, count, element_bytes);
  if (auto why = bcast_flattree_pipeline_limit(ranks, count, element_bytes); !why.empty()) {
    unsupported_call("flattree_pipeline", why);
  }
  const std::size_t segment = bytes_segment(8192, element_bytes);
  const std::size_t pipe_length = count / segment;
  if (pipe_length == 0) {
    auto program = bcast_flattree_program(ranks, root, count, element_bytes);
    program.name = "flat tree pipeline broadcast (SMPI)";
    return program;
  }
  CommProgram program(ranks, "flat tree pipeline broadcast (SMPI)");
  if (ranks == 1) return program;
  for (int rank = 0; rank < ranks; ++rank) {
    if (rank == root) continue;
    std::vector<std::uint32_t> receives;
    for (std::size_t i = 0; i < pipe_length; ++i) {
      receives.push_back(program.add(rank, ProgramStep::receive_of(root, data_slice(i * segment, segment))));
    }
    program.add(rank, ProgramStep::wait_for(receives));
    for (std::size_t i = 0; i < pipe_length; ++i) program.blocking_send(root, rank, data_slice(i * segment, segment));
  }
  return program;
}

namespace {

// bcast__NTSL on elements [offset, offset + count) of the buffer.
void ntsl(CommProgram& program, int root, std::size_t offset, std::size_t count, std::size_t segment) {
  const int size = program.ranks;
  const std::size_t pipe_length = count / segment;
  const std::size_t remainder = count % segment;
  if (root != 0) {
    program.blocking_send(root, 0, data_slice(offset, count));
    program.blocking_receive(0, root, data_slice(offset, count));
  }
  if (count <= segment) {
    const Slice all = data_slice(offset, count);
    for (int rank = 0; rank < size; ++rank) {
      if (rank != 0) program.blocking_receive(rank, rank - 1, all);
      if (rank != size - 1) program.blocking_send(rank, rank + 1, all);
    }
    return;
  }
  for (int rank = 0; rank < size; ++rank) {
    std::vector<std::uint32_t> receives, sends;
    if (rank != 0) {
      for (std::size_t i = 0; i < pipe_length; ++i) {
        receives.push_back(
            program.add(rank, ProgramStep::receive_of(rank - 1, data_slice(offset + i * segment, segment))));
      }
    }
    if (rank == 0) {
      for (std::size_t i = 0; i < pipe_length; ++i) {
        sends.push_back(program.add(rank, ProgramStep::send_of(1, data_slice(offset + i * segment, segment))));
      }
      program.add(rank, ProgramStep::wait_for(sends));
    } else if (rank == size - 1) {
      program.add(rank, ProgramStep::wait_for(receives));
    } else {
      for (std::size_t i = 0; i < pipe_length; ++i) {
        program.add(rank, ProgramStep::wait_for({receives[i]}));
        sends.push_back(program.add(rank, ProgramStep::send_of(rank + 1, data_slice(offset + i * segment, segment))));
      }
      program.add(rank, ProgramStep::wait_for(sends));
    }
  }
  if (remainder != 0) ntsl(program, root, offset + pipe_length * segment, remainder, segment);
}

}  // namespace

CommProgram bcast_NTSL_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("NTSL", ranks, root, count, element_bytes);
  CommProgram program(ranks, "NTSL chain broadcast (SMPI)");
  if (ranks == 1) return program;
  ntsl(program, root, 0, count, bytes_segment(8192, element_bytes));
  return program;
}

}  // namespace hetcoll::mpi_programs
