#include "hetcoll/mpi/pipelined_broadcast.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <deque>
#include <numeric>

#include <fmt/format.h>

#include "hetcoll/mpi/program_executor.h"

namespace hetcoll::mpi {

PipelineTree PipelineTree::from_parents(ProcessorIndex root, const std::vector<ProcessorIndex>& parent) {
  PipelineTree tree;
  tree.root = root;
  tree.children.assign(parent.size(), {});
  for (size_t p = 0; p < parent.size(); ++p) {
    if (static_cast<ProcessorIndex>(p) != root && parent[p] >= 0 && static_cast<size_t>(parent[p]) < parent.size()) {
      tree.children[static_cast<size_t>(parent[p])].push_back(static_cast<ProcessorIndex>(p));
    }
  }
  return tree;
}

PipelineTree PipelineTree::from_plan(const MakespanPlan& plan, ProcessorIndex processor_count) {
  PipelineTree tree;
  tree.root = plan.root;
  tree.children.assign(static_cast<size_t>(processor_count), {});
  std::vector<const Transfer*> transfers;
  for (const auto& transfer : plan.transfers) transfers.push_back(&transfer);
  std::stable_sort(transfers.begin(), transfers.end(),
                   [](const Transfer* a, const Transfer* b) { return a->start < b->start; });
  for (const auto* transfer : transfers) {
    if (transfer->payload != Payload::broadcast_value) continue;
    tree.children[static_cast<size_t>(transfer->from)].push_back(transfer->to);
  }
  return tree;
}

PipelineTree PipelineTree::binomial(ProcessorIndex processor_count, ProcessorIndex root) {
  // MPICH's binomial tree on ranks relative to the root: relative rank r
  // receives from r - lowbit(r) and sends to r + 2^k for the 2^k below
  // lowbit(r), largest first.
  PipelineTree tree;
  tree.root = root;
  tree.children.assign(static_cast<size_t>(processor_count), {});
  auto n = processor_count;
  for (ProcessorIndex relative = 0; relative < n; ++relative) {
    ProcessorIndex lowbit = relative == 0 ? 1 : (relative & -relative);
    ProcessorIndex top = 1;
    if (relative == 0) {
      while (top < n) top <<= 1;
    } else {
      top = lowbit;
    }
    auto processor = static_cast<size_t>((relative + root) % n);
    for (ProcessorIndex mask = top >> 1; mask > 0; mask >>= 1) {
      if (relative + mask < n) tree.children[processor].push_back((relative + mask + root) % n);
    }
  }
  return tree;
}

PipelineTree PipelineTree::chain(ProcessorIndex root, const std::vector<ProcessorIndex>& order) {
  PipelineTree tree;
  tree.root = root;
  tree.children.assign(order.size() + 1, {});
  ProcessorIndex previous = root;
  for (auto p : order) {
    tree.children[static_cast<size_t>(previous)].push_back(p);
    previous = p;
  }
  return tree;
}

std::vector<ProcessorIndex> PipelineTree::parents() const {
  std::vector<ProcessorIndex> parent(children.size(), kNoProcessor);
  for (size_t p = 0; p < children.size(); ++p) {
    for (auto child : children[p]) {
      if (child >= 0 && static_cast<size_t>(child) < parent.size()) parent[static_cast<size_t>(child)] = static_cast<ProcessorIndex>(p);
    }
  }
  return parent;
}

void check_pipelined_plan(const PipelinedBroadcastPlan& plan, ProcessorIndex processor_count,
                          std::string_view source_name) {
  if (plan.trees.empty()) throw InputError(fmt::format("{}: trees: at least one tree is needed", source_name));
  if (plan.slice_bytes == 0) throw InputError(fmt::format("{}: slice_bytes: must be positive", source_name));
  auto n = static_cast<size_t>(processor_count);
  for (size_t i = 0; i < plan.trees.size(); ++i) {
    const auto& [weight, tree] = plan.trees[i];
    auto where = fmt::format("{}: trees[{}]", source_name, i);
    if (!(weight > 0) || !std::isfinite(weight)) {
      throw InputError(fmt::format("{}.weight: must be positive and finite, got {}", where, weight));
    }
    if (tree.children.size() != n) {
      throw InputError(fmt::format("{}: covers {} processors, the communicator has {}", where, tree.children.size(), n));
    }
    if (tree.root != plan.trees[0].tree.root) throw InputError(fmt::format("{}: another root than trees[0]", where));
    if (tree.root < 0 || tree.root >= processor_count) throw InputError(fmt::format("{}: root out of range", where));
    std::vector<char> reached(n, 0);
    reached[static_cast<size_t>(tree.root)] = 1;
    std::deque<ProcessorIndex> frontier{tree.root};
    size_t count = 1;
    while (!frontier.empty()) {
      auto p = frontier.front();
      frontier.pop_front();
      for (auto child : tree.children[static_cast<size_t>(p)]) {
        if (child < 0 || child >= processor_count) throw InputError(fmt::format("{}: child {} out of range", where, child));
        if (reached[static_cast<size_t>(child)]) {
          throw InputError(fmt::format("{}: processor {} is reached twice", where, child));
        }
        reached[static_cast<size_t>(child)] = 1;
        ++count;
        frontier.push_back(child);
      }
    }
    if (count != n) {
      for (size_t p = 0; p < n; ++p) {
        if (!reached[p]) throw InputError(fmt::format("{}: processor {} is not reached from the root", where, p));
      }
    }
  }
}

std::vector<std::size_t> slice_trees(const PipelinedBroadcastPlan& plan, std::size_t slices) {
  std::vector<std::size_t> tree_of(slices, 0);
  if (plan.trees.size() <= 1) return tree_of;
  double total = 0;
  for (const auto& tree : plan.trees) total += tree.weight;
  std::vector<double> credit(plan.trees.size(), 0.0);
  for (std::size_t slice = 0; slice < slices; ++slice) {
    std::size_t best = 0;
    for (std::size_t i = 0; i < plan.trees.size(); ++i) {
      credit[i] += plan.trees[i].weight;
      if (credit[i] > credit[best]) best = i;
    }
    credit[best] -= total;
    tree_of[slice] = best;
  }
  return tree_of;
}

std::size_t slice_elements(const PipelinedBroadcastPlan& plan, int type_size) {
  if (type_size <= 0) return std::max<std::size_t>(plan.slice_bytes, 1);
  return std::max<std::size_t>(plan.slice_bytes / static_cast<std::size_t>(type_size), 1);
}

Slicing Slicing::of(const PipelinedBroadcastPlan& plan, int count, int type_size) {
  Slicing slicing;
  slicing.per_slice = slice_elements(plan, type_size);
  slicing.total = static_cast<std::size_t>(std::max(count, 0));
  slicing.slices = (slicing.total + slicing.per_slice - 1) / slicing.per_slice;
  return slicing;
}

double predict_pipelined_broadcast(const PipelinedBroadcastPlan& plan, double message_bytes, int type_size,
                                   const TransferCost& cost) {
  if (plan.trees.empty() || message_bytes <= 0) return 0;
  auto n = plan.trees[0].tree.children.size();
  auto type_bytes = static_cast<double>(std::max(type_size, 1));
  auto elements = static_cast<std::size_t>(std::ceil(message_bytes / type_bytes));
  auto per_slice = slice_elements(plan, type_size);
  auto slices = (elements + per_slice - 1) / per_slice;
  auto tree_of = slice_trees(plan, slices);
  std::vector<double> send_free(n, 0.0), receive_free(n, 0.0), holds(n, 0.0);
  double finish = 0;
  for (std::size_t slice = 0; slice < slices; ++slice) {
    auto slice_bytes = static_cast<double>(std::min(per_slice, elements - slice * per_slice)) * type_bytes;
    const auto& tree = plan.trees[tree_of[slice]].tree;
    holds[static_cast<size_t>(tree.root)] = 0;
    // Breadth-first: a parent handles its children after it holds the slice.
    std::deque<ProcessorIndex> frontier{tree.root};
    while (!frontier.empty()) {
      auto u = frontier.front();
      frontier.pop_front();
      for (auto v : tree.children[static_cast<size_t>(u)]) {
        double start = std::max({holds[static_cast<size_t>(u)], send_free[static_cast<size_t>(u)],
                                 receive_free[static_cast<size_t>(v)]});
        double end = start + cost(u, v, slice_bytes);
        send_free[static_cast<size_t>(u)] = end;
        receive_free[static_cast<size_t>(v)] = end;
        holds[static_cast<size_t>(v)] = end;
        finish = std::max(finish, end);
        frontier.push_back(v);
      }
    }
  }
  return finish;
}

ExecutablePipeline ExecutablePipeline::prepare(MPI_Comm comm, const PipelinedBroadcastPlan& plan,
                                               const std::vector<std::string>& processor_ids,
                                               const RankMapping& mapping, const RuntimeOptions& options,
                                               std::string_view source_name) {
  ExecutablePipeline result;
  result.communicator_ = std::make_shared<PrivateCommunicator>(comm, options.timeout_seconds);
  result.options_ = options;
  prepare_collectively(result.communicator_->get(), mapping, processor_ids, source_name, options.timeout_seconds,
                       [&](const std::vector<ProcessorIndex>& processor_of_rank) {
    auto n = static_cast<ProcessorIndex>(processor_ids.size());
    check_pipelined_plan(plan, n, source_name);
    std::vector<ProcessorIndex> rank_of(processor_ids.size(), kNoProcessor);
    for (size_t r = 0; r < processor_of_rank.size(); ++r) {
      rank_of[static_cast<size_t>(processor_of_rank[r])] = static_cast<ProcessorIndex>(r);
    }
    // The plan on ranks: processor p's place taken by the rank that plays it.
    result.plan_ = plan;
    for (auto& weighted : result.plan_.trees) {
      const auto& tree = weighted.tree;
      PipelineTree on_ranks;
      on_ranks.root = rank_of[static_cast<size_t>(tree.root)];
      on_ranks.children.resize(tree.children.size());
      for (size_t p = 0; p < tree.children.size(); ++p) {
        auto& children = on_ranks.children[static_cast<size_t>(rank_of[p])];
        for (auto child : tree.children[p]) children.push_back(rank_of[static_cast<size_t>(child)]);
      }
      weighted.tree = std::move(on_ranks);
    }
    result.root_rank_ = static_cast<int>(result.plan_.trees[0].tree.root);
    PlanHash hash;
    hash.add(plan.slice_bytes);
    for (const auto& [weight, tree] : plan.trees) {
      std::uint64_t weight_bits = 0;
      static_assert(sizeof(weight_bits) == sizeof(weight));
      std::memcpy(&weight_bits, &weight, sizeof weight);
      hash.add(weight_bits);
      for (size_t p = 0; p < tree.children.size(); ++p) {
        for (auto child : tree.children[p]) hash.add(static_cast<std::uint64_t>(p) << 32 | static_cast<std::uint32_t>(child));
        hash.add(~std::uint64_t{0});
      }
    }
    return hash.value();
  });
  return result;
}

void check_pipeline_call(const ExecutablePipeline& plan, std::string_view call, int count, MPI_Comm comm, int root) {
  if (comm != plan.user_communicator()) {
    int relation = MPI_UNEQUAL;
    MPI_Comm_compare(comm, plan.user_communicator(), &relation);
    if (relation != MPI_IDENT && relation != MPI_CONGRUENT) {
      throw MismatchError(fmt::format("{}: the plan was prepared on another communicator", call));
    }
  }
  if (count < 0) throw MismatchError(fmt::format("{}: count must not be negative, got {}", call, count));
  if (root != plan.root_rank()) {
    throw MismatchError(fmt::format("{}: root {} given, but the plan's root is rank {}", call, root, plan.root_rank()));
  }
}

CommProgram program_of_pipelined_broadcast(const PipelinedBroadcastPlan& plan, std::size_t count, int type_size,
                                           PlanLowering::Sends sends) {
  check_pipelined_plan(plan, static_cast<ProcessorIndex>(plan.trees.at(0).tree.children.size()), "pipelined broadcast");
  const int ranks = static_cast<int>(plan.trees[0].tree.children.size());
  CommProgram program(ranks, plan.algorithm.empty() ? "hetcoll pipelined broadcast"
                                                    : fmt::format("hetcoll pipelined {}", plan.algorithm));
  const auto slicing = Slicing::of(plan, static_cast<int>(count), type_size);
  const auto slices = slicing.slices;
  const auto tree_of = slice_trees(plan, slices);
  std::vector<std::vector<ProcessorIndex>> parents;
  for (const auto& weighted : plan.trees) parents.push_back(weighted.tree.parents());
  auto slice = [&](std::size_t j) {
    return Slice{0, j * slicing.per_slice, static_cast<std::size_t>(slicing.count(j))};
  };
  auto synchronous = [&](bool more_sends_follow) {
    return sends == PlanLowering::Sends::synchronous || (sends == PlanLowering::Sends::one_port && more_sends_follow);
  };
  for (int rank = 0; rank < ranks; ++rank) {
    const auto r = static_cast<std::size_t>(rank);
    // The last slice this rank forwards (sends before it are synchronous in
    // the one-port send mode).
    std::size_t last_sending_slice = 0;
    for (std::size_t j = 0; j < slices; ++j) {
      if (!plan.trees[tree_of[j]].tree.children[r].empty()) last_sending_slice = j;
    }
    // Receives posted ahead, in slice order: slice -> its request.
    std::vector<std::uint32_t> request_of(slices, 0);
    std::size_t next_to_post = 0;
    for (std::size_t j = 0; j < slices; ++j) {
      for (; next_to_post < slices && next_to_post < j + kPipelineReceivesAhead; ++next_to_post) {
        const auto parent = parents[tree_of[next_to_post]][r];
        if (parent == kNoProcessor) continue;
        request_of[next_to_post] = program.add(rank, ProgramStep::receive_of(static_cast<int>(parent), slice(next_to_post)));
      }
      if (parents[tree_of[j]][r] != kNoProcessor) program.add(rank, ProgramStep::wait_for({request_of[j]}));
      const auto& children = plan.trees[tree_of[j]].tree.children[r];
      for (std::size_t i = 0; i < children.size(); ++i) {
        program.blocking_send(rank, static_cast<int>(children[i]), slice(j),
                              synchronous(j < last_sending_slice || i + 1 < children.size()));
      }
    }
  }
  return program;
}

const CommProgram& ExecutablePipeline::program(bool reduce, std::size_t count, int type_size,
                                               const std::function<CommProgram()>& lower) const {
  if (!last_ || last_->reduce != reduce || last_->count != count || last_->type_size != type_size) {
    last_ = std::make_shared<Lowered>(Lowered{reduce, count, type_size, lower()});
  }
  return last_->program;
}

int bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, const ExecutablePipeline& plan) {
  constexpr std::string_view call = "hetcoll::mpi::bcast (pipelined)";
  check_pipeline_call(plan, call, count, comm, root);
  if (count == 0) return MPI_SUCCESS;
  int type_size = 0;
  MPI_Type_size(datatype, &type_size);
  const auto& program = plan.program(false, static_cast<std::size_t>(count), type_size, [&] {
    return program_of_pipelined_broadcast(plan.plan(), static_cast<std::size_t>(count), type_size,
                                          sends_of(plan.options()));
  });
  return bcast(buffer, count, datatype, root, program, plan.communicator(), plan.user_communicator(), plan.options());
}

}  // namespace hetcoll::mpi
