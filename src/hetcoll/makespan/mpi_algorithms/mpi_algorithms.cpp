#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

const std::vector<MpiAlgorithm>& mpi_algorithms() {
  using namespace mpi_programs;
  static const std::vector<MpiAlgorithm> table = {
      {Operation::broadcast, "default", "SMPI's default: binomial_tree", bcast_binomial_tree_program, nullptr},
      {Operation::broadcast, "binomial_tree", "binomial tree, blocking sends (MPICH short messages)",
       bcast_binomial_tree_program, nullptr},
      {Operation::broadcast, "flattree", "the root Isends to every rank at once", bcast_flattree_program, nullptr},
      {Operation::broadcast, "ompi_pipeline", "Open MPI: segmented chain from the root", bcast_ompi_pipeline_program,
       bcast_ompi_pipeline_limit},
      {Operation::broadcast, "scatter_LR_allgather", "binomial scatter, then ring allgather",
       bcast_scatter_LR_allgather_program, bcast_scatter_allgather_limit},
      {Operation::broadcast, "scatter_rdb_allgather",
       "binomial scatter, then recursive-doubling allgather (MPICH long messages)",
       bcast_scatter_rdb_allgather_program, bcast_scatter_allgather_limit},
      {Operation::broadcast, "ompi_split_bintree",
       "Open MPI: halves pipelined down two binary subtrees, then swapped", bcast_ompi_split_bintree_program,
       bcast_ompi_split_bintree_limit},
      {Operation::broadcast, "NTSL", "segmented chain 0 -> 1 -> ... -> p-1", bcast_NTSL_program, nullptr},
      {Operation::broadcast, "flattree_pipeline", "the root sends 8 KiB segments to each rank in turn",
       bcast_flattree_pipeline_program, bcast_flattree_pipeline_limit},
      {Operation::broadcast, "mvapich2_knomial_intra_node", "MVAPICH2: k-nomial tree (k = 4), each level's sends at once",
       bcast_mvapich2_knomial_intra_node_program, nullptr},
      {Operation::reduce, "default", "SMPI's default: every rank Isends to the root, which Irecvs from all",
       reduce_default_program, nullptr},
      {Operation::reduce, "binomial", "binomial tree (MPICH)", reduce_binomial_program, nullptr},
      {Operation::reduce, "flat_tree", "the root receives from p-1 down to 0, blocking", reduce_flat_tree_program,
       nullptr},
      {Operation::reduce, "ompi_basic_linear", "Open MPI: the root receives from p-1 down to 0, blocking",
       reduce_ompi_basic_linear_program, nullptr},
      {Operation::reduce, "rab", "Rabenseifner: reduce-scatter by halving, then binomial gather (predefined types)",
       reduce_rab_program, rab_limit},
      {Operation::reduce, "scatter_gather", "Rabenseifner: reduce-scatter by halving, then binomial gather",
       reduce_scatter_gather_program, nullptr},
      {Operation::reduce, "ompi_pipeline", "Open MPI: segmented chain towards the root",
       reduce_ompi_pipeline_program, reduce_ompi_limit},
      {Operation::reduce, "ompi_binomial", "Open MPI: in-order binomial tree, segmented for large messages",
       reduce_ompi_binomial_program, reduce_ompi_limit},
      {Operation::reduce, "ompi_binary", "Open MPI: binary tree, 32 KiB segments", reduce_ompi_binary_program,
       reduce_ompi_limit},
      {Operation::allreduce, "default", "SMPI's default: default reduce to rank 0, then binomial bcast",
       allreduce_default_program, nullptr},
      {Operation::allreduce, "rdb", "recursive doubling (MPICH short messages)", allreduce_rdb_program, nullptr},
      {Operation::allreduce, "lr", "ring reduce-scatter, then ring allgather", allreduce_lr_program, nullptr},
      {Operation::allreduce, "rab", "Rabenseifner: reduce-scatter by halving, allgather by doubling (predefined types)",
       allreduce_rab_program, rab_limit},
      {Operation::allreduce, "rab1", "Rabenseifner: reduce-scatter by halving, then SMPI's default allgather",
       allreduce_rab1_program, allreduce_rab1_limit},
      {Operation::allreduce, "rab2", "Rabenseifner: SMPI's default alltoall, local reduce, default allgather",
       allreduce_rab2_program, allreduce_rab2_limit},
      {Operation::allreduce, "rab_rdb",
       "Rabenseifner: reduce-scatter by halving, allgather by doubling (MPICH long messages)",
       allreduce_rab_rdb_program, nullptr},
      {Operation::allreduce, "ompi_ring_segmented",
       "Open MPI: ring reduce-scatter in 1 MiB segments, then ring allgather (lr below p segments)",
       allreduce_ompi_ring_segmented_program, allreduce_ompi_ring_segmented_limit},
      {Operation::allreduce, "redbcast", "the selected reduce to rank 0, then the selected bcast",
       allreduce_redbcast_program, nullptr},
      {Operation::allgather, "default", "SMPI's default: every rank sends its block to every other at once",
       allgather_default_program, nullptr},
      {Operation::allgather, "ring", "step i: the own block to rank + i, from rank - i", allgather_ring_program,
       nullptr},
      {Operation::allgather, "pair", "step i: the own block exchanged with rank xor i (a power of two ranks)",
       allgather_pair_program, allgather_power_of_two_limit},
      {Operation::allgather, "NTSLR", "logical ring: each block passed on to the right", allgather_NTSLR_program,
       nullptr},
      {Operation::allgather, "bruck", "Bruck: doubling exchanges, then a local rotation", allgather_bruck_program,
       nullptr},
      {Operation::allgather, "rdb", "recursive doubling (a power of two ranks)", allgather_rdb_program,
       allgather_rdb_limit},
      {Operation::allgather, "rhv", "bit-reversed start, then partners at halving distances (a power of two ranks)",
       allgather_rhv_program, allgather_power_of_two_limit},
  };
  return table;
}

const MpiAlgorithm& find_mpi_algorithm(Operation operation, std::string_view name) {
  std::string names;
  for (const auto& algorithm : mpi_algorithms()) {
    if (algorithm.operation != operation) continue;
    if (algorithm.name == name) return algorithm;
    names += fmt::format("{}{}", names.empty() ? "" : ", ", algorithm.name);
  }
  if (names.empty()) {
    throw InputError("algorithm", fmt::format("no MPI algorithm is modelled for {}", to_string(operation)));
  }
  throw InputError("algorithm",
                   fmt::format("no MPI {} algorithm \"{}\" (valid: {})", to_string(operation), name, names));
}

CommProgram mpi_algorithm_program(Operation operation, std::string_view name, int ranks, int root, std::size_t count,
                                  std::size_t element_bytes) {
  return find_mpi_algorithm(operation, name).generate(ranks, root, count, element_bytes);
}

}  // namespace hetcoll
