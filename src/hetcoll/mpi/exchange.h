// Point-to-point messaging for the program executor (program_executor.h):
// non-blocking sends and receives on the private communicator, waited for
// with the runtime's timeout and its error reporting.
//
// Errors: the private communicator returns error codes (MPI_ERRORS_RETURN);
// an error, a message of the wrong length, or a wait past the timeout
// prints one line naming the operation, the rank, the peer and the reason
// to stderr and aborts the user's communicator (MPI_Abort): in the middle of
// a collective the other ranks cannot be told any other way, and waiting
// would hang them.
#pragma once

#include <string_view>

#include "hetcoll/mpi/runtime_options.h"
#include <mpi.h>

namespace hetcoll::mpi {

// Message tags on the private communicator, one per kind of message.
enum class MessageTag : int {
  program = 16,  // a communication program's messages (program_executor.h)
};

// Waits until MPI_Wtime() reaches `instant` (simulated time under SMPI):
// sleeps most of the way, then spins.
void wait_until(double instant);

class Exchange {
 public:
  // `operation` names the call in messages ("hetcoll::mpi::reduce").
  Exchange(MPI_Comm private_comm, MPI_Comm user_comm, const RuntimeOptions& options, std::string_view operation);

  // Starts a send or receive (nonblocking); complete it with wait_send or
  // wait_receive. A send is synchronous (MPI_Issend) or standard (MPI_Isend)
  // as asked.
  MPI_Request start_send_as(const void* buffer, int count, MPI_Datatype datatype, int peer, MessageTag tag,
                            bool synchronous) const;
  MPI_Request start_receive(void* buffer, int count, MPI_Datatype datatype, int peer, MessageTag tag) const;
  // Waits for a send to complete.
  void wait_send(MPI_Request& request, int peer) const;
  // Waits for a receive and checks it brought exactly `expected_count`
  // elements (if expected_count >= 0); returns the count received.
  int wait_receive(MPI_Request& request, MPI_Datatype datatype, int peer, int expected_count) const;

  // Prints "OPERATION: rank R: WHAT" and aborts the user's communicator.
  [[noreturn]] void abort(std::string_view what) const;
  // Aborts with the MPI error string when `code` is not MPI_SUCCESS.
  void check(int code, std::string_view call) const;

 private:
  void wait(MPI_Request& request, MPI_Status* status, std::string_view waiting_for) const;

  MPI_Comm comm_;
  MPI_Comm user_comm_;
  int rank_ = 0;
  double timeout_seconds_ = 0;
  double deadline_ = 0;
  std::string_view operation_;
};

// Waits for one of the runtime's own nonblocking collectives (used while
// preparing plans); past `timeout_seconds` (0 = no limit) prints "WHAT: rank
// R: the other ranks did not join ..." and aborts `comm`.
void wait_for_collective(MPI_Request& request, MPI_Comm comm, double timeout_seconds, std::string_view what);

}  // namespace hetcoll::mpi
