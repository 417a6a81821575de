// A makespan plan bound to an MPI communicator, ready to run.
//
// Problem: execute a plan (plan/plan.h: every message with its sender,
// receiver and start time) with MPI point-to-point calls on a communicator
// whose ranks play the plan's processors (rank_mapping.h).
//
// Each rank runs its own program: the transfers it takes part in, in the
// plan's global order — by start time, ties by position in the plan's list —
// posting a receive or a send for each and completing it before the next
// (a receive may be posted one step early; that never delays anyone).
// Eager plans (PlanModel::eager) post sends at their planned start times
// without completing earlier ones (executable_plan.cpp: the details).
//
// Deadlock-free for any plan, valid or not in the model: every rank follows
// one total order of the transfers, so the first pending transfer always
// has both sides posted (executable_plan.cpp: the proof, eager plans too).
// The runtime uses a duplicate of the user's communicator. Data correctness
// is separate: the checks below make sure every rank forwards only what it
// already holds.
//
// Mismatches are errors on every rank, never a hang: preparing a plan is
// collective. Each rank checks the plan against the communicator locally
// (size, processors, mapping, the operation's structure), then one
// all-reduce shares the outcome and a hash of the plan and mapping; if any
// rank failed, every rank throws MismatchError with the first failing rank's
// message, and if the hashes differ (ranks hold different plans) every rank
// throws too. Call arguments that every rank checks alike (root, count) throw
// on every rank. What only one rank can see in the middle of a collective (a
// message of the wrong size, a timeout) aborts the communicator with
// MPI_Abort after printing the reason: the other ranks could not be told
// otherwise.
//
// Structure checked (from the order alone, not from the times):
//  broadcast/multicast — payload "value"; the source never receives; a rank
//    receives at most once and forwards only after it has received; every
//    rank (broadcast) or every target (multicast) receives;
//  reduce — payload "partial"; the root never sends; every other rank sends
//    exactly once, after all of its receives; every send leads to the root;
//  all-reduce — a reduce to the root followed, on every rank, by a broadcast
//    of the result from the root.
// Cost: O(m log m) time and O(n + m) memory per rank for m transfers and n
// ranks; plus two collectives (an all-gather of processor names and an
// all-reduce) and a communicator duplication.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hetcoll/core/error.h"
#include <mpi.h>
#include "hetcoll/mpi/rank_mapping.h"
#include "hetcoll/mpi/runtime_options.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll::mpi {

// A plan that does not fit the communicator or the call, reported on every rank.
class MismatchError : public InputError {
 public:
  using InputError::InputError;
};

// RuntimeOptions: runtime_options.h.

// One step of a rank's program.
struct RankStep {
  enum class Kind : std::uint8_t { receive, send };
  Kind kind = Kind::receive;
  int peer = -1;  // the other rank
  Payload payload = Payload::broadcast_value;
  std::size_t transfer = 0;  // index in the plan's transfers
  // Eager plans, sends: seconds after this rank holds the message (the
  // source: after the call starts) at which the send is posted, from the
  // plan's start times; a reduce's one send: seconds after the call starts
  // (it leaves then, or once its children's messages have arrived, if later).
  double offset = 0;
  // Eager reduce plans, receives: when the plan has the message arrive (its
  // end): the rank combines its children's values in that order.
  double planned_end = 0;
};

// The communicator the runtime talks on: a duplicate of the user's, freed
// when the last plan using it goes (unless MPI is already finalized).
class PrivateCommunicator {
 public:
  // Collective (MPI_Comm_dup); timeout_seconds > 0 bounds the wait (exchange.h).
  explicit PrivateCommunicator(MPI_Comm user, double timeout_seconds = 0);
  ~PrivateCommunicator();
  PrivateCommunicator(const PrivateCommunicator&) = delete;
  PrivateCommunicator& operator=(const PrivateCommunicator&) = delete;
  MPI_Comm user() const { return user_; }
  MPI_Comm get() const { return private_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  MPI_Comm user_ = MPI_COMM_NULL;
  MPI_Comm private_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 0;
};

class ExecutablePlan {
 public:
  // Collective over `comm`. `processor_ids` names the plan's processors (the
  // platform's ids, in index order); the plan must have exactly one
  // processor per rank. Throws MismatchError on every rank when any rank
  // finds a mismatch; `source_name` (e.g. the plan file) prefixes messages.
  static ExecutablePlan prepare(MPI_Comm comm, const MakespanPlan& plan, const std::vector<std::string>& processor_ids,
                                const RankMapping& mapping = {}, const RuntimeOptions& options = {},
                                std::string_view source_name = "plan");
  // The same on an already duplicated communicator (plans of one Runtime share it).
  static ExecutablePlan prepare(std::shared_ptr<PrivateCommunicator> communicator, const MakespanPlan& plan,
                                const std::vector<std::string>& processor_ids, const RankMapping& mapping,
                                const RuntimeOptions& options, std::string_view source_name);
  // Collective: reads the plan file (docs/FORMATS.md) and the platform file
  // it refers to (cluster or graph JSON, or SimGrid XML, for the processor
  // ids) on every rank, then prepares it. Any rank failing to read is an
  // error on every rank.
  static ExecutablePlan from_files(MPI_Comm comm, const std::string& plan_path, const std::string& platform_path,
                                   const RankMapping& mapping = {}, const RuntimeOptions& options = {});

  Operation operation() const { return operation_; }
  // The rank of the broadcast/multicast source or the reduce/all-reduce root.
  int root_rank() const { return root_rank_; }
  int rank() const { return communicator_->rank(); }
  int size() const { return communicator_->size(); }
  MPI_Comm user_communicator() const { return communicator_->user(); }
  MPI_Comm communicator() const { return communicator_->get(); }
  const std::vector<RankStep>& steps() const { return steps_; }
  // Multicast: whether this rank is a target (helpers receive into scratch space).
  bool is_target() const { return is_target_; }
  // The processor this rank plays.
  ProcessorIndex processor() const { return processor_; }
  const std::string& algorithm() const { return algorithm_; }
  double predicted_makespan() const { return predicted_makespan_; }
  // An eager plan (PlanModel::eager): a rank posts each send as a standard
  // send (MPI_Isend) at its offset, without waiting for the earlier ones,
  // then waits for them all, whatever RuntimeOptions::send_mode says; the
  // eager model's times assume it.
  bool concurrent_sends() const { return concurrent_sends_; }
  const RuntimeOptions& options() const { return options_; }
  void set_options(const RuntimeOptions& options) { options_ = options; }

 private:
  std::shared_ptr<PrivateCommunicator> communicator_;
  Operation operation_ = Operation::broadcast;
  int root_rank_ = 0;
  ProcessorIndex processor_ = kNoProcessor;
  bool is_target_ = true;
  std::vector<RankStep> steps_;
  std::string algorithm_;
  double predicted_makespan_ = 0;
  bool concurrent_sends_ = false;
  RuntimeOptions options_;
};

// The order every rank runs the plan's transfers in: by start time, ties by
// position in the list (indices into plan.transfers).
std::vector<std::size_t> execution_order(const MakespanPlan& plan);

// The time of one message of `bytes` from rank `from` to rank `to`.
using TransferCost = std::function<double(ProcessorIndex from, ProcessorIndex to, double bytes)>;

// The time the runtime takes to run `plan` (processors = ranks) when a
// message u -> v of `bytes` costs cost(u, v, bytes): every rank runs its
// transfers one at a time in execution_order, and a transfer starts when
// both its ranks are free (one-port; the runtime's synchronous sends). With
// cost(u, v, S) = t(u) it is at most the plan's makespan (its earliest
// start replay); with a platform's route times it predicts the plan on that
// network, which the sender-speed view (t = slowest route) overestimates.
double predict_plan_time(const MakespanPlan& plan, double bytes, const TransferCost& cost);

// Checks the structure listed above on processors 0..processor_count-1;
// throws InputError naming `source_name` and the offending transfer.
void check_executable_structure(const MakespanPlan& plan, ProcessorIndex processor_count,
                                std::string_view source_name);

// After a local failure or success, tells every rank the outcome: returns
// normally when no rank failed, throws MismatchError with the first failing
// rank's message on every rank otherwise. `what` says what was being done.
// Collective over `comm` (uses PMPI_ calls, so it works inside the PMPI
// library too).
// `timeout_seconds` > 0 bounds the wait for the other ranks (exchange.h).
void agree_on_outcome(MPI_Comm comm, const std::string& local_error, std::string_view what,
                      double timeout_seconds = 0);

// FNV-1a, 64 bits: ranks compare plans by this hash of what they will run.
class PlanHash {
 public:
  void add(std::uint64_t value) {
    for (int byte = 0; byte < 8; ++byte) {
      hash_ ^= (value >> (8 * byte)) & 0xff;
      hash_ *= 0x100000001b3ULL;
    }
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// The collective part of preparing any plan: resolves `mapping` (gathering
// processor names if any rank maps by name), calls `build` with each rank's
// processor (it checks the plan, fills the caller's result and returns a
// hash of what this rank will run), then agrees with every rank: a failure
// anywhere, or different hashes, is a MismatchError on every rank.
void prepare_collectively(MPI_Comm comm, const RankMapping& mapping, const std::vector<std::string>& processor_ids,
                          std::string_view source_name, double timeout_seconds,
                          const std::function<std::uint64_t(const std::vector<ProcessorIndex>& processor_of_rank)>& build);

// Every rank's MPI_Get_processor_name, by rank (collective, PMPI_Allgather).
std::vector<std::string> gather_processor_names(MPI_Comm comm, double timeout_seconds = 0);

}  // namespace hetcoll::mpi
