#include "hetcoll/mpi/program_executor.h"

#include <cstring>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/mpi/datatype_buffer.h"

namespace hetcoll::mpi {

PlanLowering lowering_of(const MakespanPlan& plan, const RuntimeOptions& options, bool rank_order) {
  PlanLowering lowering;
  // Times are seconds only on platforms of latency and bandwidth (a plan
  // with a message size); a fixed-cost plan's sends are not paced.
  const bool timed = plan.model == PlanModel::eager && plan.message_size.has_value();
  lowering.pace_broadcasts = timed && options.paces_eager_broadcasts();
  lowering.pace_reduces = timed && options.paces_eager_reduces();
  lowering.rank_order = rank_order;
  switch (options.send_mode) {
    case RuntimeOptions::SendMode::one_port: lowering.sends = PlanLowering::Sends::one_port; break;
    case RuntimeOptions::SendMode::standard: lowering.sends = PlanLowering::Sends::standard; break;
    case RuntimeOptions::SendMode::synchronous: lowering.sends = PlanLowering::Sends::synchronous; break;
  }
  return lowering;
}

PlanLowering::Sends sends_of(const RuntimeOptions& options) {
  switch (options.send_mode) {
    case RuntimeOptions::SendMode::standard: return PlanLowering::Sends::standard;
    case RuntimeOptions::SendMode::synchronous: return PlanLowering::Sends::synchronous;
    case RuntimeOptions::SendMode::one_port: break;
  }
  return PlanLowering::Sends::one_port;
}


std::uint64_t program_hash(const CommProgram& program) {
  PlanHash hash;
  auto bits = [](double value) {
    std::uint64_t word = 0;
    std::memcpy(&word, &value, sizeof word);
    return word;
  };
  auto add_slice = [&](const Slice& slice) {
    hash.add(slice.buffer);
    hash.add(slice.offset);
    hash.add(slice.count);
  };
  hash.add(static_cast<std::uint64_t>(program.ranks));
  hash.add(program.rank_order ? 1 : 0);
  for (auto elements : program.buffer_elements) hash.add(elements);
  for (const auto& steps : program.steps) {
    hash.add(steps.size());
    for (const auto& step : steps) {
      hash.add(static_cast<std::uint64_t>(step.kind) << 32 | static_cast<std::uint32_t>(step.peer));
      hash.add(step.synchronous ? 1 : 0);
      add_slice(step.data);
      add_slice(step.into);
      for (auto request : step.requests) hash.add(request);
      hash.add(bits(step.seconds));
    }
  }
  return hash.value();
}

void run_program_steps(const CommProgram& program, const Exchange& exchange, int rank, void* data, int count,
                       MPI_Datatype datatype, MPI_Op op) {
  const auto layout = DatatypeLayout::of(datatype);
  const auto& steps = program.steps[static_cast<std::size_t>(rank)];
  // Only the scratch buffers this rank's steps use are allocated.
  std::vector<ScratchBuffer> scratch(program.buffer_elements.size());
  auto allocate = [&](const Slice& slice) {
    if (slice.buffer != 0 && scratch[slice.buffer].data() == nullptr && program.buffer_elements[slice.buffer] > 0) {
      scratch[slice.buffer] = ScratchBuffer(layout, program.buffer_elements[slice.buffer]);
    }
  };
  for (const auto& step : steps) {
    allocate(step.data);
    if (step.kind == ProgramStep::Kind::combine || step.kind == ProgramStep::Kind::copy) allocate(step.into);
  }
  (void)count;
  auto address = [&](const Slice& slice) -> void* {
    void* base = slice.buffer == 0 ? data : scratch[slice.buffer].data();
    return element_address(base, slice.offset, layout);
  };
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

// Every rank holds the same program and the same operation: refused alike everywhere.
void check_operation(const CommProgram& program, MPI_Op op, std::string_view call) {
  int commutative = 1;
  MPI_Op_commutative(op, &commutative);
  if (!commutative && !program.rank_order) {
    throw MismatchError(fmt::format("{}: \"{}\" combines in arrival order, which needs a commutative operation; "
                                    "this one is not",
                                    call, program.name));
  }
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
  check_operation(program, op, "hetcoll::mpi::reduce");
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
  check_operation(program, op, "hetcoll::mpi::allreduce");
  const auto layout = DatatypeLayout::of(datatype);
  if (sendbuf != MPI_IN_PLACE) copy_elements(sendbuf, recvbuf, static_cast<std::size_t>(count), datatype, layout);
  run_program_steps(program, exchange, rank, recvbuf, count, datatype, op);
  return MPI_SUCCESS;
}

int allgather(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, const CommProgram& program,
              MPI_Comm private_comm, MPI_Comm user_comm, const RuntimeOptions& options) {
  Exchange exchange(private_comm, user_comm, options, "hetcoll::mpi::allgather");
  int rank = 0, size = 0;
  MPI_Comm_rank(private_comm, &rank);
  MPI_Comm_size(private_comm, &size);
  check_arguments(program, exchange, size, count, "hetcoll::mpi::allgather");
  const long long elements = static_cast<long long>(count) * size;
  if (elements > std::numeric_limits<int>::max()) {
    exchange.abort(fmt::format("hetcoll::mpi::allgather: {} ranks x {} elements exceed an MPI int", size, count));
  }
  const auto layout = DatatypeLayout::of(datatype);
  if (sendbuf != MPI_IN_PLACE) {
    MPI_Aint lower_bound = 0, extent = 0;
    MPI_Type_get_extent(datatype, &lower_bound, &extent);
    copy_elements(sendbuf, static_cast<char*>(recvbuf) + static_cast<MPI_Aint>(rank) * count * extent,
                  static_cast<std::size_t>(count), datatype, layout);
  }
  run_program_steps(program, exchange, rank, recvbuf, static_cast<int>(elements), datatype, MPI_OP_NULL);
  return MPI_SUCCESS;
}

}  // namespace hetcoll::mpi
