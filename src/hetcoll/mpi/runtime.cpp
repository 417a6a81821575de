#include "hetcoll/mpi/runtime.h"

#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "hetcoll/makespan/eager/eager_broadcast.h"
#include "hetcoll/makespan/eager/eager_reduce.h"
#include "hetcoll/registry/graph_registry.h"
#include "hetcoll/makespan/split/split_broadcast.h"
#include "hetcoll/makespan/sender_speed/auto_select.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/model/participants.h"
#include "hetcoll/mpi/collectives.h"
#include "hetcoll/mpi/exchange.h"

namespace hetcoll::mpi {

MakespanPlan plan_for_cluster(const Cluster& cluster, Operation operation, ProcessorIndex root,
                              const std::string& algorithm) {
  MakespanRequest request;
  request.operation = operation;
  request.root = root;
  // A node budget, not auto's default time budget: every rank must plan alike.
  request.auto_budget.nodes = kAutoSearchNodeBudget;
  return plan_makespan(cluster, request, algorithm);
}

PlanModel parse_plan_model(std::string_view text, std::string_view parameter) {
  if (auto model = plan_model_from_string(text); model && is_makespan_model(*model)) return *model;
  throw InputError(fmt::format("{}: must be \"sender-speed\", \"graph\" or \"eager\", got \"{}\"", parameter, text));
}

namespace {

// The graph planners (or, under PlanModel::eager, the eager broadcast and
// reduce planners) on the platform itself, the ranks' processors as the
// participants; the plan comes back on ranks (processor r = rank r), routes
// left to the network.
MakespanPlan plan_graph_for_ranks(const Platform& graph, const std::vector<ProcessorIndex>& processor_of_rank,
                                  Operation operation, int root_rank, double message_bytes,
                                  const std::string& algorithm, PlanModel model) {
  std::vector<std::string> ids;
  for (auto p : processor_of_rank) ids.push_back(graph.id(p));
  const Platform participating = with_participants(graph, ids, "rank mapping");
  std::optional<double> size;
  if (!participating.has_fixed_costs()) size = message_bytes;
  GraphNetwork network(participating, size);
  MakespanRequest request;
  request.operation = operation;
  if (root_rank >= 0) request.root = processor_of_rank.at(static_cast<size_t>(root_rank));
  MakespanPlan plan;
  if (model == PlanModel::eager) {
    if (operation != Operation::broadcast && operation != Operation::reduce) {
      throw InputError(fmt::format("the eager model plans broadcasts and reduces only, not a {} (plan it with the "
                                   "model \"graph\" or \"sender-speed\")",
                                   to_string(operation)));
    }
    const auto heuristic = eager_heuristic_from_string(algorithm.empty() ? "auto" : algorithm);
    if (!heuristic) {
      throw InputError("algorithm", fmt::format("the eager model's planners are {}, got \"{}\"",
                                                eager_heuristic_names(), algorithm));
    }
    const ProcessorIndex root = request.root == kNoProcessor ? network.participants().front() : request.root;
    plan = operation == Operation::reduce ? plan_eager_reduce(network, root, *heuristic)
                                          : plan_eager_broadcast(network, root, *heuristic);
  } else {
    plan = plan_graph_makespan(network, request, algorithm);
  }
  std::vector<ProcessorIndex> rank_of(static_cast<size_t>(graph.size()), kNoProcessor);
  for (size_t r = 0; r < processor_of_rank.size(); ++r) {
    rank_of[static_cast<size_t>(processor_of_rank[r])] = static_cast<ProcessorIndex>(r);
  }
  auto to_rank = [&](ProcessorIndex node) {
    auto rank = node == kNoProcessor ? kNoProcessor : rank_of[static_cast<size_t>(node)];
    if (rank == kNoProcessor) {
      throw InputError(fmt::format("graph plan: {} takes part, which no rank plays",
                                   node == kNoProcessor ? std::string("no processor") : graph.id(node)));
    }
    return rank;
  };
  plan.root = to_rank(plan.root);
  for (auto& transfer : plan.transfers) {
    transfer.from = to_rank(transfer.from);
    transfer.to = to_rank(transfer.to);
    transfer.route.clear();  // the network routes each MPI message
  }
  for (auto& target : plan.targets) target = to_rank(target);
  for (auto& helper : plan.helpers) helper = to_rank(helper);
  return plan;
}


// Whether a split plan runs for `key` (root, count, type size), decided
// alike on every rank and cached: `plan_and_compare` plans it and says
// whether its prediction beats the whole-message plan's; a failure on any
// rank, or any rank saying no, means no (the whole-message plan then runs
// and reports its own errors); else `prepare` binds it (collective).
template <typename Executable>
const Executable* decide_split(std::map<std::tuple<int, int, int>, std::unique_ptr<Executable>>& cache,
                               const std::tuple<int, int, int>& key, MPI_Comm comm, double timeout_seconds,
                               const std::string& what, const std::function<bool()>& plan_and_compare,
                               const std::function<std::unique_ptr<Executable>()>& prepare) {
  if (auto found = cache.find(key); found != cache.end()) return found->second.get();
  if (cache.size() >= Runtime::kSplitCacheEntries) return nullptr;
  int split = 0;
  std::string local_error;
  try {
    split = plan_and_compare() ? 1 : 0;
  } catch (const std::exception& error) {
    local_error = error.what();
  }
  try {
    agree_on_outcome(comm, local_error, what, timeout_seconds);
  } catch (const MismatchError&) {
    return cache.emplace(key, nullptr).first->second.get();
  }
  // Every rank decides alike (deterministic planners); the minimum makes sure.
  int everyone = 0;
  MPI_Request request;
  PMPI_Iallreduce(&split, &everyone, 1, MPI_INT, MPI_MIN, comm, &request);
  wait_for_collective(request, comm, timeout_seconds, what);
  return cache.emplace(key, everyone ? prepare() : nullptr).first->second.get();
}

// Throws InputError unless `root` is a rank of a communicator of `ranks`.
void check_root(int root, std::size_t ranks) {
  if (root < 0 || root >= static_cast<int>(ranks)) {
    throw InputError(fmt::format("root {} is not a rank of the communicator of {} ranks", root, ranks));
  }
}

}  // namespace

MakespanPlan plan_for_ranks(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                            Operation operation, int root_rank, double message_bytes, const std::string& algorithm,
                            PlanModel model) {
  if (model == PlanModel::platform_graph || model == PlanModel::eager) {
    if (platform.is_cluster()) {
      throw InputError(fmt::format("{}: planning {} needs a platform graph (JSON graph or SimGrid XML); "
                                   "this is a sender-speed cluster",
                                   platform.source_name,
                                   model == PlanModel::eager ? "in the eager model" : "on the graph"));
    }
    return plan_graph_for_ranks(platform.graph(), processor_of_rank, operation, root_rank, message_bytes, algorithm,
                                model);
  }
  return plan_for_cluster(restrict_to_processors(platform, processor_of_rank, message_bytes), operation,
                          root_rank < 0 ? kNoProcessor : root_rank, algorithm);
}

Cluster restrict_to_processors(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processors,
                               double message_bytes) {
  if (platform.is_cluster()) {
    const auto& cluster = platform.cluster();
    std::vector<std::string> ids;
    std::vector<double> times;
    for (auto p : processors) {
      ids.push_back(cluster.id(p));
      times.push_back(cluster.transmission_time(p));
    }
    return Cluster(std::move(ids), std::move(times), platform.source_name);
  }
  // The graph's own routes between the mapped hosts (the others forward):
  // the sender-speed view of the participants, then in rank order.
  const auto& graph = platform.graph();
  std::vector<std::string> ids;
  for (auto p : processors) ids.push_back(graph.id(p));
  auto participating = with_participants(graph, ids, "rank mapping");
  std::optional<double> size;
  if (!participating.has_fixed_costs()) size = message_bytes;
  auto view = cluster_from_platform(participating, size, platform.source_name);  // participants in index order
  std::vector<std::string> rank_ids;
  std::vector<double> times;
  for (auto p : processors) {
    auto index = view.find(graph.id(p));
    rank_ids.push_back(graph.id(p));
    times.push_back(view.transmission_time(*index));
  }
  return Cluster(std::move(rank_ids), std::move(times), platform.source_name);
}

Runtime::Runtime(MPI_Comm comm, const std::string& platform_path, const RankMapping& mapping,
                 const RuntimeOptions& options, const PlanningOptions& planning)
    : Runtime(comm, [&platform_path] { return load_platform_file(platform_path); }, mapping, options, planning) {}

Runtime::Runtime(MPI_Comm comm, const std::function<LoadedPlatform()>& load, const RankMapping& mapping,
                 const RuntimeOptions& options, const PlanningOptions& planning)
    : communicator_(std::make_shared<PrivateCommunicator>(comm, options.timeout_seconds)),
      options_(options),
      planning_(planning) {
  std::string local_error;
  try {
    platform_ = load();
  } catch (const std::exception& error) {
    local_error = error.what();
  }
  initialise(local_error, mapping);
}

Runtime::Runtime(MPI_Comm comm, LoadedPlatform platform, const RankMapping& mapping, const RuntimeOptions& options,
                 const PlanningOptions& planning)
    : communicator_(std::make_shared<PrivateCommunicator>(comm, options.timeout_seconds)),
      platform_(std::move(platform)),
      options_(options),
      planning_(planning) {
  initialise("", mapping);
}

void Runtime::initialise(const std::string& read_error, const RankMapping& mapping) {
  MPI_Comm comm = communicator_->get();
  auto names = gather_processor_names(comm, options_.timeout_seconds);
  std::string local_error = read_error;
  if (local_error.empty()) {
    try {
      // Ranks play hosts only (rank_mapping.h): never a router or a link.
      processor_of_rank_ = mapping.resolve_on_platform(platform_, communicator_->size(), names, platform_.source_name);
      if (!platform_.is_cluster()) size_dependent_ = !platform_.graph().has_fixed_costs();
      // Planning for the communicator must work before any call relies on it.
      (void)rank_cluster(8);
    } catch (const std::exception& error) {
      local_error = error.what();
    }
  }
  agree_on_outcome(comm, local_error, "hetcoll::mpi::Runtime", options_.timeout_seconds);
}

Runtime::PlanKey Runtime::plan_key(Operation operation, int root, std::size_t message_bytes, int type_size) const {
  if (!size_dependent_) return {operation, root, 0, 0};
  return {operation, root, message_bytes, type_size};
}

Cluster Runtime::rank_cluster(double message_bytes) const {
  return restrict_to_processors(platform_, processor_of_rank_, message_bytes);
}

const ExecutablePlan& Runtime::plan_for(Operation operation, int root, std::size_t message_bytes, int type_size) {
  const PlanKey key = plan_key(operation, root, message_bytes, type_size);
  if (auto found = plans_.find(key); found != plans_.end()) {
    plans_by_use_.splice(plans_by_use_.begin(), plans_by_use_, found->second.use);
    return *found->second.plan;
  }

  MakespanPlan plan;
  std::vector<std::string> ids;
  std::string local_error;
  try {
    const auto ranks = static_cast<int>(processor_of_rank_.size());
    for (auto p : processor_of_rank_) ids.push_back(platform_.is_cluster() ? platform_.cluster().id(p) : platform_.graph().id(p));
    if (operation != Operation::allreduce && (root < 0 || root >= ranks)) {
      throw InputError(fmt::format("root {} is not a rank of the communicator of {} ranks", root, ranks));
    }
    const std::string& algorithm = operation == Operation::broadcast ? planning_.broadcast_algorithm
                                   : operation == Operation::reduce  ? planning_.reduce_algorithm
                                                                     : planning_.allreduce_algorithm;
    plan = plan_for_ranks(platform_, processor_of_rank_, operation, root,
                          static_cast<double>(message_bytes) + planning_.envelope_bytes, algorithm, planning_.model);
  } catch (const std::exception& error) {
    local_error = error.what();
  }
  agree_on_outcome(communicator_->get(), local_error, fmt::format("hetcoll::mpi: planning the {}", to_string(operation)),
                   options_.timeout_seconds);
  auto prepared = std::make_unique<ExecutablePlan>(ExecutablePlan::prepare(
      communicator_, plan, ids, RankMapping::by_order(), options_, platform_.source_name));
  // Every rank makes the same calls, so every rank evicts the same plan.
  if (plans_.size() >= kPlanCacheEntries) {
    plans_.erase(plans_by_use_.back());
    plans_by_use_.pop_back();
  }
  plans_by_use_.push_front(key);
  auto& entry = plans_[key];
  entry.plan = std::move(prepared);
  entry.use = plans_by_use_.begin();
  return *entry.plan;
}

NicNetwork Runtime::rank_nic_network() const {
  // t_u(S) = L_u + S / U_u, read at 1 byte and 1 + 65536 bytes.
  const double probe = 65536;
  const auto small = rank_cluster(1.0).transmission_times();
  const auto large = rank_cluster(1.0 + probe).transmission_times();
  std::vector<double> at_zero(small.size());
  for (std::size_t u = 0; u < small.size(); ++u) at_zero[u] = small[u] - (large[u] - small[u]) / probe;
  return nic_network_from_times(at_zero, large, 1.0 + probe, planning_.envelope_bytes);
}

const ExecutableSplitReduce* Runtime::split_reduce_for(int root, int count, int type_size) {
  if (!planning_.split_reduces || !size_dependent_ || count <= 0 || type_size <= 0) return nullptr;
  SplitReducePlan plan;
  return decide_split<ExecutableSplitReduce>(
      split_reduces_, std::make_tuple(root, count, type_size), communicator_->get(), options_.timeout_seconds,
      "hetcoll::mpi: planning the split reduce",
      [&] {
        check_root(root, processor_of_rank_.size());
        plan = plan_split_reduce(rank_nic_network(), root, static_cast<std::size_t>(count), type_size);
        const double bytes = static_cast<double>(count) * type_size;
        const auto whole = plan_for_ranks(platform_, processor_of_rank_, Operation::reduce, root,
                                          bytes + planning_.envelope_bytes, planning_.reduce_algorithm, planning_.model);
        return plan.predicted_seconds < whole.makespan;
      },
      [&] {
        return std::make_unique<ExecutableSplitReduce>(
            ExecutableSplitReduce::prepare(communicator_->get(), std::move(plan), options_));
      });
}

int Runtime::reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root) {
  int type_size = 0;
  MPI_Type_size(datatype, &type_size);
  int commutative = 0;
  MPI_Op_commutative(op, &commutative);
  if (const auto* split = commutative ? split_reduce_for(root, count, type_size) : nullptr) {
    return mpi::reduce(sendbuf, recvbuf, count, datatype, op, root, split->user_comm(), *split);
  }
  const auto& plan =
      plan_for(Operation::reduce, root, static_cast<size_t>(count) * static_cast<size_t>(type_size), type_size);
  return mpi::reduce(sendbuf, recvbuf, count, datatype, op, root, communicator_->user(), plan);
}

const ExecutableSplitBroadcast* Runtime::split_for(int root, int count, int type_size) {
  if (!planning_.split_broadcasts || planning_.model != PlanModel::eager || platform_.is_cluster() || count <= 0 ||
      type_size <= 0) {
    return nullptr;
  }
  SplitBroadcastPlan plan;
  return decide_split<ExecutableSplitBroadcast>(
      splits_, std::make_tuple(root, count, type_size), communicator_->get(), options_.timeout_seconds,
      "hetcoll::mpi: planning the split broadcast",
      [&] {
        check_root(root, processor_of_rank_.size());
        const double bytes = static_cast<double>(count) * type_size;
        plan = plan_split_broadcast(SplitCosts::of(platform_.graph(), processor_of_rank_),
                                    static_cast<std::size_t>(root), static_cast<std::size_t>(count), type_size,
                                    planning_.envelope_bytes);
        const auto whole = plan_for_ranks(platform_, processor_of_rank_, Operation::broadcast, root,
                                          bytes + planning_.envelope_bytes, planning_.broadcast_algorithm,
                                          PlanModel::eager);
        return plan.makespan < whole.makespan;
      },
      [&] {
        std::vector<std::string> ids;
        for (auto p : processor_of_rank_) ids.push_back(platform_.graph().id(p));
        return std::make_unique<ExecutableSplitBroadcast>(ExecutableSplitBroadcast::prepare(
            communicator_, plan, ids, RankMapping::by_order(), options_, platform_.source_name));
      });
}

int Runtime::bcast(void* buffer, int count, MPI_Datatype datatype, int root) {
  int type_size = 0;
  MPI_Type_size(datatype, &type_size);
  if (const auto* split = split_for(root, count, type_size)) {
    return mpi::bcast(buffer, count, datatype, root, communicator_->user(), *split);
  }
  const auto& plan =
      plan_for(Operation::broadcast, root, static_cast<size_t>(count) * static_cast<size_t>(type_size), type_size);
  return mpi::bcast(buffer, count, datatype, root, communicator_->user(), plan);
}

int Runtime::allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  int type_size = 0;
  MPI_Type_size(datatype, &type_size);
  const auto& plan =
      plan_for(Operation::allreduce, -1, static_cast<size_t>(count) * static_cast<size_t>(type_size), type_size);
  return mpi::allreduce(sendbuf, recvbuf, count, datatype, op, communicator_->user(), plan);
}

}  // namespace hetcoll::mpi
