#include "hetcoll/mpi/exchange.h"

#include <sched.h>

#include <cstdio>
#include <ctime>
#include <string>

#include <fmt/format.h>

namespace hetcoll::mpi {

void wait_until(double instant) {
  double remaining = instant - MPI_Wtime();
  if (remaining <= 0) return;
  auto sleep_for = [](double seconds) {
    struct timespec pause;
    pause.tv_sec = static_cast<time_t>(seconds);
    pause.tv_nsec = static_cast<long>((seconds - static_cast<double>(pause.tv_sec)) * 1e9);
    nanosleep(&pause, nullptr);
  };
#ifdef HETCOLL_SMPI
  // SMPI's nanosleep moves the simulated clock exactly; spinning on
  // MPI_Wtime would move it by tiny steps, each a switch of the simulator
  // (a paced program of a few thousand posts then took minutes).
  for (int attempt = 0; attempt < 4 && remaining > 0; ++attempt) {
    sleep_for(remaining);
    remaining = instant - MPI_Wtime();
  }
  return;
#endif
  if (remaining > 2e-4) {
    // Sleep most of it, then spin: sleeping alone overshoots by tens of µs.
    sleep_for(remaining - 1e-4);
  }
  while (MPI_Wtime() < instant) {
  }
}

Exchange::Exchange(MPI_Comm private_comm, MPI_Comm user_comm, const RuntimeOptions& options,
                   std::string_view operation)
    : comm_(private_comm),
      user_comm_(user_comm),
      timeout_seconds_(options.timeout_seconds),
      operation_(operation) {
  MPI_Comm_rank(comm_, &rank_);
  if (timeout_seconds_ > 0) deadline_ = MPI_Wtime() + timeout_seconds_;
}

void Exchange::abort(std::string_view what) const {
  std::string line = fmt::format("{}: rank {}: {}; aborting (MPI_Abort)\n", operation_, rank_, what);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  MPI_Abort(user_comm_, 3);
  std::abort();  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

void Exchange::check(int code, std::string_view call) const {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(code, text, &length);
  abort(fmt::format("{} failed: {}", call, std::string_view(text, static_cast<size_t>(length))));
}

MPI_Request Exchange::start_send_as(const void* buffer, int count, MPI_Datatype datatype, int peer, MessageTag tag,
                                    bool synchronous) const {
  MPI_Request request = MPI_REQUEST_NULL;
  // MPI-2 bindings take non-const buffers on some implementations.
  void* data = const_cast<void*>(buffer);
  int code = synchronous ? MPI_Issend(data, count, datatype, peer, static_cast<int>(tag), comm_, &request)
                                : MPI_Isend(data, count, datatype, peer, static_cast<int>(tag), comm_, &request);
  check(code, fmt::format("sending to rank {}", peer));
  return request;
}

MPI_Request Exchange::start_receive(void* buffer, int count, MPI_Datatype datatype, int peer,
                                    MessageTag tag) const {
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Irecv(buffer, count, datatype, peer, static_cast<int>(tag), comm_, &request),
        fmt::format("receiving from rank {}", peer));
  return request;
}

void Exchange::wait(MPI_Request& request, MPI_Status* status, std::string_view waiting_for) const {
  if (timeout_seconds_ <= 0) {
    check(MPI_Wait(&request, status), waiting_for);
    return;
  }
  while (true) {
    int done = 0;
    check(MPI_Test(&request, &done, status), waiting_for);
    if (done) return;
    if (MPI_Wtime() > deadline_) {
      abort(fmt::format("{} did not complete within the timeout of {:g} s (a rank missing from the call, or "
                        "called with another root or plan?)",
                        waiting_for, timeout_seconds_));
    }
    sched_yield();
  }
}

void Exchange::wait_send(MPI_Request& request, int peer) const {
  wait(request, MPI_STATUS_IGNORE, fmt::format("the send to rank {}", peer));
}

int Exchange::wait_receive(MPI_Request& request, MPI_Datatype datatype, int peer, int expected_count) const {
  MPI_Status status;
  wait(request, &status, fmt::format("the receive from rank {}", peer));
  int received = 0;
  check(MPI_Get_count(&status, datatype, &received), "MPI_Get_count");
  if (expected_count >= 0 && received != expected_count) {
    abort(fmt::format("received {} elements from rank {} where {} were expected: the ranks called with different "
                      "counts or datatypes",
                      received == MPI_UNDEFINED ? std::string("a partial number of") : std::to_string(received), peer,
                      expected_count));
  }
  return received;
}


void wait_for_collective(MPI_Request& request, MPI_Comm comm, double timeout_seconds, std::string_view what) {
  if (timeout_seconds <= 0) {
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    return;
  }
  double deadline = MPI_Wtime() + timeout_seconds;
  while (true) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    if (MPI_Wtime() > deadline) {
      int rank = 0;
      MPI_Comm_rank(comm, &rank);
      std::string line = fmt::format(
          "{}: rank {}: the other ranks did not join within the timeout of {:g} s (a rank that does not make the "
          "call, or makes another one?); aborting (MPI_Abort)\n",
          what, rank, timeout_seconds);
      std::fputs(line.c_str(), stderr);
      std::fflush(stderr);
      MPI_Abort(comm, 3);
    }
    sched_yield();
  }
}

}  // namespace hetcoll::mpi
