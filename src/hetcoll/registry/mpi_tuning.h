// Tuning a stock MPI library without preloading anything: for each
// (collective, communicator size, message size class), predict every
// built-in algorithm of Open MPI or MPICH that hetcoll models
// (makespan/mpi_algorithms/stock_mpi.h) with the chooser's flow model
// (registry/program_chooser.h, predict_candidate) and keep the fastest.
// The writers (report/mpi_tuning_files.h) turn the table into Open MPI's
// coll_tuned rules file or MPICH's JSON selection file.
//
// Contract: the communicator of n ranks plays the platform's first n hosts
// (rank r the r-th host, as the MPI runtime maps them). A class of message
// size S covers sizes from S up to the next class (both libraries pick the
// largest rule at or below the call's size), so each class is predicted at
// S bytes: count = S / element_bytes elements. Ties go to the algorithm
// listed first in stock_mpi_algorithms(). Open MPI: where its own fixed
// decision is modelled and predicted no slower than the fastest algorithm
// allowed, or not modelled (unless replace_unmodelled_default), the cell
// keeps it (id 0, "default": Open MPI then decides, commutativity
// included). Algorithms whose program refuses
// the call, or does not complete in the model, are left out; a cell with
// no modelled algorithm throws.
// Guarantee: each cell's choice is the argmin of the predictions it lists
// (no claim beyond the model's: measured speed-ups are in docs/RESULTS.md).
// Complexity: cells × modelled algorithms predictions, each
// O(E · (F · R + F²)) (sim/program_simulation.h).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "hetcoll/makespan/mpi_algorithms/stock_mpi.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/plan/plan.h"
#include "hetcoll/sim/program_simulation.h"

namespace hetcoll {

struct MpiTuningOptions {
  StockMpi library = StockMpi::openmpi;
  std::vector<Operation> operations = {Operation::broadcast, Operation::reduce, Operation::allreduce};
  std::vector<int> communicator_sizes;      // empty: the host count and the powers of two below it (from 2)
  std::vector<std::size_t> message_bytes;   // empty: 4 B to 16 MiB, powers of 4
  std::size_t element_bytes = 4;            // the datatype the predictions use
  int root = 0;                             // of bcast and reduce
  // Open MPI: also write algorithms that are wrong for non-commutative
  // operations (StockMpiAlgorithm::commutative_only; Open MPI's rules file
  // applies to every operation). Off: reduces and all-reduces choose among
  // the algorithms correct for every operation. MPICH's file guards them
  // with "is_commutative=yes" either way.
  bool commutative_only = false;
  // Open MPI: where its fixed decision picks an algorithm hetcoll does not
  // model, nothing says the fastest modelled one beats it: the cell keeps
  // Open MPI's decision (rule 0) unless this is set.
  bool replace_unmodelled_default = false;
  sim::FlowModelOptions flow;
};

struct TunedPrediction {
  std::string program;  // SMPI's name (mpi_algorithms())
  double seconds = 0;
};

struct MpiTuningCell {
  Operation operation = Operation::broadcast;
  int ranks = 0;
  std::size_t message_bytes = 0;  // the class's lower end
  std::size_t count = 0;          // elements predicted
  std::string program;            // the fastest modelled algorithm
  std::string library_name;       // its name in the library (Open MPI's, MPICH's function; "default")
  int openmpi_id = 0;             // Open MPI's coll_tuned id (0: its fixed decision; 0 for MPICH)
  OpenMpiParameters parameters;   // Open MPI's segment size and fan-out for it
  double seconds = 0;             // its prediction
  std::vector<TunedPrediction> predictions;  // every modelled algorithm, in table order
  // Open MPI only: what its fixed decision runs (id, modelled program or
  // empty) and that program's prediction (NaN when not modelled).
  int default_id = 0;
  std::string default_program;
  double default_seconds = 0;
  // What SimGrid SMPI's "ompi" selector runs for default_id (it runs its
  // own functions for some ids) and its prediction (NaN when not
  // modelled): the cross-check of the decision model under SMPI.
  std::string smpi_selector_program;
  double smpi_selector_seconds = 0;
};

struct MpiTuning {
  StockMpi library = StockMpi::openmpi;
  std::string platform_name;
  std::size_t element_bytes = 4;
  int root = 0;
  bool commutative_only = false;
  bool replace_unmodelled_default = false;
  std::vector<int> communicator_sizes;     // ascending
  std::vector<std::size_t> message_bytes;  // ascending
  std::vector<MpiTuningCell> cells;        // by operation, then communicator size, then message size
};

// The default communicator sizes for a platform of `hosts` hosts.
std::vector<int> default_tuning_communicator_sizes(int hosts);
// 4, 16, ..., 16 MiB (step 4) or 4, 8, ..., 16 MiB (step 2).
std::vector<std::size_t> tuning_message_sizes(std::size_t from, std::size_t to, std::size_t step);

// Throws InputError (parameter named) when the chooser does not apply to
// the platform, a communicator size is outside 2..hosts, a message size is
// not a positive multiple of element_bytes or exceeds MPI's int count, the
// root is not a rank of every communicator, or an operation is not bcast,
// reduce or allreduce.
MpiTuning tune_stock_mpi(const LoadedPlatform& platform, const MpiTuningOptions& options);

}  // namespace hetcoll
