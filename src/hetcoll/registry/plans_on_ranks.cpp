#include "hetcoll/registry/plans_on_ranks.h"

#include <optional>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/eager/eager_broadcast.h"
#include "hetcoll/makespan/eager/eager_reduce.h"
#include "hetcoll/makespan/sender_speed/auto_select.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/model/participants.h"
#include "hetcoll/registry/graph_registry.h"
#include "hetcoll/registry/registry.h"

namespace hetcoll {

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
      ids.emplace_back(cluster.id(p));
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

NicNetwork nic_network_of_ranks(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                                double envelope_bytes) {
  const double probe = 65536;
  const auto small = restrict_to_processors(platform, processor_of_rank, 1.0).transmission_times();
  const auto large = restrict_to_processors(platform, processor_of_rank, 1.0 + probe).transmission_times();
  std::vector<double> at_zero(small.size());
  for (std::size_t u = 0; u < small.size(); ++u) at_zero[u] = small[u] - (large[u] - small[u]) / probe;
  return nic_network_from_times(at_zero, large, 1.0 + probe, envelope_bytes);
}

}  // namespace hetcoll
