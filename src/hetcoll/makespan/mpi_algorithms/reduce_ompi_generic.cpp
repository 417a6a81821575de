// Open MPI's segmented tree reduces, as SimGrid SMPI 3.32 runs them
// (simgrid/simgrid, src/smpi/colls/reduce/reduce-ompi.cpp,
// smpi_coll_tuned_ompi_reduce_generic, from Open MPI's coll/tuned):
//  * ompi_pipeline: a chain towards the root (root <- root+1 <- ...),
//    segments of 1, 32 or 64 KiB by Open MPI's decision lines;
//  * ompi_binary: Open MPI's binary tree, segments of 32 KiB;
//  * ompi_binomial: the in-order binomial tree, segments of 1 KiB for
//    large enough messages, else unsegmented.
// The generic loop, per segment s and child i: post the receive of segment
// s from child i (child 0's lands in the accumulator, the others in two
// alternating temporaries), wait for the previous receive and combine it;
// after the last child of segment s - 1 the rank combines and sends (blocking)
// the accumulated segment s - 1 to its parent. Leaves send every segment
// with blocking MPI_Send. Commutative operations. SimGrid divides by zero
// for count 0: refused.
// Deviation: the root's accumulator is its result buffer, so the program
// first copies buffer 0 (its contribution) to scratch, as SimGrid keeps
// the separate send buffer.
// Complexity: O(p · segments) steps.
#include <array>
#include <optional>

#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

std::string reduce_ompi_limit(int ranks, std::size_t count, std::size_t) {
  if (count == 0 && ranks > 1) return "SimGrid's Open MPI reduce divides by zero for count 0";
  return {};
}

namespace {

using TreeOf = TreeNode (*)(int ranks, int root, int rank);

CommProgram ompi_generic_reduce(int ranks, int root, std::size_t count, std::size_t per_segment, TreeOf tree,
                                std::string name) {
  CommProgram program(ranks, std::move(name));
  if (ranks == 1) return program;
  const std::size_t segments = (count + per_segment - 1) / per_segment;
  auto length = [&](std::size_t s) { return s + 1 == segments ? count - s * per_segment : per_segment; };
  const std::uint32_t accumulators = program.add_buffer(count);  // non-roots' accumbuf
  const std::uint32_t own_copy = program.add_buffer(count);      // the root's send buffer
  const std::array<std::uint32_t, 2> inbuf = {program.add_buffer(per_segment), program.add_buffer(per_segment)};
  for (int rank = 0; rank < ranks; ++rank) {
    const TreeNode node = tree(ranks, root, rank);
    if (node.children.empty()) {
      for (std::size_t s = 0; s < segments; ++s) {
        program.blocking_send(rank, node.parent, data_slice(s * per_segment, length(s)));
      }
      continue;
    }
    const bool is_root = rank == root;
    const std::uint32_t accumulator = is_root ? 0 : accumulators;
    const std::uint32_t sent = is_root ? own_copy : 0;  // sendtmpbuf
    if (is_root) program.add(rank, ProgramStep::copy_of(data_slice(0, count), scratch_slice(own_copy, 0, count)));
    auto accumulated = [&](std::size_t s) { return scratch_slice(accumulator, s * per_segment, length(s)); };
    auto own = [&](std::size_t s) { return scratch_slice(sent, s * per_segment, length(s)); };
    std::array<std::optional<std::uint32_t>, 2> requests;
    std::array<Slice, 2> landed;
    int inbi = 0;
    const std::size_t children = node.children.size();
    for (std::size_t s = 0; s <= segments; ++s) {
      for (std::size_t i = 0; i < children; ++i) {
        if (s < segments) {
          const Slice into = i == 0 ? accumulated(s) : scratch_slice(inbuf[static_cast<std::size_t>(inbi)], 0, length(s));
          requests[static_cast<std::size_t>(inbi)] =
              program.add(rank, ProgramStep::receive_of(node.children[i], into));
          landed[static_cast<std::size_t>(inbi)] = into;
        }
        auto& previous = requests[static_cast<std::size_t>(inbi ^ 1)];
        if (previous) {
          program.add(rank, ProgramStep::wait_for({*previous}));
          previous.reset();
        }
        const Slice previous_data = landed[static_cast<std::size_t>(inbi ^ 1)];
        if (i > 0) {
          const Slice input = i == 1 ? own(s) : previous_data;
          program.add(rank, ProgramStep::combine_of(input, accumulated(s)));
        } else if (s > 0) {
          const Slice input = children <= 1 ? own(s - 1) : previous_data;
          program.add(rank, ProgramStep::combine_of(input, accumulated(s - 1)));
          if (!is_root) program.blocking_send(rank, node.parent, accumulated(s - 1));
          if (s == segments) break;
        }
        inbi ^= 1;
      }
    }
  }
  return program;
}

}  // namespace

std::size_t reduce_ompi_pipeline_segment_bytes(int ranks, std::size_t message_size) {
  const double a2 = 0.0410 / 1024.0, b2 = 9.7128, a4 = 0.0033 / 1024.0, b4 = 1.6761;
  const auto message = static_cast<double>(message_size);
  if (ranks > a2 * message + b2) return 1024;
  if (ranks > a4 * message + b4) return 32 * 1024;
  return 64 * 1024;
}

std::size_t reduce_ompi_binomial_segment_bytes(int ranks, std::size_t count, std::size_t element_bytes) {
  const double a1 = 0.6016 / 1024.0, b1 = 1.3496;
  const std::size_t message = count * element_bytes;
  if ((ranks < 8 && message < 20480) || message < 2048 || count <= 1) return 0;
  if (ranks > a1 * static_cast<double>(message) + b1) return 1024;
  return 0;
}

CommProgram reduce_ompi_pipeline_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("ompi_pipeline", ranks, root, count, element_bytes);
  if (auto why = reduce_ompi_limit(ranks, count, element_bytes); !why.empty()) unsupported_call("ompi_pipeline", why);
  const std::size_t segment_bytes = reduce_ompi_pipeline_segment_bytes(ranks, count * element_bytes);
  return ompi_generic_reduce(ranks, root, count, ompi_segment_count(segment_bytes, element_bytes, count), ompi_chain,
                             "Open MPI pipeline reduce (SMPI)");
}

CommProgram reduce_ompi_binomial_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("ompi_binomial", ranks, root, count, element_bytes);
  if (auto why = reduce_ompi_limit(ranks, count, element_bytes); !why.empty()) unsupported_call("ompi_binomial", why);
  const std::size_t segment_bytes = reduce_ompi_binomial_segment_bytes(ranks, count, element_bytes);
  return ompi_generic_reduce(ranks, root, count, ompi_segment_count(segment_bytes, element_bytes, count),
                             ompi_in_order_binomial_tree, "Open MPI binomial reduce (SMPI)");
}

namespace {

TreeNode ompi_binary_tree(int ranks, int root, int rank) { return ompi_tree(2, ranks, root, rank); }

}  // namespace

// ompi_binary (reduce__ompi_binary): the generic loop on Open MPI's binary
// tree (ompi_coll_tuned_topo_build_tree(2, ...)), segments of 32 KiB.
CommProgram reduce_ompi_binary_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("ompi_binary", ranks, root, count, element_bytes);
  if (auto why = reduce_ompi_limit(ranks, count, element_bytes); !why.empty()) unsupported_call("ompi_binary", why);
  return ompi_generic_reduce(ranks, root, count, ompi_segment_count(kReduceOmpiBinarySegmentBytes, element_bytes, count), ompi_binary_tree,
                             "Open MPI binary-tree reduce (SMPI)");
}

}  // namespace hetcoll::mpi_programs
