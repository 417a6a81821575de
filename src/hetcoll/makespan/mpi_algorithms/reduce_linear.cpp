// Reduces where every rank sends its whole contribution to the root, as
// SimGrid SMPI 3.32 runs them (simgrid/simgrid, src/smpi/colls/):
//  * default (smpi_default_selector.cpp, reduce__default -> colls::ireduce
//    in smpi_nbc_impl.cpp): every non-root posts an MPI_Isend to the root
//    and waits; the root posts an MPI_Irecv from every other rank, in rank
//    order, into separate temporaries, waits for all, then combines them.
//    What PMPI_Reduce runs when nothing is forced (commutative operations).
//  * flat_tree (reduce/reduce-flat-tree.cpp) and ompi_basic_linear
//    (reduce/reduce-ompi.cpp, Open MPI's basic linear reduce): non-roots
//    send with blocking MPI_Send; the root receives (blocking) from rank
//    p-1 into its result, then from p-2 down to 0 into one temporary,
//    combining each before the next receive (its own contribution when the
//    loop reaches it). The two differ only in a local copy.
// Deviation: when the root is not rank p-1, its result buffer receives
// rank p-1's data first, so the program first copies buffer 0 (the root's
// contribution) to scratch, as SimGrid keeps the separate send buffer.
// Complexity: O(p) steps.
#include <numeric>

#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

void append_reduce_default(CommProgram& program, int root, std::size_t offset, std::size_t count) {
  const int ranks = program.ranks;
  if (ranks == 1) return;
  const Slice mine = data_slice(offset, count);
  const std::uint32_t temporaries = program.add_buffer(count * static_cast<std::size_t>(ranks - 1));
  std::vector<std::uint32_t> receives;
  std::vector<Slice> landed;
  for (int source = 0; source < ranks; ++source) {
    if (source == root) continue;
    program.blocking_send(source, root, mine);
    const Slice into = scratch_slice(temporaries, landed.size() * count, count);
    receives.push_back(program.add(root, ProgramStep::receive_of(source, into)));
    landed.push_back(into);
  }
  program.add(root, ProgramStep::wait_for(receives));
  for (const Slice& part : landed) program.add(root, ProgramStep::combine_of(part, mine));
}

CommProgram reduce_default_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("default", ranks, root, count, element_bytes);
  CommProgram program(ranks, "SMPI default reduce (non-blocking linear)");
  append_reduce_default(program, root, 0, count);
  return program;
}

namespace {

CommProgram linear_reduce(int ranks, int root, std::size_t count, std::string name) {
  CommProgram program(ranks, std::move(name));
  if (ranks == 1) return program;
  const Slice result = data_slice(0, count);
  Slice own = result;  // the root's contribution (SimGrid's sbuf)
  if (root != ranks - 1) {
    own = scratch_slice(program.add_buffer(count), 0, count);
    program.add(root, ProgramStep::copy_of(result, own));
  }
  for (int rank = 0; rank < ranks; ++rank) {
    if (rank != root) program.blocking_send(rank, root, result);
  }
  if (root != ranks - 1) program.blocking_receive(root, ranks - 1, result);
  const Slice temporary = scratch_slice(program.add_buffer(count), 0, count);
  for (int i = ranks - 2; i >= 0; --i) {
    if (i == root) {
      program.add(root, ProgramStep::combine_of(own, result));
    } else {
      program.blocking_receive(root, i, temporary);
      program.add(root, ProgramStep::combine_of(temporary, result));
    }
  }
  return program;
}

}  // namespace

CommProgram reduce_flat_tree_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("flat_tree", ranks, root, count, element_bytes);
  return linear_reduce(ranks, root, count, "flat tree reduce (SMPI)");
}

CommProgram reduce_ompi_basic_linear_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("ompi_basic_linear", ranks, root, count, element_bytes);
  return linear_reduce(ranks, root, count, "Open MPI basic linear reduce (SMPI)");
}

}  // namespace hetcoll::mpi_programs
