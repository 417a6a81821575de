// Why the segmented reduce cannot deadlock (pipelined_reduce.h states the contract):
//
// Why it cannot deadlock: all ranks handle segments in the same order.
// Suppose every transfer of segments < j has completed. A leaf's send of
// segment j needs nothing else; a rank's receives of segment j come from its
// children, whose sends of segment j need only their own children's: by
// induction on height every transfer of segment j completes (a rank waits
// for its send of j-1, which completed, before starting the send of j).
// Between two ranks, segments go in order on one tag (MPI's non-overtaking
// rule matches them).
//

#include "hetcoll/mpi/pipelined_reduce.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/mpi/program_executor.h"

namespace hetcoll::mpi {

PipelineTree reduce_tree_from_plan(const MakespanPlan& plan, ProcessorIndex processor_count) {
  PipelineTree tree;
  tree.root = plan.root;
  tree.children.assign(static_cast<size_t>(processor_count), {});
  for (auto index : execution_order(plan)) {
    const auto& transfer = plan.transfers[index];
    if (transfer.payload != Payload::partial_reduction) continue;
    tree.children[static_cast<size_t>(transfer.to)].push_back(transfer.from);
  }
  return tree;
}

namespace {

// Ranks with every child before its parent (reverse breadth-first order).
std::vector<ProcessorIndex> children_first(const PipelineTree& tree) {
  std::vector<ProcessorIndex> order{tree.root};
  for (size_t i = 0; i < order.size(); ++i) {
    for (auto child : tree.children[static_cast<size_t>(order[i])]) order.push_back(child);
  }
  std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace

double predict_pipelined_reduce(const PipelinedReducePlan& plan, double message_bytes, int type_size,
                                const TransferCost& cost) {
  if (plan.tree.children.empty() || message_bytes <= 0) return 0;
  const auto n = plan.tree.children.size();
  auto type_bytes = static_cast<double>(std::max(type_size, 1));
  auto elements = static_cast<std::size_t>(std::ceil(message_bytes / type_bytes));
  auto per_segment = std::max<std::size_t>(plan.segment_bytes / static_cast<std::size_t>(type_bytes), 1);
  auto segments = (elements + per_segment - 1) / per_segment;
  auto order = children_first(plan.tree);
  auto parent = plan.tree.parents();
  // combined[p]: when p holds segment j combined from its subtree.
  std::vector<double> send_free(n, 0.0), receive_free(n, 0.0), combined(n, 0.0);
  double finish = 0;
  for (std::size_t segment = 0; segment < segments; ++segment) {
    auto bytes = static_cast<double>(std::min(per_segment, elements - segment * per_segment)) * type_bytes;
    for (auto u : order) {
      // u's receives of this segment, in child order, after its previous receive.
      double ready = 0;
      for (auto child : plan.tree.children[static_cast<size_t>(u)]) {
        auto c = static_cast<size_t>(child);
        double start = std::max({combined[c], send_free[c], receive_free[static_cast<size_t>(u)]});
        double end = start + cost(child, u, bytes);
        send_free[c] = end;
        receive_free[static_cast<size_t>(u)] = end;
        ready = end;
      }
      combined[static_cast<size_t>(u)] = std::max(ready, receive_free[static_cast<size_t>(u)]);
      if (parent[static_cast<size_t>(u)] == kNoProcessor) finish = std::max(finish, combined[static_cast<size_t>(u)]);
    }
  }
  return finish;
}

SegmentChoice best_segment_size(const PipelineTree& tree, double message_bytes, int type_size,
                                const TransferCost& cost) {
  SegmentChoice best{0, std::numeric_limits<double>::infinity()};
  auto type_bytes = static_cast<std::size_t>(std::max(type_size, 1));
  PipelinedReducePlan plan{tree, type_bytes, ""};
  for (std::size_t segment = type_bytes;; segment *= 2) {
    plan.segment_bytes = segment;
    double time = predict_pipelined_reduce(plan, message_bytes, type_size, cost);
    if (time <= best.predicted_seconds) best = {segment, time};
    if (static_cast<double>(segment) >= message_bytes) break;
  }
  return best;
}

SegmentedReduceChoice choose_segmented_reduce(const std::vector<std::pair<std::string, PipelineTree>>& candidates,
                                              double message_bytes, int type_size, const TransferCost& cost) {
  if (candidates.empty()) throw InputError("segmented reduce: no candidate trees");
  SegmentedReduceChoice best;
  best.predicted_seconds = std::numeric_limits<double>::infinity();
  for (const auto& [name, tree] : candidates) {
    auto segment = best_segment_size(tree, message_bytes, type_size, cost);
    if (segment.predicted_seconds < best.predicted_seconds) {
      best.plan = {tree, segment.segment_bytes, name};
      best.predicted_seconds = segment.predicted_seconds;
    }
  }
  return best;
}

PipelinedBroadcastPlan as_pipeline(const PipelinedReducePlan& plan) {
  return {{{1.0, plan.tree}}, plan.segment_bytes, plan.algorithm};
}

CommProgram program_of_pipelined_reduce(const PipelinedBroadcastPlan& plan, std::size_t count, int type_size,
                                        PlanLowering::Sends sends) {
  if (plan.trees.size() != 1) {
    throw InputError("plan", fmt::format("a segmented reduce runs along one tree; the plan has {}", plan.trees.size()));
  }
  check_pipelined_plan(plan, static_cast<ProcessorIndex>(plan.trees[0].tree.children.size()), "segmented reduce");
  const auto& tree = plan.trees[0].tree;
  const int ranks = static_cast<int>(tree.children.size());
  CommProgram program(ranks, plan.algorithm.empty() ? "hetcoll segmented reduce"
                                                    : fmt::format("hetcoll segmented {}", plan.algorithm));
  const auto slicing = Slicing::of(plan, static_cast<int>(count), type_size);
  const auto segments = slicing.slices;
  const auto parents = tree.parents();
  const auto incoming = program.add_buffer(slicing.per_slice);
  auto segment = [&](std::uint32_t buffer, std::size_t j) {
    return Slice{buffer, buffer == 0 ? j * slicing.per_slice : 0, static_cast<std::size_t>(slicing.count(j))};
  };
  for (int rank = 0; rank < ranks; ++rank) {
    const auto r = static_cast<std::size_t>(rank);
    const auto parent = parents[r];
    std::optional<std::uint32_t> sending;
    for (std::size_t j = 0; j < segments; ++j) {
      for (auto child : tree.children[r]) {
        program.blocking_receive(rank, static_cast<int>(child), segment(incoming, j));
        program.add(rank, ProgramStep::combine_of(segment(incoming, j), segment(0, j)));
      }
      if (parent == kNoProcessor) continue;
      // One send at a time; the send of segment j overlaps the receives of j+1.
      if (sending) program.add(rank, ProgramStep::wait_for({*sending}));
      const bool synchronous = sends == PlanLowering::Sends::synchronous ||
                               (sends == PlanLowering::Sends::one_port && j + 1 < segments);
      sending = program.add(rank, ProgramStep::send_of(static_cast<int>(parent), segment(0, j), synchronous));
    }
    if (sending) program.add(rank, ProgramStep::wait_for({*sending}));
  }
  return program;
}

int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
           const ExecutablePipeline& plan) {
  constexpr std::string_view call = "hetcoll::mpi::reduce (segmented)";
  check_pipeline_call(plan, call, count, comm, root);
  if (plan.plan().trees.size() != 1) {
    throw MismatchError(fmt::format("{}: a segmented reduce runs along one tree; the plan has {}", call,
                                    plan.plan().trees.size()));
  }
  int commutative = 0;
  MPI_Op_commutative(op, &commutative);
  if (!commutative) {
    throw MismatchError(fmt::format("{}: needs a commutative operation (segments are combined in arrival order); "
                                    "the whole-vector reduce handles non-commutative ones",
                                    call));
  }
  if (count == 0) return MPI_SUCCESS;
  int type_size = 0;
  MPI_Type_size(datatype, &type_size);
  const auto& program = plan.program(true, static_cast<std::size_t>(count), type_size, [&] {
    return program_of_pipelined_reduce(plan.plan(), static_cast<std::size_t>(count), type_size,
                                       sends_of(plan.options()));
  });
  return reduce(sendbuf, recvbuf, count, datatype, op, root, program, plan.communicator(), plan.user_communicator(),
                plan.options());
}

}  // namespace hetcoll::mpi
