// Running a communication program (plan/comm_program.h) with MPI
// point-to-point calls: the one executor of the chooser's candidates, MPI
// libraries' own algorithms (makespan/mpi_algorithms/) and hetcoll's plans
// alike, so that what runs is exactly what sim/program_simulation.h predicted.
//
// Each rank runs its own steps in order: send -> MPI_Isend (MPI_Issend when
// the step is synchronous), receive -> MPI_Irecv, wait -> waits for the
// listed requests (a receive's element count is checked), combine ->
// MPI_Reduce_local, copy -> an element copy. Buffer 0 is the call's data
// (see the collectives below), buffers 1.. are scratch buffers allocated for
// the call with the datatype's layout (datatype_buffer.h: derived and
// non-contiguous datatypes included); slices address elements by the
// datatype's extent. Messages go on the runtime's private communicator with
// their own tag, so they never match the user's.
//
// Deadlock-free exactly when the program completes in the model
// (predict_program reports no stuck rank): both follow MPI's matching rules.
// The caller checks the program (check_program) and that every rank runs
// the same one. A program without `rank_order` run with a non-commutative
// operation is refused (MismatchError on every rank: all hold the same
// program and operation).
#pragma once

#include <mpi.h>

#include "hetcoll/mpi/communicator.h"
#include "hetcoll/mpi/exchange.h"
#include "hetcoll/plan/comm_program.h"
#include "hetcoll/plan/plan.h"
#include "hetcoll/plan/plan_program.h"

namespace hetcoll::mpi {

// How the runtime's options lower a plan (plan/plan_program.h): eager
// plans paced as RuntimeOptions::eager_pacing says where their times are
// seconds (a plan with a message size); sends by RuntimeOptions::send_mode.
PlanLowering lowering_of(const MakespanPlan& plan, const RuntimeOptions& options, bool rank_order);
// A hash of everything the program makes every rank do (PlanHash), by
// which ranks check they hold the same program (agree_on_hash).
std::uint64_t program_hash(const CommProgram& program);

// The send mode of RuntimeOptions as a program's.
PlanLowering::Sends sends_of(const RuntimeOptions& options);

// Runs rank `rank`'s steps with `data` as buffer 0 (`count` elements).
void run_program_steps(const CommProgram& program, const Exchange& exchange, int rank, void* data, int count,
                       MPI_Datatype datatype, MPI_Op op);

// The collectives on a program. bcast: buffer 0 is the user's buffer.
// reduce: buffer 0 is, at the root, `recvbuf` holding its contribution
// (copied from `sendbuf` unless MPI_IN_PLACE), elsewhere a scratch copy of
// `sendbuf`; the root's buffer 0 holds the result. allreduce: every rank's
// `recvbuf`, as the root's in reduce. `private_comm` is the runtime's
// duplicate of `user_comm` (exchange.h).
int bcast(void* buffer, int count, MPI_Datatype datatype, int root, const CommProgram& program, MPI_Comm private_comm,
          MPI_Comm user_comm, const RuntimeOptions& options);
int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
           const CommProgram& program, MPI_Comm private_comm, MPI_Comm user_comm, const RuntimeOptions& options);
int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              const CommProgram& program, MPI_Comm private_comm, MPI_Comm user_comm, const RuntimeOptions& options);
// allgather: buffer 0 is every rank's `recvbuf` (one block of `count`
// elements per rank), the rank's own block copied in from `sendbuf` unless
// MPI_IN_PLACE (sendbuf then holds `count` elements of `datatype`).
int allgather(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, const CommProgram& program,
              MPI_Comm private_comm, MPI_Comm user_comm, const RuntimeOptions& options);

}  // namespace hetcoll::mpi
