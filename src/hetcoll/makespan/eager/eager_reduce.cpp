#include "hetcoll/makespan/eager/eager_reduce.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "hetcoll/makespan/graph/graph_planner.h"

namespace hetcoll {

MakespanPlan plan_eager_reduce(const GraphNetwork& network, ProcessorIndex root, EagerHeuristic heuristic) {
  const auto started = std::chrono::steady_clock::now();
  MakespanRequest request;
  request.operation = Operation::reduce;
  request.root = root;
  root = graph_request_root(network, request);
  const std::vector<ProcessorIndex>& participants = network.participants();
  require_reachable(network, root, participants, /*towards_source=*/true);
  // c'(u, v) = c(v, u): the broadcast from the root on c' is the reduce on c
  // run backwards in time (eager_reduce.h).
  const EagerMatrix transposed = EagerMatrix(network, participants).transposed();
  const std::size_t k = transposed.size();
  const auto root_member =
      static_cast<std::size_t>(std::lower_bound(participants.begin(), participants.end(), root) - participants.begin());
  const EagerSearch search = best_eager_tree(transposed, root_member, heuristic);
  const EagerTree& tree = search.tree;
  const double horizon = tree.makespan;

  std::string shape;
  switch (search.shape) {
    case EagerTreeShape::flat:
      shape = fmt::format("flat tree (all {} others send to the root)", k - 1);
      break;
    case EagerTreeShape::shortest_path:
      shape = fmt::format("shortest-path tree to the root (depth {})", eager_tree_depth(tree));
      break;
    case EagerTreeShape::greedy:
      shape = fmt::format("reversed greedy earliest-arrival tree (depth {}, the root receives from {})",
                          eager_tree_depth(tree), tree.children[root_member].size());
      break;
    case EagerTreeShape::kary:
      shape = fmt::format("{}-ary tree over the members by their time to the root, the root receiving from {}",
                          search.fan_out, search.k0);
      break;
  }

  MakespanPlan plan = eager_plan_header(network, Operation::reduce, heuristic, root);
  // The broadcast's transfer u -> v (start s, arrival a) reversed: v -> u
  // from T - a to T - s, along the platform's route v -> u.
  RouteFinder finder = network.route_finder();
  for (std::size_t u = 0; u < k; ++u) {
    const auto& kids = tree.children[u];
    double occupied = 0;  // u's earlier broadcast sends: its later receives
    for (auto child : kids) {
      Transfer transfer;
      transfer.from = transposed.member(child);
      transfer.to = transposed.member(u);
      transfer.start = horizon - tree.arrival[child];
      transfer.end = horizon - (tree.arrival[u] + occupied);
      occupied += transposed.cost(u, child).occupancy;
      transfer.payload = Payload::partial_reduction;
      auto routes = finder.routes_from(transfer.from, std::vector<ProcessorIndex>{transfer.to});
      transfer.route = std::move(*routes[0]);
      plan.transfers.push_back(std::move(transfer));
    }
  }
  std::stable_sort(plan.transfers.begin(), plan.transfers.end(),
                   [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
  plan.makespan = horizon;
  claim_eager_bound(plan, eager_broadcast_lower_bound(transposed, root_member),
                    "the makespan meets the eager model's lower bound (time reversal of the broadcast on the "
                    "transposed costs: the farthest participant's chain to the root, or the postal-model optimum "
                    "with the smallest occupancy and delay)");
  plan.notes.push_back(fmt::format("eager model: {}{}", shape,
                                   search.candidates > 1
                                       ? fmt::format("; the best of {} candidate trees", search.candidates)
                                       : ""));
  plan.notes.push_back("eager reduce: the time reversal of the eager broadcast from the root on the transposed costs");
  plan.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return plan;
}

}  // namespace hetcoll
