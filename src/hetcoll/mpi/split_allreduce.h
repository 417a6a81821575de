// Running a split all-reduce (makespan/split/split_allreduce.h) with MPI
// point-to-point calls: every rank sends each piece of its vector, chunk by
// chunk, to the piece's aggregator; an aggregator combines each chunk once
// all its contributions are in and sends the result to everyone.
//
// Execution on each rank (member i of the plan is the rank the mapping
// gives it): copy its own vector aside (so MPI_IN_PLACE is safe) and into
// the result's range of its own piece; post a receive for every message it
// gets (contributions to its piece into scratch space, results of the other
// pieces straight into the result buffer); then post its sends in the
// plan's order (by planned start) — a contribution at its planned start
// (counted from the call; RuntimeOptions::eager_pacing never: at once), a
// result once its chunk is complete: wait for the chunk's contributions,
// combine them in member order with MPI_Reduce_local — standard MPI_Isend;
// then complete everything. Commutative operations only: the pieces are
// combined at their aggregators, not in rank order (a non-commutative one
// is a MismatchError on every rank). Every rank ends with the same result:
// each element is combined once, at its aggregator.
//
// Why it cannot deadlock: a rank blocks only before a result, waiting for
// that chunk's contributions. prepare() checks that each contribution to a
// chunk is planned to start before the chunk's results, and each rank sends
// in the order of planned starts, so "planned start" orders every wait
// after the sends it waits for: take the pending send with the earliest
// planned start; everything its rank waits for was planned earlier, hence
// posted, and every receive was posted before anyone waited. By induction
// every send is posted and completes. Between two ranks the messages use
// one tag and both sides list them in the sender's order (MPI's
// non-overtaking rule). The runtime works on a duplicate of the user's
// communicator.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/makespan/split/split_allreduce.h"
#include "hetcoll/mpi/executable_plan.h"
#include <mpi.h>

namespace hetcoll::mpi {

class ExecutableSplitAllreduce {
 public:
  // Collective. `member_ids[i]` names member i; by default member i is rank i.
  static ExecutableSplitAllreduce prepare(MPI_Comm comm, const SplitAllreducePlan& plan,
                                          const std::vector<std::string>& member_ids, const RankMapping& mapping = {},
                                          const RuntimeOptions& options = {},
                                          std::string_view source_name = "split all-reduce");
  // The same on an already duplicated communicator (a Runtime's plans share it).
  static ExecutableSplitAllreduce prepare(std::shared_ptr<PrivateCommunicator> communicator,
                                          const SplitAllreducePlan& plan, const std::vector<std::string>& member_ids,
                                          const RankMapping& mapping, const RuntimeOptions& options,
                                          std::string_view source_name);

  int rank() const { return communicator_->rank(); }
  MPI_Comm communicator() const { return communicator_->get(); }
  MPI_Comm user_communicator() const { return communicator_->user(); }
  const SplitAllreducePlan& plan() const { return plan_; }
  const RuntimeOptions& options() const { return options_; }

  // This rank's messages. Receives: contributions (into scratch slot
  // `scratch_first`, counted in elements) or results (into the result
  // buffer at `first`). Sends: contributions from the own vector at
  // `first`, results from the result buffer at `first` after combining
  // chunk `chunk` of the rank's piece.
  struct Message {
    bool contribution = true;
    std::size_t chunk = 0;
    std::size_t first = 0;  // element of the vector
    int count = 0;
    int peer = 0;
    double planned_start = 0;
    std::size_t scratch_first = 0;  // contributions received: where in the scratch space
  };
  const std::vector<Message>& receives() const { return receives_; }
  const std::vector<Message>& sends() const { return sends_; }
  // The rank's own piece (first element and count; count 0: none) and, per
  // chunk of it, the indices into receives() of its contributions.
  std::size_t piece_first() const { return piece_first_; }
  std::size_t piece_elements() const { return piece_elements_; }
  const std::vector<std::vector<std::size_t>>& contributions_of_chunk() const { return contributions_of_chunk_; }
  std::size_t scratch_elements() const { return scratch_elements_; }

 private:
  std::shared_ptr<PrivateCommunicator> communicator_;
  SplitAllreducePlan plan_;
  RuntimeOptions options_;
  std::vector<Message> receives_, sends_;
  std::size_t piece_first_ = 0, piece_elements_ = 0, scratch_elements_ = 0;
  std::vector<std::vector<std::size_t>> contributions_of_chunk_;
};

// MPI_Allreduce by the split plan: `count` must be the plan's elements and
// `op` commutative; MPI_IN_PLACE as `sendbuf` is allowed.
int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              const ExecutableSplitAllreduce& plan);

}  // namespace hetcoll::mpi
