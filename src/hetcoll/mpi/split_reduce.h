// Running a split reduce (makespan/split/split_reduce.h) with MPI
// point-to-point messages.
//
// Rank r plays processor r of the plan. On each rank: every receive the plan
// gives it is posted at the call's start (MPI_Irecv: a contribution to each
// piece it aggregates from every other non-root rank; at the root, each
// forwarded piece from its aggregator). Then the rank runs its actions in
// the order of their times in the plan (ties: sends first): "post the
// contribution of piece j" (MPI_Isend of the user's send buffer's elements,
// a standard send, posted at its planned time after the call's start: the
// pacing keeps the rank's link to one message at a time while latencies
// overlap) and "piece j complete" (wait for its receives, combine them with
// MPI_Reduce_local into the rank's own piece, or at the root into the
// result, and, at a non-root aggregator, send the reduced piece to the root
// at once). Last, it waits for its sends.
//
// Why it cannot deadlock: order all actions of all ranks by their planned
// times (sends before completions on ties). A completion of piece j at
// time t waits only for messages whose plan posts them strictly before t
// (a message takes positive time in the model: the flow needs bytes or
// latency > 0); a send waits for nothing but the rank's earlier actions.
// By induction on this order every action finishes: the earliest
// unfinished one would be a completion whose messages are all posted (by
// earlier actions of other ranks, finished) and whose receives are posted
// (at the start), and MPI delivers them. Messages between two ranks carry
// the piece in the tag (contribution j: tag j; forward j: tag k + j), so
// they match unambiguously, on a private duplicate of the communicator.
//
// Semantics: MPI_Reduce's for commutative operations (predefined or user);
// any count and datatype (the plan's pieces are element ranges; the plan
// must be made for this count); MPI_IN_PLACE at the root. Non-commutative
// operations (the pieces are combined in arrival order, not in rank order)
// fall back to the MPI library's MPI_Reduce, which the root says once per
// process on stderr.
//
// Errors: a message of the wrong length, an MPI error or a wait past
// RuntimeOptions::timeout_seconds prints the rank, the peer and the reason
// and aborts the job (exchange.h), as the other collectives do.
#pragma once

#include <memory>

#include <mpi.h>

#include "hetcoll/makespan/split/split_reduce.h"
#include "hetcoll/mpi/executable_plan.h"

namespace hetcoll::mpi {

class ExecutableSplitReduce {
 public:
  // Collective over `comm` (duplicates it). MismatchError on every rank
  // when the plan's processors are not the communicator's size on some
  // rank, or when the ranks hold different plans (compared by a hash of
  // the root, count, pieces and contribution orders).
  static ExecutableSplitReduce prepare(MPI_Comm comm, SplitReducePlan plan, const RuntimeOptions& options = {});
  const RuntimeOptions& options() const { return options_; }
  const SplitReducePlan& plan() const { return plan_; }
  MPI_Comm comm() const { return communicator_->get(); }       // the private duplicate
  MPI_Comm user_comm() const { return communicator_->user(); }  // the one it was prepared on
  int rank() const { return communicator_->rank(); }
  int size() const { return communicator_->size(); }

 private:
  SplitReducePlan plan_;
  RuntimeOptions options_;  // timeout_seconds: how long a rank waits (send_mode and pacing do not apply)
  std::shared_ptr<PrivateCommunicator> communicator_;
};

// MPI_Reduce along the split plan: count must be the plan's, root its root,
// comm the one it was prepared on (MismatchError otherwise, on the calling
// rank); a non-commutative op runs MPI_Reduce instead (above).
int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
           const ExecutableSplitReduce& plan);

}  // namespace hetcoll::mpi
