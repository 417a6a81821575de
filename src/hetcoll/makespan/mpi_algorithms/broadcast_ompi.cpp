// Open MPI's segmented broadcasts, as SimGrid SMPI 3.32 runs them
// (simgrid/simgrid, src/smpi/colls/bcast/, from Open MPI's coll/tuned):
//  * ompi_pipeline (bcast-ompi-pipeline.cpp): a chain from the root
//    (root -> root+1 -> ...), segments of 128, 64 or 16 KiB chosen by
//    Open MPI's decision lines on the message size; a relay keeps two
//    receives posted, forwards each segment with MPI_Isend and waits for
//    it before the next. SimGrid divides by zero for count 0 (refused).
//  * ompi_split_bintree (bcast-ompi-split-bintree.cpp): the buffer is cut in
//    two halves; the root pipelines the first half down the left subtree
//    of a binary tree and the second down the right one (segments of 1 KiB
//    below 370728 bytes, else 8 KiB; blocking sends), then every rank
//    swaps halves with its partner in the other subtree (MPI_Sendrecv).
//    Messages too small to cut (a half under one segment) make SimGrid
//    call bcast SMP_linear, which depends on the ranks per host and, with
//    one rank per host, leaves messages unmatched: refused.
// Guarantee: the same messages, in the same order, with the same blocking
// calls as SimGrid's code. Complexity: O(p · segments) steps.
#include <fmt/format.h>

#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

std::size_t bcast_ompi_pipeline_segment_bytes(int ranks, std::size_t message_size) {
  const double a_p16 = 3.2118e-6, b_p16 = 8.7936;
  const double a_p64 = 2.3679e-6, b_p64 = 1.1787;
  const double a_p128 = 1.6134e-6, b_p128 = 2.1102;
  const auto m = static_cast<double>(message_size);
  if (ranks < a_p128 * m + b_p128) return 1024 << 7;
  if (ranks < a_p64 * m + b_p64) return 1024 << 6;
  if (ranks < a_p16 * m + b_p16) return 1024 << 4;
  return 1024 << 7;
}

std::string bcast_ompi_pipeline_limit(int ranks, std::size_t count, std::size_t) {
  if (count == 0 && ranks > 1) return "SimGrid's ompi_pipeline divides by zero for count 0";
  return {};
}

CommProgram bcast_ompi_pipeline_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("ompi_pipeline", ranks, root, count, element_bytes);
  if (auto why = bcast_ompi_pipeline_limit(ranks, count, element_bytes); !why.empty()) {
    unsupported_call("ompi_pipeline", why);
  }
  CommProgram program(ranks, "Open MPI pipeline broadcast (SMPI)");
  if (ranks == 1) return program;
  const std::size_t per_segment =
      ompi_segment_count(bcast_ompi_pipeline_segment_bytes(ranks, count * element_bytes), element_bytes, count);
  const std::size_t segments = (count + per_segment - 1) / per_segment;
  auto segment = [&](std::size_t s) {
    return data_slice(s * per_segment, s + 1 == segments ? count - s * per_segment : per_segment);
  };
  for (int rank = 0; rank < ranks; ++rank) {
    const TreeNode node = ompi_chain(ranks, root, rank);
    auto forward = [&](std::size_t s) {
      std::vector<std::uint32_t> sends;
      for (int child : node.children) sends.push_back(program.add(rank, ProgramStep::send_of(child, segment(s))));
      program.add(rank, ProgramStep::wait_for(sends));
    };
    if (rank == root) {
      for (std::size_t s = 0; s < segments; ++s) forward(s);
      continue;
    }
    // Relays and leaves: two receives in flight.
    std::uint32_t previous = program.add(rank, ProgramStep::receive_of(node.parent, segment(0)));
    for (std::size_t s = 1; s < segments; ++s) {
      const std::uint32_t next = program.add(rank, ProgramStep::receive_of(node.parent, segment(s)));
      program.add(rank, ProgramStep::wait_for({previous}));
      if (!node.children.empty()) forward(s - 1);
      previous = next;
    }
    program.add(rank, ProgramStep::wait_for({previous}));
    if (!node.children.empty()) forward(segments - 1);
  }
  return program;
}

namespace {

struct SplitShape {
  std::size_t half[2] = {0, 0};
  std::size_t per_segment = 0;
  std::size_t segments[2] = {0, 0};
  bool cut = false;  // false: SimGrid falls back to SMP_linear
};

}  // namespace

std::size_t bcast_ompi_split_bintree_segment_bytes(std::size_t message_size) {
  return message_size < 370728 ? 1024 : 1024 << 3;
}

namespace {

SplitShape split_shape(std::size_t count, std::size_t element_bytes) {
  SplitShape shape;
  std::size_t segment_bytes = bcast_ompi_split_bintree_segment_bytes(count * element_bytes);
  shape.half[0] = count / 2 + count % 2;
  shape.half[1] = count - shape.half[0];
  if (segment_bytes < element_bytes) segment_bytes = element_bytes;
  shape.per_segment = segment_bytes / element_bytes;
  for (int i = 0; i < 2; ++i) shape.segments[i] = (shape.half[i] + shape.per_segment - 1) / shape.per_segment;
  shape.cut = shape.half[0] != 0 && shape.half[1] != 0 && segment_bytes <= shape.half[0] * element_bytes &&
              segment_bytes <= shape.half[1] * element_bytes;
  return shape;
}

}  // namespace

std::string bcast_ompi_split_bintree_limit(int ranks, std::size_t count, std::size_t element_bytes) {
  if (ranks > 1 && !split_shape(count, element_bytes).cut) {
    return fmt::format("{} elements of {} bytes are too few to cut: SimGrid falls back to bcast SMP_linear, "
                       "which depends on the ranks per host (not modelled)",
                       count, element_bytes);
  }
  return {};
}

CommProgram bcast_ompi_split_bintree_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("ompi_split_bintree", ranks, root, count, element_bytes);
  if (auto why = bcast_ompi_split_bintree_limit(ranks, count, element_bytes); !why.empty()) {
    unsupported_call("ompi_split_bintree", why);
  }
  CommProgram program(ranks, "Open MPI split binary tree broadcast (SMPI)");
  if (ranks == 1) return program;
  const SplitShape shape = split_shape(count, element_bytes);
  const std::size_t start[2] = {0, shape.half[0]};
  auto segment = [&](int side, std::size_t s) {
    const std::size_t elements = s + 1 == shape.segments[side] ? shape.half[side] - s * shape.per_segment
                                                                 : shape.per_segment;
    return data_slice(start[side] + s * shape.per_segment, elements);
  };
  for (int rank = 0; rank < ranks; ++rank) {
    const TreeNode node = ompi_tree(2, ranks, root, rank);
    const int side = ((rank + ranks - root) % ranks + 1) % 2;  // 0: left (odd shifted ranks), 1: right and root
    if (rank == root) {
      for (std::size_t s = 0; s < shape.segments[0]; ++s) {
        for (std::size_t i = 0; i < node.children.size() && i < 2; ++i) {
          if (s >= shape.segments[i]) continue;
          program.blocking_send(rank, node.children[i], segment(static_cast<int>(i), s));
        }
      }
    } else if (!node.children.empty()) {
      std::uint32_t base = program.add(rank, ProgramStep::receive_of(node.parent, segment(side, 0)));
      for (std::size_t s = 1; s < shape.segments[side]; ++s) {
        const std::uint32_t next = program.add(rank, ProgramStep::receive_of(node.parent, segment(side, s)));
        program.add(rank, ProgramStep::wait_for({base}));
        for (int child : node.children) program.blocking_send(rank, child, segment(side, s - 1));
        base = next;
      }
      program.add(rank, ProgramStep::wait_for({base}));
      for (int child : node.children) program.blocking_send(rank, child, segment(side, shape.segments[side] - 1));
    } else {
      for (std::size_t s = 0; s < shape.segments[side]; ++s) {
        program.blocking_receive(rank, node.parent, segment(side, s));
      }
    }
    // Step 2: swap halves with the partner in the other subtree.
    const int pair = side == 0 ? (rank + 1) % ranks : (rank + ranks - 1) % ranks;
    const Slice mine = data_slice(start[side], shape.half[side]);
    const Slice other = data_slice(start[1 - side], shape.half[1 - side]);
    if (ranks % 2 != 0) {
      if (rank != root) program.send_receive(rank, pair, mine, pair, other);
    } else if (rank == root) {
      program.blocking_send(rank, (root + ranks - 1) % ranks, data_slice(start[1], shape.half[1]));
    } else if (rank == (root + ranks - 1) % ranks) {
      program.blocking_receive(rank, root, data_slice(start[1], shape.half[1]));
    } else {
      program.send_receive(rank, pair, mine, pair, other);
    }
  }
  return program;
}

}  // namespace hetcoll::mpi_programs
