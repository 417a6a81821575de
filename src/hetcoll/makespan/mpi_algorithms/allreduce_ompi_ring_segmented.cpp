// Open MPI's segmented ring all-reduce, as SimGrid SMPI 3.32 runs it
// (simgrid/simgrid, src/smpi/colls/allreduce/allreduce-ompi-ring-segmented.cpp,
// from Open MPI's coll/tuned): the vector is cut in p blocks (the first
// count mod p one element longer), each block in num_phases segments of
// about 1 MiB. Per phase, a ring reduce-scatter of that phase's segments:
// a rank sends its own block's segment (blocking), then for k = 2 .. p-1
// keeps two receives posted (two temporaries), waits for one, combines it
// into its buffer and sends the result on (blocking MPI_Send); it ends by
// combining the segment of block rank + 1. Then a ring allgather of whole
// blocks (p - 1 MPI_Sendrecv). Vectors under p segments run lr instead
// (allreduce_lr.cpp), as SimGrid does; SimGrid divides by zero for count
// 0 (refused).
// Receives take their message's exact size (Open MPI posts the largest
// segment or block). Commutative operations. Complexity: O(p · phases) steps.
#include <array>
#include <string>

#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

namespace {

// COLL_TUNED_COMPUTE_BLOCKCOUNT: `blocks` parts of `count`, the first
// count mod blocks one longer. Offset and length of part `index`.
struct Parts {
  std::size_t early = 0, late = 0, split = 0;
  Parts(std::size_t count, std::size_t blocks)
      : early(count / blocks + (count % blocks != 0 ? 1 : 0)), late(count / blocks), split(count % blocks) {}
  std::size_t offset(std::size_t index) const { return index < split ? index * early : index * late + split; }
  std::size_t length(std::size_t index) const { return index < split ? early : late; }
};

}  // namespace

std::string allreduce_ompi_ring_segmented_limit(int ranks, std::size_t count, std::size_t) {
  if (count == 0 && ranks > 1) return "SimGrid's ompi_ring_segmented divides by zero for count 0";
  return {};
}

CommProgram allreduce_ompi_ring_segmented_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("ompi_ring_segmented", ranks, 0, count, element_bytes);
  if (auto why = allreduce_ompi_ring_segmented_limit(ranks, count, element_bytes); !why.empty()) {
    unsupported_call("ompi_ring_segmented", why);
  }
  const auto size = static_cast<std::size_t>(ranks);
  const std::size_t per_segment = ompi_segment_count(kAllreduceOmpiRingSegmentBytes, element_bytes, count);
  if (ranks == 1) return CommProgram(1, "Open MPI segmented ring all-reduce (SMPI)");
  if (count < size * per_segment) {
    auto program = allreduce_lr_program(ranks, root, count, element_bytes);
    program.name = "Open MPI segmented ring all-reduce (SMPI, as lr)";
    return program;
  }
  CommProgram program(ranks, "Open MPI segmented ring all-reduce (SMPI)");
  std::size_t phases = count / (size * per_segment);
  const std::size_t left_over = count % (size * per_segment);
  if (left_over >= size && left_over > (size * per_segment) / 2) ++phases;
  const Parts blocks(count, size);
  const std::size_t max_segment = Parts(blocks.early, phases).early;
  const std::array<std::uint32_t, 2> inbuf = {program.add_buffer(max_segment), program.add_buffer(max_segment)};
  // Segment `phase` of block `block`.
  auto segment = [&](int block, std::size_t phase) {
    const auto b = static_cast<std::size_t>(block);
    const Parts in_block(blocks.length(b), phases);
    return data_slice(blocks.offset(b) + in_block.offset(phase), in_block.length(phase));
  };
  for (int rank = 0; rank < ranks; ++rank) {
    const int send_to = (rank + 1) % ranks;
    const int receive_from = (rank + ranks - 1) % ranks;
    for (std::size_t phase = 0; phase < phases; ++phase) {
      int inbi = 0;
      // What arrives: the previous rank's block (rank - 1) first, then block (rank - k) at step k.
      Slice landed[2];
      std::uint32_t requests[2] = {0, 0};
      auto post = [&](int block) {
        const Slice arriving = segment(block, phase);
        landed[inbi] = scratch_slice(inbuf[static_cast<std::size_t>(inbi)], 0, arriving.count);
        requests[inbi] = program.add(rank, ProgramStep::receive_of(receive_from, landed[inbi]));
      };
      post((rank + ranks - 1) % ranks);
      program.blocking_send(rank, send_to, segment(rank, phase));
      for (int k = 2; k < ranks; ++k) {
        const int previous_block = (rank + ranks - k + 1) % ranks;
        inbi ^= 1;
        post((rank + ranks - k) % ranks);
        program.add(rank, ProgramStep::wait_for({requests[inbi ^ 1]}));
        program.add(rank, ProgramStep::combine_of(landed[inbi ^ 1], segment(previous_block, phase)));
        program.blocking_send(rank, send_to, segment(previous_block, phase));
      }
      program.add(rank, ProgramStep::wait_for({requests[inbi]}));
      program.add(rank, ProgramStep::combine_of(landed[inbi], segment((rank + 1) % ranks, phase)));
    }
    for (int k = 0; k < ranks - 1; ++k) {
      const auto receive_block = static_cast<std::size_t>((rank + ranks - k) % ranks);
      const auto send_block = static_cast<std::size_t>((rank + 1 + ranks - k) % ranks);
      program.send_receive(rank, send_to, data_slice(blocks.offset(send_block), blocks.length(send_block)),
                           receive_from, data_slice(blocks.offset(receive_block), blocks.length(receive_block)));
    }
  }
  return program;
}

}  // namespace hetcoll::mpi_programs
