// A communication program: what every rank of one collective call does, as
// MPI point-to-point operations on its buffers. It is the one executable form
// every candidate of the MPI runtime's chooser takes: MPI libraries' own
// algorithms (makespan/mpi_algorithms/) and hetcoll's plans alike. The same
// program is predicted (sim/program_simulation.h, on the platform) and run
// (mpi/program_executor.h, with PMPI point-to-point calls), so what is
// predicted is what runs.
//
// A program has `ranks` ranks; rank r runs its steps in order:
//  * send(peer, slice): posts a non-blocking send of the slice to `peer`
//    (MPI_Isend; `synchronous`: MPI_Issend, which completes only once the
//    receiver has the data);
//  * receive(peer, slice): posts a non-blocking receive into the slice;
//  * wait(requests): blocks until the listed earlier send/receive steps of
//    this rank have completed (MPI_Waitall);
//  * combine(from, into): into = from (op) into, element-wise
//    (MPI_Reduce_local(from, into)): `from` is the left operand, `into` the
//    right one, so the order of the operands is explicit; copy(from,
//    into): into = from;
//  * pace(t): the rank does nothing until `t` seconds after it entered the
//    call (a planned post time; nothing when that time has passed).
// Messages match by order (MPI's non-overtaking rule, explicit sources, one
// tag per program): the k-th send from a to b matches the k-th receive at b
// from a, and both have the same element count (check_program).
//
// Buffers are in elements of the call's datatype. Buffer 0 is the rank's
// data: the broadcast buffer; for reduces and all-reduces the rank's
// contribution at the start (the executor copies the send buffer in) and the
// result at the end (root / every rank). Buffers 1.. are scratch buffers of
// `buffer_elements[b]` elements each.
//
// STABLE INTERFACE: CommProgram, ProgramStep, Slice, check_program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hetcoll {

// `count` elements of buffer `buffer` from element `offset`.
struct Slice {
  std::uint32_t buffer = 0;
  std::size_t offset = 0;
  std::size_t count = 0;
  bool operator==(const Slice&) const = default;
};

struct ProgramStep {
  enum class Kind : std::uint8_t { send, receive, wait, combine, copy, pace };
  Kind kind = Kind::send;
  int peer = -1;             // send, receive: the other rank
  bool synchronous = false;  // send: MPI_Issend
  Slice data;                // send: what leaves; receive: where it lands; combine, copy: the input
  Slice into;                // combine, copy: the output (same count as data)
  // wait: indices (into this rank's steps) of the sends and receives waited for.
  std::vector<std::uint32_t> requests;
  double seconds = 0;  // pace: seconds after the rank entered the call

  static ProgramStep send_of(int peer, Slice data, bool synchronous = false);
  static ProgramStep receive_of(int peer, Slice data);
  static ProgramStep wait_for(std::vector<std::uint32_t> requests);
  static ProgramStep combine_of(Slice from, Slice into);
  static ProgramStep copy_of(Slice from, Slice into);
  static ProgramStep pace_until(double seconds);
};

struct CommProgram {
  // What the program does, for people: "binomial tree (MPI)", "hetcoll eager plan".
  std::string name;
  int ranks = 0;
  // Scratch buffers 1.. (index 0 unused: buffer 0 is the caller's data).
  std::vector<std::size_t> buffer_elements{0};
  std::vector<std::vector<ProgramStep>> steps;  // per rank
  // Every combine joins values of consecutive ranks, the lower ranks'
  // (`from`) on the left of the higher ranks' (`into`): the result is MPI's
  // x_0 op x_1 op ... op x_{n-1} for any associative operation, commutative
  // or not (verify_program checks the order when this is set). Programs
  // without it are for commutative operations only, and the executor
  // refuses to run them with a non-commutative one.
  bool rank_order = false;

  explicit CommProgram(int rank_count = 0, std::string description = {});
  // Appends a step to `rank` and returns its index (for wait lists).
  std::uint32_t add(int rank, ProgramStep step);
  // Posts a send and waits for it (MPI_Send / MPI_Ssend).
  void blocking_send(int rank, int peer, Slice data, bool synchronous = false);
  // Posts a receive and waits for it (MPI_Recv).
  void blocking_receive(int rank, int peer, Slice data);
  // MPI_Sendrecv: both posted, then one wait.
  void send_receive(int rank, int send_to, Slice sent, int receive_from, Slice received);
  // A new scratch buffer of `elements` elements (the same id on every rank).
  std::uint32_t add_buffer(std::size_t elements);
  std::size_t message_count() const;
};

// Throws InputError (parameter `what`) when the program is malformed: a peer
// out of range or itself, a slice outside its buffer (buffer 0 has
// `data_elements` elements), a pace time that is negative or not finite, a
// wait on a step that is not an earlier send or
// receive of the rank or is waited twice, a request never waited for,
// mismatched counts or unmatched messages.
void check_program(const CommProgram& program, std::size_t data_elements, const std::string& what = "program");

}  // namespace hetcoll
