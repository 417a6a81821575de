// Stock MPI libraries' own algorithm numbers and names, tied to the
// programs of this folder that model them, and Open MPI 4.1's fixed
// decision (what Open MPI runs when nothing is forced).
//
// Problem: a tuning file for Open MPI's coll_tuned component names an
// algorithm by its id (ompi/mca/coll/tuned/coll_tuned_<op>_decision.c,
// ompi_coll_tuned_<op>_intra_do_this), one for MPICH by its function name
// (src/mpi/coll/coll_algorithms.txt). Only ids whose modelled program runs
// the same algorithm (same tree, same segments, same blocking calls, up to
// the departures of its file) carry a program; the others are listed with
// why they are not modelled, so that a tuning decision never writes an id
// whose time hetcoll did not predict.
// Open MPI 4.1 (v4.1.x, ompi/mca/coll/tuned/coll_tuned_decision_fixed.c):
// ompi_coll_tuned_{bcast,reduce,allreduce}_intra_dec_fixed chooses an id
// from the communicator size and the message size in bytes (count ·
// datatype size), and for reduce and allreduce from the operation's
// commutativity; SimGrid SMPI's "ompi" selector
// (src/smpi/colls/smpi_openmpi_selector.cpp) has the same lines but runs
// its own functions for some ids (smpi_ompi_selector_program).
// Complexity: table look-ups, O(1).
// Guarantee: the decision lines are copied from the C source; the tests
// check them on hand-read cases.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "hetcoll/plan/plan.h"

namespace hetcoll {

enum class StockMpi { openmpi, mpich };

struct StockMpiAlgorithm {
  StockMpi library = StockMpi::openmpi;
  Operation operation = Operation::broadcast;
  int id = 0;                     // Open MPI's coll_tuned id; MPICH: 0
  std::string_view name;          // Open MPI's name ("pipeline"), MPICH's function ("MPIR_Bcast_intra_binomial")
  std::string_view program;       // the modelled program (mpi_algorithms(), SMPI's name); empty: not modelled
  std::string_view note;          // why not modelled, or how the model relates
  bool needs_count_at_least_pof2 = false;  // MPICH's reduce-scatter algorithms (MPICH's JSON guards it)
  // Wrong for non-commutative operations, and the library does not check
  // (Open MPI's rules file applies to every operation).
  bool commutative_only = false;
};

// Every algorithm of Open MPI 4.1's coll_tuned (bcast, reduce, allreduce)
// and MPICH 4's intra-communicator algorithms of those collectives.
const std::vector<StockMpiAlgorithm>& stock_mpi_algorithms();
// The modelled program of Open MPI's id, or empty (unknown id too).
std::string_view openmpi_program(Operation operation, int id);
// Open MPI's name of its id ("pipeline"), or "?".
std::string_view openmpi_algorithm_name(Operation operation, int id);
// Open MPI's id of a modelled program, or 0.
int openmpi_id_of_program(Operation operation, std::string_view program);

// Open MPI's coll_tuned collective ids (COLLTYPE_T in
// ompi/mca/coll/base/coll_base_functions.h).
int openmpi_collective_id(Operation operation);

// ompi_coll_tuned_<op>_intra_dec_fixed of Open MPI 4.1: the id it runs.
// Throws InputError for an operation other than broadcast, reduce,
// allreduce, or ranks < 1.
int openmpi_fixed_algorithm(Operation operation, int ranks, std::size_t message_bytes, bool commutative);

// The modelled program of what Open MPI 4.1 runs when nothing is forced
// (its fixed decision passes segment size 0: unsegmented; the segmented
// ring all-reduce then runs the ring), or empty when that algorithm is not
// modelled for this call.
std::string_view openmpi_default_program(Operation operation, int ranks, std::size_t count, std::size_t element_bytes,
                                         bool commutative);

// What SimGrid SMPI's "ompi" selector runs for Open MPI's id (SMPI's
// name, e.g. bcast 1 runs "NTSL"; it may be a function hetcoll does not
// model).
std::string_view smpi_ompi_selector_program(Operation operation, int id);

// Open MPI's tuning parameters for a modelled program on a call: the
// segment size in bytes (0: unsegmented) and the fan-in/out, as the
// program of this folder uses them.
struct OpenMpiParameters {
  int fanout = 0;
  std::size_t segment_bytes = 0;
};
OpenMpiParameters openmpi_parameters(Operation operation, std::string_view program, int ranks, std::size_t count,
                                     std::size_t element_bytes);

}  // namespace hetcoll
