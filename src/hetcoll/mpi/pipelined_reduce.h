// Segmented (pipelined) reduce along one tree (ours, after the pipelined
// broadcast of Beaumont, Marchal, Robert 2004 run backwards; MPI libraries'
// segmented reduces, e.g. Open MPI's "pipeline" and "binary" reduce, do the
// same along fixed trees).
//
// Problem: reduce `count` elements from every rank into the root with a
// commutative operation; the vector is cut into segments of
// `segment_bytes` (whole elements, at least one per segment) and every
// segment travels up one spanning tree: a rank combines segment j of its
// own vector with segment j of each child, in the tree's child order, then
// sends segment j to its parent. A whole-vector reduce plan moves every
// vector in one message, so a rank waits for its children's whole vectors
// before it sends anything; segmenting lets a rank send segment j while its
// children still send segment j+1.
//
// Execution (program_of_pipelined_reduce, run by the program executor,
// program_executor.h), on each rank: for j = 0, 1, ...: receive segment j
// from each child in order (one at a time: one-port receives) and combine
// it; then wait for its own send of segment j-1 to finish (one send at a
// time) and start sending segment j to its parent. A rank thus receives
// segment j+1 while its send of segment j is under way (bidirectional
// one-port).
//
// It cannot deadlock: all ranks handle segments in the same order
// (pipelined_reduce.cpp: the proof).
//
// Prediction (predict_pipelined_reduce): that execution replayed in the
// bidirectional one-port model with per-transfer costs cost(child, parent,
// bytes): the transfer of segment j from c to its parent u starts when c has
// combined segment j from all its children, c's send of segment j-1 has
// ended, and u's previous receive has ended. Combining is free (the
// simulator is run without computation). O(S · n) time for S segments and
// n ranks.
//
// Guarantee: none (a heuristic): the tree is one of the caller's
// candidates and the segment size the best power of two by the replay, which
// is exact for the runtime's order in the model, not for a network that
// shares links. Choosing: O(C log M · S · n)
// for C candidate trees and a message of M bytes; ties go to the earlier
// candidate and to the larger segment.
//
// Known limits: commutative operations only (a non-commutative one needs
// the runs of ranks of the whole-vector reduce, collectives.h); one tree.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "hetcoll/mpi/executable_plan.h"
#include "hetcoll/mpi/pipelined_broadcast.h"
#include <mpi.h>

namespace hetcoll::mpi {

// Header (plan/plan_header.h): operation reduce, model pipelined; the
// algorithm is what made the tree ("snf-tree", "chain", ...).
struct PipelinedReducePlan : PlanHeader {
  PipelinedReducePlan(PipelineTree tree_ = {}, std::size_t segment_bytes_ = 65536, std::string algorithm_ = "")
      : tree(std::move(tree_)), segment_bytes(segment_bytes_) {
    operation = Operation::reduce;
    model = PlanModel::pipelined;
    algorithm = std::move(algorithm_);
  }
  PipelineTree tree;  // children[p]: the ranks p combines, in that order; root = the reduce's root
  std::size_t segment_bytes = 65536;  // rounded down to whole elements, at least one
};

// The tree of a reduce plan: each processor's parent is where it sends its
// partial result; children in the order the plan receives them.
PipelineTree reduce_tree_from_plan(const MakespanPlan& plan, ProcessorIndex processor_count);

// The predicted time of reducing `message_bytes` (see above).
double predict_pipelined_reduce(const PipelinedReducePlan& plan, double message_bytes, int type_size,
                                const TransferCost& cost);

// The segment size (bytes) among powers of two from one element up to the
// whole message that predict_pipelined_reduce finds fastest (ties to the
// larger segment: fewer messages); and its prediction.
struct SegmentChoice {
  std::size_t segment_bytes = 0;
  double predicted_seconds = 0;
};
SegmentChoice best_segment_size(const PipelineTree& tree, double message_bytes, int type_size,
                                const TransferCost& cost);

// The candidate tree (name, tree) and segment size predicted fastest; ties
// to the earlier candidate.
struct SegmentedReduceChoice {
  PipelinedReducePlan plan;
  double predicted_seconds = 0;
};
SegmentedReduceChoice choose_segmented_reduce(const std::vector<std::pair<std::string, PipelineTree>>& candidates,
                                              double message_bytes, int type_size, const TransferCost& cost);

// The pipeline the runtime runs the plan with: its one tree, segments as slices.
PipelinedBroadcastPlan as_pipeline(const PipelinedReducePlan& plan);

// The communication program of reducing `count` elements of `type_size`
// bytes along `plan` (as_pipeline of a PipelinedReducePlan: one tree, the
// segments as slices), whose processors are the ranks (the execution
// above; commutative operations: the program does not keep rank order).
CommProgram program_of_pipelined_reduce(const PipelinedBroadcastPlan& plan, std::size_t count, int type_size,
                                        PlanLowering::Sends sends = PlanLowering::Sends::one_port);

// MPI_Reduce along a segmented plan prepared with
// ExecutablePipeline::prepare(comm, as_pipeline(plan), ...): root must be
// the tree's root, `op` commutative (MismatchError on every rank otherwise);
// MPI_IN_PLACE at the root as MPI has it; any count and datatype.
int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
           const ExecutablePipeline& plan);

}  // namespace hetcoll::mpi
