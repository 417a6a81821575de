// A makespan plan bound to an MPI communicator: what the plan-file
// interface (hetcoll::mpi::reduce(..., plan) in collectives.h) runs.
//
// Problem: run a plan (plan/plan.h: every message with its sender,
// receiver and start time) with MPI point-to-point calls on a communicator
// whose ranks play the plan's processors (rank_mapping.h).
//
// Preparing binds the plan to the ranks (processor p becomes the rank that
// plays it); each call lowers it to a communication program for the call's
// element count and operation (plan/plan_program.h: commutative operations
// combine in arrival order, non-commutative ones keep runs of consecutive
// ranks) and runs it with the one executor of programs
// (program_executor.h). Deadlock-free for any plan that passes the checks
// below: every rank runs its transfers in the plan's one total order (by
// start time, ties by position), so the first pending transfer always has
// both sides posted.
//
// Mismatches are errors on every rank, never a hang: preparing a plan is
// collective. Each rank checks the plan against the communicator locally
// (size, processors, mapping, the operation's structure), then one
// all-reduce shares the outcome and a hash of the plan and mapping; if any
// rank failed, every rank throws MismatchError with the first failing rank's
// message, and if the hashes differ (ranks hold different plans) every rank
// throws too (communicator.h). Call arguments that every rank checks alike
// (root, count) throw on every rank. What only one rank can see in the
// middle of a collective (a message of the wrong size, a timeout) aborts
// the communicator with MPI_Abort after printing the reason (exchange.h).
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
// ranks, at preparation and per call (the lowering); plus two collectives
// (an all-gather of processor names and an all-reduce) and a communicator
// duplication at preparation.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hetcoll/core/error.h"
#include "hetcoll/mpi/communicator.h"
#include <mpi.h>
#include "hetcoll/mpi/rank_mapping.h"
#include "hetcoll/mpi/runtime_options.h"
#include "hetcoll/plan/comm_program.h"
#include "hetcoll/plan/plan.h"
#include "hetcoll/plan/plan_program.h"

namespace hetcoll::mpi {


// RuntimeOptions: runtime_options.h.

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

  Operation operation() const { return on_ranks_.operation; }
  // The rank of the broadcast/multicast source or the reduce/all-reduce root.
  int root_rank() const { return static_cast<int>(on_ranks_.root); }
  int rank() const { return communicator_->rank(); }
  int size() const { return communicator_->size(); }
  MPI_Comm user_communicator() const { return communicator_->user(); }
  MPI_Comm communicator() const { return communicator_->get(); }
  // Multicast: whether this rank is a target (helpers receive into scratch space).
  bool is_target() const { return is_target_; }
  // The processor this rank plays.
  ProcessorIndex processor() const { return processor_; }
  const std::string& algorithm() const { return on_ranks_.algorithm; }
  double predicted_makespan() const { return on_ranks_.makespan; }
  // An eager plan (PlanModel::eager): a rank posts its sends as standard
  // sends (MPI_Isend) without waiting for the earlier ones, then waits for
  // them all, whatever RuntimeOptions::send_mode says; the eager model's
  // times assume it.
  bool concurrent_sends() const { return on_ranks_.model == PlanModel::eager; }
  // The plan with processor p renamed to the rank that plays it.
  const MakespanPlan& plan_on_ranks() const { return on_ranks_; }
  // The program a call of `count` elements runs (plan/plan_program.h):
  // `rank_order` for non-commutative operations; sends and pacing as the
  // options say. The last one is kept: repeated calls of one shape lower
  // the plan once.
  const CommProgram& program(std::size_t count, bool rank_order) const;
  const RuntimeOptions& options() const { return options_; }
  void set_options(const RuntimeOptions& options) { options_ = options; }
  std::shared_ptr<PrivateCommunicator> shared_communicator() const { return communicator_; }

 private:
  std::shared_ptr<PrivateCommunicator> communicator_;
  MakespanPlan on_ranks_;
  ProcessorIndex processor_ = kNoProcessor;
  bool is_target_ = true;
  RuntimeOptions options_;
  struct Lowered {
    std::size_t count = 0;
    bool rank_order = false;
    CommProgram program;
  };
  mutable std::shared_ptr<Lowered> last_;
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





}  // namespace hetcoll::mpi
