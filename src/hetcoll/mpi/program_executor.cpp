#include "hetcoll/mpi/program_executor.h"

#include <vector>

#include <fmt/format.h>

#include "hetcoll/mpi/datatype_buffer.h"

namespace hetcoll::mpi {

void run_program_steps(const CommProgram& program, const Exchange& exchange, int rank, void* data, int count,
                       MPI_Datatype datatype, MPI_Op op) {
  const auto layout = DatatypeLayout::of(datatype);
  std::vector<ScratchBuffer> scratch(program.buffer_elements.size());
  for (std::size_t b = 1; b < scratch.size(); ++b) {
    if (program.buffer_elements[b] > 0) scratch[b] = ScratchBuffer(layout, program.buffer_elements[b]);
  }
  (void)count;
  auto address = [&](const Slice& slice) -> void* {
    void* base = slice.buffer == 0 ? data : scratch[slice.buffer].data();
    return element_address(base, slice.offset, layout);
  };
  const auto& steps = program.steps[static_cast<std::size_t>(rank)];
  const double entered = MPI_Wtime();
  std::vector<MPI_Request> requests(steps.size(), MPI_REQUEST_NULL);
  for (std::size_t index = 0; index < steps.size(); ++index) {
    const ProgramStep& step = steps[index];
    const int elements = static_cast<int>(step.data.count);
    switch (step.kind) {
      case ProgramStep::Kind::send:
        requests[index] =
            exchange.start_send_as(address(step.data), elements, datatype, step.peer, MessageTag::program,
                                   step.synchronous);
        break;
      case ProgramStep::Kind::receive:
        requests[index] = exchange.start_receive(address(step.data), elements, datatype, step.peer, MessageTag::program);
        break;
      case ProgramStep::Kind::wait:
        for (auto request : step.requests) {
          const ProgramStep& waited = steps[request];
          if (waited.kind == ProgramStep::Kind::send) {
            exchange.wait_send(requests[request], waited.peer);
          } else {
            exchange.wait_receive(requests[request], datatype, waited.peer, static_cast<int>(waited.data.count));
          }
        }
        break;
      case ProgramStep::Kind::combine:
        if (elements > 0) {
          exchange.check(MPI_Reduce_local(address(step.data), address(step.into), elements, datatype, op),
                         "MPI_Reduce_local");
        }
        break;
      case ProgramStep::Kind::copy:
        if (elements > 0) copy_elements(address(step.data), address(step.into), step.data.count, datatype, layout);
        break;
      case ProgramStep::Kind::pace:
        wait_until(entered + step.seconds);
        break;
    }
  }
}

namespace {

void check_arguments(const CommProgram& program, const Exchange& exchange, int size, int count, std::string_view call) {
  if (program.ranks != size) {
    exchange.abort(fmt::format("{}: the program is for {} ranks, the communicator has {}", call, program.ranks, size));
  }
  if (count < 0) exchange.abort(fmt::format("{}: negative count {}", call, count));
}

}  // namespace

int bcast(void* buffer, int count, MPI_Datatype datatype, int root, const CommProgram& program, MPI_Comm private_comm,
          MPI_Comm user_comm, const RuntimeOptions& options) {
  (void)root;
  Exchange exchange(private_comm, user_comm, options, "hetcoll::mpi::bcast");
  int rank = 0, size = 0;
  MPI_Comm_rank(private_comm, &rank);
  MPI_Comm_size(private_comm, &size);
  check_arguments(program, exchange, size, count, "hetcoll::mpi::bcast");
  run_program_steps(program, exchange, rank, buffer, count, datatype, MPI_OP_NULL);
  return MPI_SUCCESS;
}

int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
           const CommProgram& program, MPI_Comm private_comm, MPI_Comm user_comm, const RuntimeOptions& options) {
  Exchange exchange(private_comm, user_comm, options, "hetcoll::mpi::reduce");
  int rank = 0, size = 0;
  MPI_Comm_rank(private_comm, &rank);
  MPI_Comm_size(private_comm, &size);
  check_arguments(program, exchange, size, count, "hetcoll::mpi::reduce");
  const auto layout = DatatypeLayout::of(datatype);
  void* data = nullptr;
  ScratchBuffer working;
  if (rank == root) {
    if (sendbuf != MPI_IN_PLACE) copy_elements(sendbuf, recvbuf, static_cast<std::size_t>(count), datatype, layout);
    data = recvbuf;
  } else {
    working = ScratchBuffer(layout, static_cast<std::size_t>(count));
    copy_elements(sendbuf, working.data(), static_cast<std::size_t>(count), datatype, layout);
    data = working.data();
  }
  run_program_steps(program, exchange, rank, data, count, datatype, op);
  return MPI_SUCCESS;
}

int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              const CommProgram& program, MPI_Comm private_comm, MPI_Comm user_comm, const RuntimeOptions& options) {
  Exchange exchange(private_comm, user_comm, options, "hetcoll::mpi::allreduce");
  int rank = 0, size = 0;
  MPI_Comm_rank(private_comm, &rank);
  MPI_Comm_size(private_comm, &size);
  check_arguments(program, exchange, size, count, "hetcoll::mpi::allreduce");
  const auto layout = DatatypeLayout::of(datatype);
  if (sendbuf != MPI_IN_PLACE) copy_elements(sendbuf, recvbuf, static_cast<std::size_t>(count), datatype, layout);
  run_program_steps(program, exchange, rank, recvbuf, count, datatype, op);
  return MPI_SUCCESS;
}

}  // namespace hetcoll::mpi
