// All-reduces made of a reduce to rank 0 then a broadcast from it, as
// SimGrid SMPI 3.32 runs them (simgrid/simgrid, src/smpi/colls/):
//  * default (smpi_default_selector.cpp, allreduce__default): SMPI's
//    default reduce (every rank MPI_Isends to rank 0, which MPI_Irecvs from
//    all, reduce_linear.cpp) then the default bcast (binomial tree,
//    broadcast_trees.cpp). What PMPI_Allreduce runs when nothing is forced.
//  * redbcast (allreduce/allreduce-redbcast.cpp): colls::reduce then
//    colls::bcast, the selected reduce and bcast: with only the allreduce
//    forced, the same two defaults.
// Commutative operations. Complexity: O(p) steps.
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

CommProgram allreduce_default_program(int ranks, int, std::size_t count, std::size_t element_bytes) {
  check_call("default", ranks, 0, count, element_bytes);
  CommProgram program(ranks, "SMPI default all-reduce (linear reduce, binomial bcast)");
  append_reduce_default(program, 0, 0, count);
  append_bcast_binomial_tree(program, 0, 0, count);
  return program;
}

CommProgram allreduce_redbcast_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("redbcast", ranks, 0, count, element_bytes);
  auto program = allreduce_default_program(ranks, root, count, element_bytes);
  program.name = "reduce then bcast all-reduce (SMPI)";
  return program;
}

}  // namespace hetcoll::mpi_programs
