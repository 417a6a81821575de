#include "hetcoll/makespan/mpi_algorithms/stock_mpi.h"

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"

namespace hetcoll {

namespace {

constexpr Operation kBcast = Operation::broadcast;
constexpr Operation kReduce = Operation::reduce;
constexpr Operation kAllreduce = Operation::allreduce;
constexpr StockMpi kOmpi = StockMpi::openmpi;
constexpr StockMpi kMpich = StockMpi::mpich;

}  // namespace

const std::vector<StockMpiAlgorithm>& stock_mpi_algorithms() {
  static const std::vector<StockMpiAlgorithm> table = {
      // Open MPI 4.1, coll_tuned_bcast_decision.c
      {kOmpi, kBcast, 1, "basic_linear", "flattree", "the root Isends to every rank, then waits for all"},
      {kOmpi, kBcast, 2, "chain", "", "chains of fanout ranks: not modelled (fan-out 1 is the pipeline, id 3)"},
      {kOmpi, kBcast, 3, "pipeline", "ompi_pipeline", "segmented chain; the segment size is written in the rule"},
      {kOmpi, kBcast, 4, "split_binary_tree", "ompi_split_bintree",
       "halves down two binary subtrees, then swapped; the segment size is written in the rule"},
      {kOmpi, kBcast, 5, "binary_tree", "", "not modelled (SMPI's NTSB)"},
      {kOmpi, kBcast, 6, "binomial", "",
       "not modelled: Open MPI's tree posts every child's send at once, smallest subtree first (SMPI's "
       "binomial_tree is MPICH's)"},
      {kOmpi, kBcast, 7, "knomial", "", "not modelled (SMPI's ompi selector runs MVAPICH2's k-nomial instead)"},
      {kOmpi, kBcast, 8, "scatter_allgather", "", "not modelled: Open MPI's own code, not compared with SMPI's"},
      {kOmpi, kBcast, 9, "scatter_allgather_ring", "", "not modelled: Open MPI's own code, not compared with SMPI's"},
      // coll_tuned_reduce_decision.c
      {kOmpi, kReduce, 1, "linear", "ompi_basic_linear", "the root receives from p-1 down to 0"},
      {kOmpi, kReduce, 2, "chain", "", "not modelled (SMPI's ompi_chain)"},
      {kOmpi, kReduce, 3, "pipeline", "ompi_pipeline", "segmented chain; the segment size is written in the rule", false, true},
      {kOmpi, kReduce, 4, "binary", "ompi_binary", "segmented binary tree; the segment size is written in the rule", false, true},
      {kOmpi, kReduce, 5, "binomial", "ompi_binomial", "in-order binomial tree; the segment size is written in the rule",
       false, true},
      {kOmpi, kReduce, 6, "in-order_binary", "", "not modelled (SMPI's ompi_in_order_binary)"},
      {kOmpi, kReduce, 7, "rabenseifner", "", "not modelled: Open MPI's own code (SMPI's ompi selector runs linear)"},
      // coll_tuned_allreduce_decision.c
      {kOmpi, kAllreduce, 1, "basic_linear", "", "not modelled: Open MPI's linear reduce, then linear bcast"},
      {kOmpi, kAllreduce, 2, "nonoverlapping", "", "not modelled: Open MPI's selected reduce, then selected bcast"},
      {kOmpi, kAllreduce, 3, "recursive_doubling", "rdb", "recursive doubling"},
      {kOmpi, kAllreduce, 4, "ring", "lr", "ring reduce-scatter, then ring allgather", false, true},
      {kOmpi, kAllreduce, 5, "segmented_ring", "ompi_ring_segmented",
       "segmented ring; the segment size is written in the rule", false, true},
      {kOmpi, kAllreduce, 6, "rabenseifner", "rab_rdb",
       "reduce-scatter by halving, allgather by doubling (Open MPI runs linear for non-commutative operations)"},
      // MPICH 4, src/mpi/coll/coll_algorithms.txt (intra-communicator)
      {kMpich, kBcast, 0, "MPIR_Bcast_intra_binomial", "binomial_tree", "SMPI's port of MPICH's"},
      {kMpich, kBcast, 0, "MPIR_Bcast_intra_scatter_recursive_doubling_allgather", "scatter_rdb_allgather",
       "SMPI's port of MPICH's"},
      {kMpich, kBcast, 0, "MPIR_Bcast_intra_scatter_ring_allgather", "scatter_LR_allgather", "SMPI's port of MPICH's"},
      {kMpich, kBcast, 0, "MPIR_Bcast_intra_smp", "", "not modelled: node-aware"},
      {kMpich, kBcast, 0, "MPIR_Bcast_intra_tree", "", "not modelled"},
      {kMpich, kBcast, 0, "MPIR_Bcast_intra_pipelined_tree", "", "not modelled"},
      {kMpich, kReduce, 0, "MPIR_Reduce_intra_binomial", "binomial", "SMPI's port of MPICH's"},
      {kMpich, kReduce, 0, "MPIR_Reduce_intra_reduce_scatter_gather", "scatter_gather", "SMPI's port of MPICH's", true},
      {kMpich, kReduce, 0, "MPIR_Reduce_intra_smp", "", "not modelled: node-aware"},
      {kMpich, kAllreduce, 0, "MPIR_Allreduce_intra_recursive_doubling", "rdb", "SMPI's port of MPICH's"},
      {kMpich, kAllreduce, 0, "MPIR_Allreduce_intra_reduce_scatter_allgather", "rab_rdb", "SMPI's port of MPICH's",
       true},
      {kMpich, kAllreduce, 0, "MPIR_Allreduce_intra_ring", "lr", "ring reduce-scatter, then ring allgather"},
      {kMpich, kAllreduce, 0, "MPIR_Allreduce_intra_smp", "", "not modelled: node-aware"},
      {kMpich, kAllreduce, 0, "MPIR_Allreduce_intra_recursive_multiplying", "", "not modelled"},
      {kMpich, kAllreduce, 0, "MPIR_Allreduce_intra_tree", "", "not modelled"},
      {kMpich, kAllreduce, 0, "MPIR_Allreduce_intra_recexch", "", "not modelled"},
      {kMpich, kAllreduce, 0, "MPIR_Allreduce_intra_k_reduce_scatter_allgather", "", "not modelled"},
  };
  return table;
}

std::string_view openmpi_program(Operation operation, int id) {
  for (const auto& algorithm : stock_mpi_algorithms()) {
    if (algorithm.library == StockMpi::openmpi && algorithm.operation == operation && algorithm.id == id) {
      return algorithm.program;
    }
  }
  return {};
}

std::string_view openmpi_algorithm_name(Operation operation, int id) {
  for (const auto& algorithm : stock_mpi_algorithms()) {
    if (algorithm.library == StockMpi::openmpi && algorithm.operation == operation && algorithm.id == id) {
      return algorithm.name;
    }
  }
  return "?";
}

int openmpi_id_of_program(Operation operation, std::string_view program) {
  for (const auto& algorithm : stock_mpi_algorithms()) {
    if (algorithm.library == StockMpi::openmpi && algorithm.operation == operation && !program.empty() &&
        algorithm.program == program) {
      return algorithm.id;
    }
  }
  return 0;
}

int openmpi_collective_id(Operation operation) {
  switch (operation) {
    case Operation::allreduce: return 2;   // ALLREDUCE
    case Operation::broadcast: return 7;   // BCAST
    case Operation::reduce: return 11;     // REDUCE
    default: break;
  }
  throw InputError("operation", fmt::format("Open MPI's tuned rules are written for bcast, reduce and allreduce, not {}",
                                            to_string(operation)));
}

namespace {

// ompi_coll_tuned_bcast_intra_dec_fixed (Open MPI 4.1).
int bcast_fixed(int p, std::size_t s) {
  if (p < 4) {
    if (s < 32) return 3;
    if (s < 256) return 5;
    if (s < 512) return 3;
    if (s < 1024) return 7;
    if (s < 32768) return 1;
    if (s < 131072) return 5;
    if (s < 262144) return 2;
    if (s < 524288) return 1;
    if (s < 1048576) return 6;
    return 5;
  }
  if (p < 8) {
    if (s < 64) return 5;
    if (s < 128) return 6;
    if (s < 2048) return 5;
    if (s < 8192) return 6;
    if (s < 1048576) return 1;
    return 2;
  }
  if (p < 16) {
    if (s < 8) return 7;
    if (s < 64) return 5;
    if (s < 4096) return 7;
    if (s < 16384) return 5;
    if (s < 32768) return 6;
    return 1;
  }
  if (p < 32) {
    if (s < 4096) return 7;
    if (s < 1048576) return 6;
    return 8;
  }
  if (p < 64) return s < 2048 ? 6 : 7;
  if (p < 128) return 7;
  if (p < 256) {
    if (s < 2) return 6;
    if (s < 16384) return 5;
    if (s < 32768) return 1;
    if (s < 65536) return 5;
    return 7;
  }
  if (p < 1024) {
    if (s < 16384) return 7;
    if (s < 32768) return 4;
    return 7;
  }
  if (p < 2048) return s < 524288 ? 7 : 8;
  if (p < 4096) return s < 262144 ? 7 : 8;
  if (s < 8192) return 7;
  if (s < 16384) return 5;
  if (s < 262144) return 7;
  return 8;
}

// ompi_coll_tuned_reduce_intra_dec_fixed (Open MPI 4.1).
int reduce_fixed(int p, std::size_t s, bool commutative) {
  if (!commutative) {
    if (p < 4) return s < 8 ? 6 : 1;
    if (p < 8) return 1;
    if (p < 16) {
      if (s < 1024) return 6;
      if (s < 8192) return 1;
      if (s < 16384) return 6;
      if (s < 262144) return 1;
      return 6;
    }
    if (p < 128) return 6;
    if (p < 256) {
      if (s < 512) return 6;
      if (s < 1024) return 1;
      return 6;
    }
    return 6;
  }
  if (p < 4) {
    if (s < 8) return 7;
    if (s < 16) return 4;
    if (s < 32) return 3;
    if (s < 262144) return 1;
    if (s < 524288) return 3;
    if (s < 1048576) return 2;
    return 3;
  }
  if (p < 8) {
    if (s < 4096) return 4;
    if (s < 65536) return 2;
    if (s < 262144) return 5;
    if (s < 524288) return 1;
    if (s < 1048576) return 5;
    return 1;
  }
  if (p < 16) return s < 8192 ? 4 : 5;
  if (p < 32) return s < 4096 ? 4 : 5;
  if (p < 256) return 5;
  if (p < 512) {
    if (s < 8192) return 5;
    if (s < 16384) return 6;
    return 5;
  }
  if (p < 2048) return 5;
  if (p < 4096) {
    if (s < 512) return 5;
    if (s < 1024) return 6;
    if (s < 8192) return 5;
    if (s < 16384) return 6;
    return 5;
  }
  if (s < 16) return 5;
  if (s < 32) return 6;
  if (s < 1024) return 5;
  if (s < 2048) return 6;
  if (s < 8192) return 5;
  if (s < 16384) return 6;
  return 5;
}

// ompi_coll_tuned_allreduce_intra_dec_fixed (Open MPI 4.1).
int allreduce_fixed(int p, std::size_t s, bool commutative) {
  if (!commutative) {
    if (p < 4) return s < 131072 ? 3 : 1;
    if (p < 8) return 3;
    if (p < 16) return s < 1048576 ? 3 : 2;
    if (p < 128) return 3;
    if (p < 256) {
      if (s < 131072) return 2;
      if (s < 524288) return 3;
      return 2;
    }
    if (p < 512) {
      if (s < 4096) return 2;
      if (s < 524288) return 3;
      return 2;
    }
    return s < 2048 ? 2 : 3;
  }
  if (p < 4) {
    if (s < 8) return 4;
    if (s < 4096) return 3;
    if (s < 8192) return 4;
    if (s < 16384) return 3;
    if (s < 65536) return 4;
    if (s < 262144) return 5;
    return 6;
  }
  if (p < 8) {
    if (s < 16) return 4;
    if (s < 8192) return 3;
    return 6;
  }
  if (p < 16) return s < 8192 ? 3 : 6;
  if (p < 32) {
    if (s < 64) return 5;
    if (s < 4096) return 3;
    return 6;
  }
  if (p < 64) return s < 128 ? 5 : 6;
  if (p < 128) return s < 262144 ? 3 : 6;
  if (p < 256) {
    if (s < 131072) return 2;
    if (s < 262144) return 3;
    return 6;
  }
  if (p < 512) return s < 4096 ? 2 : 6;
  if (p < 2048) {
    if (s < 2048) return 2;
    if (s < 16384) return 3;
    return 6;
  }
  if (p < 4096) {
    if (s < 2048) return 2;
    if (s < 4096) return 5;
    if (s < 16384) return 3;
    return 6;
  }
  if (s < 2048) return 2;
  if (s < 16384) return 5;
  if (s < 32768) return 3;
  return 6;
}

}  // namespace

int openmpi_fixed_algorithm(Operation operation, int ranks, std::size_t message_bytes, bool commutative) {
  if (ranks < 1) throw InputError("ranks", fmt::format("must be at least 1, got {}", ranks));
  switch (operation) {
    case Operation::broadcast: return bcast_fixed(ranks, message_bytes);
    case Operation::reduce: return reduce_fixed(ranks, message_bytes, commutative);
    case Operation::allreduce: return allreduce_fixed(ranks, message_bytes, commutative);
    default: break;
  }
  throw InputError("operation", fmt::format("Open MPI's fixed decision is modelled for bcast, reduce and allreduce, "
                                            "not {}",
                                            to_string(operation)));
}

std::string_view smpi_ompi_selector_program(Operation operation, int id) {
  // The function tables of bcast__ompi, reduce__ompi, allreduce__ompi.
  static constexpr std::string_view bcast[] = {"NTSL", "ompi_pipeline", "ompi_pipeline", "ompi_split_bintree",
                                               "NTSB", "binomial_tree", "mvapich2_knomial_intra_node",
                                               "scatter_rdb_allgather", "scatter_LR_allgather"};
  static constexpr std::string_view reduce[] = {"ompi_basic_linear", "ompi_chain",   "ompi_pipeline",
                                                "ompi_binary",       "ompi_binomial", "ompi_in_order_binary",
                                                "ompi_basic_linear"};
  static constexpr std::string_view allreduce[] = {"redbcast", "redbcast", "rdb", "lr", "ompi_ring_segmented",
                                                   "rab_rdb"};
  if (id < 1) return {};
  const auto index = static_cast<std::size_t>(id - 1);
  switch (operation) {
    case Operation::broadcast: return index < std::size(bcast) ? bcast[index] : std::string_view{};
    case Operation::reduce: return index < std::size(reduce) ? reduce[index] : std::string_view{};
    case Operation::allreduce: return index < std::size(allreduce) ? allreduce[index] : std::string_view{};
    default: return {};
  }
}

OpenMpiParameters openmpi_parameters(Operation operation, std::string_view program, int ranks, std::size_t count,
                                     std::size_t element_bytes) {
  using namespace mpi_programs;
  const std::size_t message = count * element_bytes;
  OpenMpiParameters parameters;
  if (operation == Operation::broadcast) {
    if (program == "ompi_pipeline") {
      parameters.segment_bytes = bcast_ompi_pipeline_segment_bytes(ranks, message);
      parameters.fanout = 1;
    } else if (program == "ompi_split_bintree") {
      parameters.segment_bytes = bcast_ompi_split_bintree_segment_bytes(message);
      parameters.fanout = 2;
    }
  } else if (operation == Operation::reduce) {
    if (program == "ompi_pipeline") {
      parameters.segment_bytes = reduce_ompi_pipeline_segment_bytes(ranks, message);
      parameters.fanout = 1;
    } else if (program == "ompi_binary") {
      parameters.segment_bytes = kReduceOmpiBinarySegmentBytes;
      parameters.fanout = 2;
    } else if (program == "ompi_binomial") {
      parameters.segment_bytes = reduce_ompi_binomial_segment_bytes(ranks, count, element_bytes);
    }
  } else if (operation == Operation::allreduce && program == "ompi_ring_segmented") {
    parameters.segment_bytes = kAllreduceOmpiRingSegmentBytes;
  }
  return parameters;
}

std::string_view openmpi_default_program(Operation operation, int ranks, std::size_t count, std::size_t element_bytes,
                                         bool commutative) {
  const int id = openmpi_fixed_algorithm(operation, ranks, count * element_bytes, commutative);
  if (operation == Operation::allreduce && id == 5) return "lr";  // segcount = count: the ring
  const std::string_view program = openmpi_program(operation, id);
  if (program.empty()) return {};
  const auto parameters = openmpi_parameters(operation, program, ranks, count, element_bytes);
  // Modelled only where the program's segments hold the whole message.
  if (parameters.segment_bytes != 0 && parameters.segment_bytes < count * element_bytes) return {};
  return program;
}

}  // namespace hetcoll
