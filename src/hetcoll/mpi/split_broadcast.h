// Running a split broadcast (makespan/split/split_broadcast.h) with MPI
// point-to-point calls: the source scatters chunks of the pieces to their
// spreaders, every spreader sends its chunks to the others.
//
// Execution on each rank (member i of the plan is the rank the mapping
// gives it): post a receive for every chunk the rank gets, in each sender's
// send order; then post the rank's sends in the plan's order — the source
// at each send's planned start (counted from the call; RuntimeOptions::
// eager_pacing never: at once), a spreader as soon as it holds the chunk
// (it waits for that chunk's receive) — standard MPI_Isend, so a rank's
// messages overlap their latencies; then complete everything.
//
// Why it cannot deadlock: every receive is posted before the rank waits
// for anything, and a rank waits only (a) for a chunk of its own piece,
// which the source sends without waiting for anyone (pacing waits for the
// clock only), and (b) at the end for its own sends and receives; every
// send has its receive posted by then, and every receive's sender reaches
// its send by (a). Between two ranks all chunks use one tag and both sides
// list them in the sender's order, so MPI's non-overtaking rule matches
// them right. The runtime works on a duplicate of the user's communicator.
//
// Mismatches (communicator size, the call's count or root not the plan's)
// are MismatchError on every rank, never a hang; a plan that fails
// verify_split_broadcast's structure (pieces, chunks, who sends what) is
// refused when prepared, on every rank.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/makespan/split/split_broadcast.h"
#include "hetcoll/mpi/executable_plan.h"
#include <mpi.h>

namespace hetcoll::mpi {

class ExecutableSplitBroadcast {
 public:
  // Collective. `member_ids[i]` names member i (for a mapping by name);
  // the default mapping puts member i on rank i.
  static ExecutableSplitBroadcast prepare(MPI_Comm comm, const SplitBroadcastPlan& plan,
                                          const std::vector<std::string>& member_ids, const RankMapping& mapping = {},
                                          const RuntimeOptions& options = {},
                                          std::string_view source_name = "split broadcast");
  // The same on an already duplicated communicator (a Runtime's plans share it).
  static ExecutableSplitBroadcast prepare(std::shared_ptr<PrivateCommunicator> communicator,
                                          const SplitBroadcastPlan& plan, const std::vector<std::string>& member_ids,
                                          const RankMapping& mapping, const RuntimeOptions& options,
                                          std::string_view source_name);

  int root_rank() const { return root_rank_; }
  int rank() const { return communicator_->rank(); }
  MPI_Comm communicator() const { return communicator_->get(); }
  MPI_Comm user_communicator() const { return communicator_->user(); }
  const SplitBroadcastPlan& plan() const { return plan_; }
  const RuntimeOptions& options() const { return options_; }

  // This rank's part: receives (in each sender's order) and sends (in its
  // send order), as element ranges with the peer's rank.
  struct Message {
    std::size_t first = 0;  // element
    int count = 0;
    int peer = 0;
    double planned_start = 0;
    std::size_t wait_for = 0;  // sends: index into receives() of the chunk to hold first, or npos
  };
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  const std::vector<Message>& receives() const { return receives_; }
  const std::vector<Message>& sends() const { return sends_; }

 private:
  std::shared_ptr<PrivateCommunicator> communicator_;
  SplitBroadcastPlan plan_;
  RuntimeOptions options_;
  int root_rank_ = 0;
  std::vector<Message> receives_, sends_;
};

// MPI_Bcast by the split plan: `count` must be the plan's elements and
// `root` its source's rank.
int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
          const ExecutableSplitBroadcast& plan);

}  // namespace hetcoll::mpi
