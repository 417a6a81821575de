// Pipelined broadcast of a large message along one spanning tree or a
// weighted family of trees, cut into slices (Beaumont, Marchal, Robert 2004,
// sec. 2-4: single-tree (STP) and multi-tree (MTP) pipelines).
//
// Problem: broadcast `count` elements from the root; the message is cut
// into slices of `slice_bytes` (whole elements, at least one per slice) and
// every slice travels down one tree of the family. Slice j goes to the tree
// whose weight is most behind its share after j slices (smooth weighted
// round robin: tree i accumulates weight_i per slice, the largest
// accumulated credit wins, ties to the lowest index, the winner pays the
// total weight), so over any prefix each tree carries its weight's share
// of slices within one slice.
//
// Execution (program_of_pipelined_broadcast, run by the program executor,
// program_executor.h), on each rank: for slice j = 0, 1, ... in order:
// unless it is the root, wait for slice j from its parent in slice j's
// tree; then send slice j to its children in that tree, one after the
// other, in the tree's child order. Receives for the next few slices are
// posted ahead so a rank receives slice j+1 while it forwards slice j
// (bidirectional one-port).
//
// Why it cannot deadlock: every rank handles slices in the same order
// (0, 1, ...) and, within a slice, the transfers form a tree. Suppose all
// transfers of slices < j have completed. Every rank has then posted its
// receive for slice j (receives are posted in slice order, and a rank's
// earlier steps are done); the root sends slice j down, and each child,
// having received it, sends it further: by induction on depth every
// transfer of slice j completes. Receives posted early only let messages
// land sooner. Between two ranks, slices are sent and received in slice
// order on one tag, so MPI's non-overtaking rule matches them right.
//
// Prediction (predict_pipelined_broadcast): the same execution replayed in
// the bidirectional one-port model with per-transfer costs cost(u, v,
// bytes): a transfer starts when the sender holds the slice, has finished
// its previous send, and the receiver has finished its previous receive.
// O(S · n) time for S slices and n processors.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/mpi/executable_plan.h"
#include <mpi.h>
#include "hetcoll/plan/comm_program.h"
#include "hetcoll/plan/plan.h"
#include "hetcoll/plan/plan_program.h"

namespace hetcoll::mpi {

struct PipelineTree {
  ProcessorIndex root = kNoProcessor;
  // children[p]: the processors p sends to, in the order it serves them.
  std::vector<std::vector<ProcessorIndex>> children;

  // From parent pointers (kNoProcessor for the root): children by index.
  static PipelineTree from_parents(ProcessorIndex root, const std::vector<ProcessorIndex>& parent);
  // The tree of a broadcast plan: children in the order the plan serves them.
  static PipelineTree from_plan(const MakespanPlan& plan, ProcessorIndex processor_count);
  // The binomial tree MPI libraries use, on processors in index order.
  static PipelineTree binomial(ProcessorIndex processor_count, ProcessorIndex root);
  // A chain root -> order[0] -> order[1] -> ... (order excludes the root).
  static PipelineTree chain(ProcessorIndex root, const std::vector<ProcessorIndex>& order);

  ProcessorIndex size() const { return static_cast<ProcessorIndex>(children.size()); }
  std::vector<ProcessorIndex> parents() const;
};

struct WeightedTree {
  double weight = 1;
  PipelineTree tree;
};

// Header (plan/plan_header.h): operation broadcast, model pipelined; the
// algorithm is what made it ("fnf-tree", "multi-tree", ...).
struct PipelinedBroadcastPlan : PlanHeader {
  PipelinedBroadcastPlan(std::vector<WeightedTree> trees_ = {}, std::size_t slice_bytes_ = 65536,
                         std::string algorithm_ = "")
      : trees(std::move(trees_)), slice_bytes(slice_bytes_) {
    operation = Operation::broadcast;
    model = PlanModel::pipelined;
    algorithm = std::move(algorithm_);
  }
  std::vector<WeightedTree> trees;  // one tree: a single-tree pipeline
  std::size_t slice_bytes = 65536;  // rounded down to whole elements, at least one
};

// Throws InputError (naming `source_name`) unless every tree spans
// processors 0..processor_count-1 from the same root with each processor
// reached once, weights are positive and finite, and slice_bytes > 0.
void check_pipelined_plan(const PipelinedBroadcastPlan& plan, ProcessorIndex processor_count,
                          std::string_view source_name);

// The tree index of each of `slices` slices (smooth weighted round robin).
std::vector<std::size_t> slice_trees(const PipelinedBroadcastPlan& plan, std::size_t slices);

// Elements per slice for a datatype of `type_size` bytes.
std::size_t slice_elements(const PipelinedBroadcastPlan& plan, int type_size);

// A call's `count` elements cut into the plan's slices.
struct Slicing {
  std::size_t per_slice = 1;  // elements
  std::size_t total = 0;      // elements
  std::size_t slices = 0;
  int count(std::size_t slice) const { return static_cast<int>(std::min(per_slice, total - slice * per_slice)); }
  static Slicing of(const PipelinedBroadcastPlan& plan, int count, int type_size);
};

// The predicted time of broadcasting `message_bytes` (see above); TransferCost
// is in executable_plan.h.
double predict_pipelined_broadcast(const PipelinedBroadcastPlan& plan, double message_bytes, int type_size,
                                   const TransferCost& cost);

// A pipelined plan bound to a communicator (collective; like ExecutablePlan:
// every rank checks, a hash makes sure all hold the same plan, mismatches
// are MismatchError on every rank).
class ExecutablePipeline {
 public:
  static ExecutablePipeline prepare(MPI_Comm comm, const PipelinedBroadcastPlan& plan,
                                    const std::vector<std::string>& processor_ids, const RankMapping& mapping = {},
                                    const RuntimeOptions& options = {}, std::string_view source_name = "pipeline");

  int root_rank() const { return root_rank_; }
  int rank() const { return communicator_->rank(); }
  MPI_Comm communicator() const { return communicator_->get(); }
  MPI_Comm user_communicator() const { return communicator_->user(); }
  // The plan on ranks: processor p's place taken by the rank that plays it.
  const PipelinedBroadcastPlan& plan() const { return plan_; }
  const RuntimeOptions& options() const { return options_; }
  // The program of a broadcast (or, `reduce`, a segmented reduce:
  // pipelined_reduce.h) of `count` elements of `type_size` bytes, made by
  // `lower` unless it is the last one made: repeated calls of one shape
  // lower the plan once.
  const CommProgram& program(bool reduce, std::size_t count, int type_size,
                             const std::function<CommProgram()>& lower) const;

 private:
  std::shared_ptr<PrivateCommunicator> communicator_;
  PipelinedBroadcastPlan plan_;
  int root_rank_ = 0;
  RuntimeOptions options_;
  struct Lowered {
    bool reduce = false;
    std::size_t count = 0;
    int type_size = 0;
    CommProgram program;
  };
  mutable std::shared_ptr<Lowered> last_;
};

// The checks every rank makes alike before running a pipeline (so a
// mismatch is a MismatchError on every rank): `comm` is the plan's, count is
// not negative, root is the plan's root. `call` names the call in messages.
void check_pipeline_call(const ExecutablePipeline& plan, std::string_view call, int count, MPI_Comm comm, int root);

// Receives a rank posts ahead of the slice it forwards.
constexpr std::size_t kPipelineReceivesAhead = 4;

// The communication program (plan/comm_program.h) of broadcasting `count`
// elements of `type_size` bytes along `plan`, whose processors are the
// ranks (the execution above); `sends`: one-port (a send that another of
// the rank follows is synchronous), standard or synchronous.
CommProgram program_of_pipelined_broadcast(const PipelinedBroadcastPlan& plan, std::size_t count, int type_size,
                                           PlanLowering::Sends sends = PlanLowering::Sends::one_port);

// MPI_Bcast along the pipelined plan (root must be the plan's root): its
// program, run by the program executor.
int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, const ExecutablePipeline& plan);

}  // namespace hetcoll::mpi
