// MPI libraries' own collective algorithms as communication programs
// (plan/comm_program.h), exactly as SimGrid SMPI 3.32 runs them
// (simgrid/simgrid, src/smpi/colls/), so that predict_program
// (sim/program_simulation.h) times them as SMPI does and the MPI runtime
// can compare them with hetcoll's plans by one prediction.
//
// One table, as SimGrid's smpi_coll.cpp: per collective, the algorithms by
// the names of --cfg=smpi/bcast:NAME (reduce:, allreduce:, allgather:), a description
// and the generator. "default" is what SMPI runs when nothing is forced
// (smpi_default_selector.cpp). Every generator takes the call (ranks, root,
// count elements of element_bytes bytes; allreduce and allgather ignore root; allgather's count is
// each rank's block, buffer 0 holding all of them) and
// returns the program every rank runs; buffer 0 is the caller's data.
// Programs of reduce and allreduce assume a commutative operation (SMPI's
// default reduce runs ompi_basic_linear for non-commutative ones).
//
// Where a generator departs from SimGrid's code (its file's header says
// how): MPI lets a receive be longer than its message, a program's receive
// has the message's exact size (same bytes on the network); where SimGrid
// reduces from a separate send buffer, the program first copies buffer 0
// to scratch (one local copy). A call SimGrid's code cannot run or that
// would not compute the collective (e.g. a division by zero for count 0, a
// part never sent, pieces that split elements) is refused: `limit` says
// why, the generator throws InputError with that reason. For the
// scatter-allgather broadcasts refused because pieces split elements, the
// program of count · element_bytes one-byte elements has SMPI's timing
// (prediction only: it does not run on the datatype).
//
// STABLE INTERFACE: MpiAlgorithm, mpi_algorithms, find_mpi_algorithm,
// mpi_algorithm_program.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/plan/comm_program.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

using MpiProgramGenerator = CommProgram (*)(int ranks, int root, std::size_t count, std::size_t element_bytes);
// Empty when the generator models the call; else why it refuses it.
using MpiProgramLimit = std::string (*)(int ranks, std::size_t count, std::size_t element_bytes);

struct MpiAlgorithm {
  Operation operation = Operation::broadcast;
  std::string_view name;         // as SMPI spells it: smpi/bcast:binomial_tree
  std::string_view description;  // one line
  MpiProgramGenerator generate = nullptr;
  MpiProgramLimit limit = nullptr;  // nullptr: every call is modelled

  // The reason this call is refused, or empty.
  std::string refusal(int ranks, std::size_t count, std::size_t element_bytes) const {
    return limit == nullptr ? std::string{} : limit(ranks, count, element_bytes);
  }
};

// Every algorithm, broadcast first, then reduce, allreduce, allgather.
const std::vector<MpiAlgorithm>& mpi_algorithms();
// Throws InputError (parameter "algorithm") listing every valid name of
// the operation when `name` is unknown (or the operation has none).
const MpiAlgorithm& find_mpi_algorithm(Operation operation, std::string_view name);
// find_mpi_algorithm(...).generate(...).
CommProgram mpi_algorithm_program(Operation operation, std::string_view name, int ranks, int root, std::size_t count,
                                  std::size_t element_bytes);

namespace mpi_programs {

// broadcast_trees.cpp
CommProgram bcast_binomial_tree_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram bcast_flattree_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram bcast_flattree_pipeline_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
std::string bcast_flattree_pipeline_limit(int ranks, std::size_t count, std::size_t element_bytes);
CommProgram bcast_NTSL_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram bcast_mvapich2_knomial_intra_node_program(int ranks, int root, std::size_t count,
                                                      std::size_t element_bytes);
// broadcast_ompi.cpp
CommProgram bcast_ompi_pipeline_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
std::string bcast_ompi_pipeline_limit(int ranks, std::size_t count, std::size_t element_bytes);
CommProgram bcast_ompi_split_bintree_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
std::string bcast_ompi_split_bintree_limit(int ranks, std::size_t count, std::size_t element_bytes);
// The segment sizes (bytes) SimGrid's ompi_pipeline and ompi_split_bintree
// use for a message of message_size bytes.
std::size_t bcast_ompi_pipeline_segment_bytes(int ranks, std::size_t message_size);
std::size_t bcast_ompi_split_bintree_segment_bytes(std::size_t message_size);
// broadcast_scatter_allgather.cpp
CommProgram bcast_scatter_LR_allgather_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram bcast_scatter_rdb_allgather_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
std::string bcast_scatter_allgather_limit(int ranks, std::size_t count, std::size_t element_bytes);
// reduce_linear.cpp
CommProgram reduce_default_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram reduce_flat_tree_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram reduce_ompi_basic_linear_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
// reduce_binomial.cpp
CommProgram reduce_binomial_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
// reduce_ompi_generic.cpp
CommProgram reduce_ompi_pipeline_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram reduce_ompi_binomial_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram reduce_ompi_binary_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
std::string reduce_ompi_limit(int ranks, std::size_t count, std::size_t element_bytes);
// The segment sizes (bytes; 0: unsegmented) of SimGrid's ompi_pipeline,
// ompi_binomial and ompi_binary reduces.
std::size_t reduce_ompi_pipeline_segment_bytes(int ranks, std::size_t message_size);
std::size_t reduce_ompi_binomial_segment_bytes(int ranks, std::size_t count, std::size_t element_bytes);
inline constexpr std::size_t kReduceOmpiBinarySegmentBytes = 32 * 1024;
// reduce_rab.cpp
CommProgram reduce_rab_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram allreduce_rab_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
std::string rab_limit(int ranks, std::size_t count, std::size_t element_bytes);
// reduce_scatter_gather.cpp
CommProgram reduce_scatter_gather_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
// allreduce_rdb.cpp
CommProgram allreduce_rdb_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
// allreduce_lr.cpp
CommProgram allreduce_lr_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
// allreduce_ompi_ring_segmented.cpp
CommProgram allreduce_ompi_ring_segmented_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
std::string allreduce_ompi_ring_segmented_limit(int ranks, std::size_t count, std::size_t element_bytes);
inline constexpr std::size_t kAllreduceOmpiRingSegmentBytes = 1024 * 1024;
// allreduce_rab1.cpp
CommProgram allreduce_rab1_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
std::string allreduce_rab1_limit(int ranks, std::size_t count, std::size_t element_bytes);
// allreduce_rab2.cpp
CommProgram allreduce_rab2_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
std::string allreduce_rab2_limit(int ranks, std::size_t count, std::size_t element_bytes);
// allreduce_rab_rdb.cpp
CommProgram allreduce_rab_rdb_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
// allreduce_reduce_bcast.cpp
CommProgram allreduce_default_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram allreduce_redbcast_program(int ranks, int root, std::size_t count, std::size_t element_bytes);

// allgather.cpp (count: elements per rank; buffer 0 holds every rank's block)
CommProgram allgather_default_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram allgather_ring_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram allgather_pair_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
std::string allgather_power_of_two_limit(int ranks, std::size_t count, std::size_t element_bytes);
CommProgram allgather_NTSLR_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram allgather_bruck_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram allgather_rdb_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
CommProgram allgather_rhv_program(int ranks, int root, std::size_t count, std::size_t element_bytes);
std::string allgather_rdb_limit(int ranks, std::size_t count, std::size_t element_bytes);

}  // namespace mpi_programs
}  // namespace hetcoll
