// hetcoll::mpi::reduce, bcast, allreduce, multicast: MPI's collectives, run
// along a hetcoll plan (executable_plan.h) with point-to-point messages.
//
// Signatures mirror MPI_Reduce, MPI_Bcast and MPI_Allreduce, plus the plan;
// an MPI program swaps
//     MPI_Reduce(send, recv, n, MPI_INT, MPI_MAX, 0, comm);
// for
//     hetcoll::mpi::reduce(send, recv, n, MPI_INT, MPI_MAX, 0, comm, plan);
// Semantics are MPI's: any count and datatype (predefined or derived),
// predefined and user-defined operations, MPI_IN_PLACE at the root of a
// reduce and everywhere in an all-reduce; a non-root's recvbuf is not used
// by reduce. Return MPI_SUCCESS.
//
// Each call lowers the plan to a communication program for its count and
// operation (ExecutablePlan::program, plan/plan_program.h) and runs it with
// the program executor (program_executor.h).
//
// Combination order. A commutative operation combines each partial result
// as it arrives, in the plan's order: one value per message, exactly what
// the plan's times assume. A non-commutative operation (MPI_Op_commutative
// says 0) gives MPI's result x_0 op x_1 op ... op x_{n-1} in rank order
// whatever the plan: each rank keeps its values as runs of consecutive
// ranks, combines two runs as soon as they meet (lower ranks on the left),
// and a message carries the runs its sender holds. When every subtree of
// the plan covers consecutive ranks (e.g. a mapping that numbers ranks
// along the plan's tree) each message carries one run, one value;
// otherwise a message carries one value per run and costs more than the
// plan predicts.
//
// Errors (every rank alike, MismatchError): a plan for another operation,
// another communicator, a root other than the plan's, a negative count.
// Errors only one rank sees (a peer's count differs, a timeout) abort the
// communicator with a message (exchange.h).
#pragma once

#include "hetcoll/mpi/executable_plan.h"
#include <mpi.h>

namespace hetcoll::mpi {

int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
           const ExecutablePlan& plan);

int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, const ExecutablePlan& plan);

// The plan's all-reduce: a reduce to its root, then a broadcast of the result.
int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              const ExecutablePlan& plan);

// Every rank calls it; the plan's targets (and the source) end with the
// source's buffer, helpers forward it through scratch space (their buffer is
// left as it was), every other rank returns at once.
int multicast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, const ExecutablePlan& plan);

// Whether `op` is commutative (predefined operations are).
bool is_commutative(MPI_Op op);

}  // namespace hetcoll::mpi
