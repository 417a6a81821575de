// Why the time reversal is exact, and when the model holds (eager_reduce.h states the contract):
//
// Why the reversal is exact (both directions map valid schedules to valid
// schedules of no larger makespan, so the optima are equal and a lower
// bound of one is a lower bound of the other):
//  * durations: v -> u lasts a - s = c'(u, v) = c(v, u), its route's time;
//  * links: u's broadcast sends occupy u's link during [s, s + o], disjoint
//    and each no earlier than u holds the message at t(u); reversed, they
//    are u's receive windows [T - s - o, T - s] = [arrival - o, arrival]:
//    disjoint;
//  * causality: u's sends start at s >= t(u), so the reversed arrivals
//    T - s <= T - t(u), which is when the reversal of u's one receive, its
//    send to its parent, starts: u sends after all of its children's
//    transfers have arrived; a node receives once <=> sends once;
//  * every reversed start T - a >= 0 since a <= T, and the root's last
//    arrival is T - (the root's first send start, 0) = T.
// Conversely a reduce schedule of makespan T reversed is a broadcast
// schedule (sends possibly idle between windows, which the broadcast model's
// back-to-back sends only improve) of makespan T - (earliest reduce start)
// <= T. So the optimal eager reduce on c takes exactly the optimal eager
// broadcast's time on c', the broadcast's lower bound on c' bounds the
// reduce on c, and `optimal: true` carries over.
// When it holds: small messages under an eager MPI protocol whose sends
// complete without their receiver, on a network that gives a node's down
// link to arriving messages one after the other once their latency has
// passed (SimGrid: the latency first, then the bandwidth share on the
// links; with each send paced to its planned start the parent's link
// receives one message after the other, and SMPI takes the model's time).
// On a link shared fairly the model is an upper bound even unpaced: a node
// waits for its last child, and sharing is work-conserving, so overlapping
// arrivals end no later (the MPI runtime does not pace reduces by default;
// docs/MPI.md).

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
    case EagerTreeShape::knomial:
      shape = fmt::format("{}-nomial tree to the root over the participants in index order (depth {})",
                          search.fan_out, eager_tree_depth(tree));
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
