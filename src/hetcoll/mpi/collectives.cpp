#include "hetcoll/mpi/collectives.h"

#include <fmt/format.h>

#include "hetcoll/mpi/program_executor.h"

namespace hetcoll::mpi {

namespace {

void check_call(const ExecutablePlan& plan, Operation expected, std::string_view call, int count, MPI_Comm comm,
                int root) {
  if (plan.operation() != expected &&
      !(expected == Operation::broadcast && plan.operation() == Operation::multicast)) {
    throw MismatchError(fmt::format("{}: the plan is for a {}, not a {}", call, to_string(plan.operation()),
                                    to_string(expected)));
  }
  if (comm != plan.user_communicator()) {
    int relation = MPI_UNEQUAL;
    MPI_Comm_compare(comm, plan.user_communicator(), &relation);
    if (relation != MPI_IDENT && relation != MPI_CONGRUENT) {
      throw MismatchError(fmt::format("{}: the plan was prepared on another communicator", call));
    }
  }
  if (count < 0) throw MismatchError(fmt::format("{}: count must not be negative, got {}", call, count));
  if (root >= 0 && root != plan.root_rank()) {
    throw MismatchError(fmt::format("{}: root {} given, but the plan's {} is rank {}", call, root,
                                    expected == Operation::reduce ? "root" : "source", plan.root_rank()));
  }
}

}  // namespace

bool is_commutative(MPI_Op op) {
  int commutative = 1;
  MPI_Op_commutative(op, &commutative);
  return commutative != 0;
}

int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
           const ExecutablePlan& plan) {
  check_call(plan, Operation::reduce, "hetcoll::mpi::reduce", count, comm, root);
  if (count == 0) return MPI_SUCCESS;
  const auto& program = plan.program(static_cast<std::size_t>(count), !is_commutative(op));
  return reduce(sendbuf, recvbuf, count, datatype, op, plan.root_rank(), program, plan.communicator(),
                plan.user_communicator(), plan.options());
}

int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, const ExecutablePlan& plan) {
  if (plan.operation() == Operation::multicast) return multicast(buffer, count, datatype, root, comm, plan);
  check_call(plan, Operation::broadcast, "hetcoll::mpi::bcast", count, comm, root);
  if (count == 0) return MPI_SUCCESS;
  const auto& program = plan.program(static_cast<std::size_t>(count), false);
  return bcast(buffer, count, datatype, plan.root_rank(), program, plan.communicator(), plan.user_communicator(),
               plan.options());
}

int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              const ExecutablePlan& plan) {
  check_call(plan, Operation::allreduce, "hetcoll::mpi::allreduce", count, comm, -1);
  if (count == 0) return MPI_SUCCESS;
  const auto& program = plan.program(static_cast<std::size_t>(count), !is_commutative(op));
  return allreduce(sendbuf, recvbuf, count, datatype, op, program, plan.communicator(), plan.user_communicator(),
                   plan.options());
}

int multicast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, const ExecutablePlan& plan) {
  check_call(plan, Operation::multicast, "hetcoll::mpi::multicast", count, comm, root);
  if (count == 0) return MPI_SUCCESS;
  const auto& program = plan.program(static_cast<std::size_t>(count), false);
  return bcast(buffer, count, datatype, plan.root_rank(), program, plan.communicator(), plan.user_communicator(),
               plan.options());
}

}  // namespace hetcoll::mpi
