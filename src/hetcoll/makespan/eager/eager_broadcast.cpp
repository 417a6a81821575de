// The candidate trees in detail (eager_broadcast.h states the contract):
//
//      - flat;
//      - the shortest-path tree (Dijkstra over delay + occupancy);
//      - the greedy earliest-arrival tree: repeatedly the pair (informed u,
//        waiting v) whose message would arrive first if appended to u's
//        sends (the postal model's optimal rule, Bar-Noy and Kipnis 1994
//        sec. 3; up to kEagerGreedyMembers participants);
//      - k-ary trees over the forwarding order (the participants by their
//        arrival time from the source alone, d + o): the source sends to the
//        first k0, then each participant in order takes the next k, for
//        every pair (k0, k) up to kEagerFullSearchMembers participants,
//        else k0, k in 1..32 and the powers of two.
//
// The lower bound in detail (eager_broadcast.h states the contract):
//
//    (a) the farthest participant's eager distance from the source: a chain
//        of transfers s -> ... -> v takes at least the sum of its pairs'
//        delay + occupancy (Dijkstra over the participant pairs);
//    (b) the postal-model optimum for the participants with the smallest
//        occupancy o and the smallest delay d of any pair: every eager
//        schedule is at least as slow as the same tree with every cost
//        lowered to (o, d), and the postal greedy is optimal there
//        (Bar-Noy and Kipnis 1994, Theorem 1 / sec. 3: informed nodes keep
//        sending, earliest arrival first).

#include "hetcoll/makespan/eager/eager_broadcast.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <numeric>
#include <queue>
#include <utility>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/graph/graph_planner.h"

namespace hetcoll {

std::optional<EagerHeuristic> eager_heuristic_from_string(std::string_view name) {
  if (name == "auto") return EagerHeuristic::automatic;
  if (name == "flat") return EagerHeuristic::flat;
  if (name == "binomial") return EagerHeuristic::binomial;
  if (name == "4-nomial") return EagerHeuristic::knomial4;
  return std::nullopt;
}

const char* to_string(EagerHeuristic heuristic) {
  switch (heuristic) {
    case EagerHeuristic::automatic: return "auto";
    case EagerHeuristic::flat: return "flat";
    case EagerHeuristic::binomial: return "binomial";
    case EagerHeuristic::knomial4: return "4-nomial";
  }
  return "?";
}

std::string eager_heuristic_names() { return "auto, flat, binomial, 4-nomial"; }

namespace {

constexpr std::size_t npos = EagerTree::npos;

// Members in breadth-first order from the source (parents before children).
std::vector<std::size_t> breadth_first(std::size_t source, const std::vector<std::vector<std::size_t>>& children) {
  std::vector<std::size_t> order{source};
  order.reserve(children.size());
  for (std::size_t at = 0; at < order.size(); ++at) {
    for (auto child : children[order[at]]) order.push_back(child);
  }
  return order;
}

// Dijkstra over the members, each pair weighing delay + occupancy: the
// earliest any chain of transfers can bring the message to each member.
// O(k²) with an array (the member graph is dense). Ties: the lower index.
std::pair<std::vector<double>, std::vector<std::size_t>> eager_distances(const EagerMatrix& matrix,
                                                                         std::size_t source) {
  const std::size_t k = matrix.size();
  std::vector<double> distance(k, kNoRoute);
  std::vector<std::size_t> parent(k, npos);
  std::vector<char> settled(k, 0);
  distance[source] = 0;
  for (std::size_t round = 0; round < k; ++round) {
    std::size_t u = npos;
    for (std::size_t v = 0; v < k; ++v) {
      if (!settled[v] && distance[v] < kNoRoute && (u == npos || distance[v] < distance[u])) u = v;
    }
    if (u == npos) break;
    settled[u] = 1;
    for (std::size_t v = 0; v < k; ++v) {
      if (settled[v] || !matrix.cost(u, v).connected()) continue;
      const double through = distance[u] + matrix.cost(u, v).time();
      if (through < distance[v]) {
        distance[v] = through;
        parent[v] = u;
      }
    }
  }
  return {std::move(distance), std::move(parent)};
}

// The greedy earliest-arrival tree: each informed member u keeps its
// candidate receivers sorted by delay + occupancy; the pair whose message
// would arrive first, appended to u's sends, is placed next. O(k² log k).
std::vector<std::size_t> greedy_parents(const EagerMatrix& matrix, std::size_t source) {
  const std::size_t k = matrix.size();
  std::vector<std::vector<std::uint32_t>> candidates(k);
  std::vector<std::size_t> next(k, 0);
  std::vector<double> arrival(k, kNoRoute), occupied(k, 0.0);
  std::vector<std::size_t> parent(k, npos);
  std::vector<char> informed(k, 0);
  auto sorted_candidates = [&](std::size_t u) {
    auto& list = candidates[u];
    for (std::size_t v = 0; v < k; ++v) {
      if (v != u && v != source && matrix.cost(u, v).connected()) list.push_back(static_cast<std::uint32_t>(v));
    }
    std::stable_sort(list.begin(), list.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return matrix.cost(u, a).time() < matrix.cost(u, b).time(); });
  };
  using Entry = std::pair<double, std::size_t>;  // (arrival of u's next send, u); ties: lower u
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  auto push_next = [&](std::size_t u) {
    auto& list = candidates[u];
    while (next[u] < list.size() && informed[list[next[u]]]) ++next[u];
    if (next[u] == list.size()) {
      std::vector<std::uint32_t>().swap(list);
      return;
    }
    const auto& cost = matrix.cost(u, list[next[u]]);
    heap.emplace(arrival[u] + cost.delay + occupied[u] + cost.occupancy, u);
  };
  informed[source] = 1;
  arrival[source] = 0;
  sorted_candidates(source);
  push_next(source);
  std::size_t waiting = k - 1;
  while (waiting > 0 && !heap.empty()) {
    auto [key, u] = heap.top();
    heap.pop();
    const std::size_t v = candidates[u][next[u]];
    if (informed[v]) {  // someone else reached it first: u's next candidate
      push_next(u);
      continue;
    }
    informed[v] = 1;
    --waiting;
    parent[v] = u;
    arrival[v] = key;
    occupied[u] += matrix.cost(u, v).occupancy;
    ++next[u];
    push_next(u);
    sorted_candidates(v);
    push_next(v);
  }
  return parent;
}

// The tree in which the source sends to order[0..k0) and order[k0 + k·i ..
// k0 + k·(i+1)) are the children of order[i]; empty when a pair it uses has
// no route.
std::vector<std::size_t> kary_parents(const EagerMatrix& matrix, std::size_t source,
                                      const std::vector<std::size_t>& order, std::size_t k0, std::size_t k) {
  std::vector<std::size_t> parent(matrix.size(), npos);
  for (std::size_t p = 0; p < order.size(); ++p) {
    const std::size_t from = p < k0 ? source : order[(p - k0) / k];
    if (!matrix.cost(from, order[p]).connected()) return {};
    parent[order[p]] = from;
  }
  return parent;
}

// MPI's k-nomial tree over k members in index order, the source at relative
// rank 0 (eager_broadcast.h).
std::vector<std::size_t> knomial_parents(std::size_t members, std::size_t source, std::size_t radix) {
  std::vector<std::size_t> parent(members, npos);
  for (std::size_t relative = 1; relative < members; ++relative) {
    std::size_t level = 1;
    while (relative % (radix * level) == 0) level *= radix;
    const std::size_t from = relative - relative % (radix * level);
    parent[(relative + source) % members] = (from + source) % members;
  }
  return parent;
}

std::size_t depth_of(const EagerTree& tree) {
  std::vector<std::size_t> depth(tree.parent.size(), 0);
  std::size_t deepest = 0;
  for (auto v : breadth_first(tree.source, tree.children)) {
    if (v != tree.source) depth[v] = depth[tree.parent[v]] + 1;
    deepest = std::max(deepest, depth[v]);
  }
  return deepest;
}

}  // namespace

EagerTree time_eager_tree(const EagerMatrix& matrix, std::size_t source, std::vector<std::size_t> parent) {
  const std::size_t k = matrix.size();
  EagerTree tree;
  tree.source = source;
  tree.parent = std::move(parent);
  tree.children.assign(k, {});
  for (std::size_t v = 0; v < k; ++v) {
    if (v != source && tree.parent[v] != npos) tree.children[tree.parent[v]].push_back(v);
  }
  const std::vector<std::size_t> order = breadth_first(source, tree.children);
  // Bottom-up: the time each subtree takes once its root holds the message,
  // with its children in Jackson's order (by decreasing delay + subtree time).
  std::vector<double> subtree(k, 0.0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const std::size_t u = *it;
    auto& kids = tree.children[u];
    if (kids.empty()) continue;
    std::stable_sort(kids.begin(), kids.end(), [&](std::size_t a, std::size_t b) {
      return matrix.cost(u, a).delay + subtree[a] > matrix.cost(u, b).delay + subtree[b];
    });
    double occupied = 0, longest = 0;
    for (auto child : kids) {
      occupied += matrix.cost(u, child).occupancy;
      longest = std::max(longest, matrix.cost(u, child).delay + occupied + subtree[child]);
    }
    subtree[u] = longest;
  }
  // Top-down: the arrival times.
  tree.arrival.assign(k, kNoRoute);
  tree.arrival[source] = 0;
  tree.makespan = 0;
  for (auto u : order) {
    double occupied = 0;
    for (auto child : tree.children[u]) {
      const auto& cost = matrix.cost(u, child);
      occupied += cost.occupancy;
      tree.arrival[child] = tree.arrival[u] + (cost.delay + occupied);
      tree.makespan = std::max(tree.makespan, tree.arrival[child]);
    }
  }
  return tree;
}

double postal_broadcast_time(std::size_t n, double occupancy, double delay) {
  if (n <= 1) return 0;
  // Every informed node keeps sending: its next message arrives `occupancy`
  // after its previous one, a new node's first one delay + occupancy after
  // it got the message. The (n-1)-th earliest arrival is the optimum.
  std::priority_queue<double, std::vector<double>, std::greater<>> arrivals;
  arrivals.push(delay + occupancy);
  double last = 0;
  for (std::size_t informed = 1; informed < n; ++informed) {
    last = arrivals.top();
    arrivals.pop();
    arrivals.push(last + occupancy);
    arrivals.push(last + delay + occupancy);
  }
  return last;
}

double eager_broadcast_lower_bound(const EagerMatrix& matrix, std::size_t source) {
  if (matrix.size() <= 1) return 0;
  const auto [distance, parent] = eager_distances(matrix, source);
  double farthest = 0;
  for (double d : distance) farthest = std::max(farthest, d);
  return std::max(farthest,
                  postal_broadcast_time(matrix.size(), matrix.smallest_occupancy(), matrix.smallest_delay()));
}

EagerSearch best_eager_tree(const EagerMatrix& matrix, std::size_t source_member, EagerHeuristic heuristic) {
  const std::size_t k = matrix.size();
  std::vector<std::size_t> flat(k, source_member);
  flat[source_member] = npos;
  EagerSearch best;
  if (heuristic == EagerHeuristic::binomial || heuristic == EagerHeuristic::knomial4) {
    best.fan_out = heuristic == EagerHeuristic::binomial ? 2 : 4;
    best.tree = time_eager_tree(matrix, source_member, knomial_parents(k, source_member, best.fan_out));
    best.shape = EagerTreeShape::knomial;
    return best;
  }
  best.tree = time_eager_tree(matrix, source_member, flat);
  best.shape = EagerTreeShape::flat;
  if (heuristic == EagerHeuristic::automatic && k > 2) {
    auto consider = [&](std::vector<std::size_t> parent, EagerTreeShape shape, std::size_t k0, std::size_t fan_out) {
      if (parent.empty()) return;
      ++best.candidates;
      EagerTree tree = time_eager_tree(matrix, source_member, std::move(parent));
      if (tree.makespan < best.tree.makespan - kRelativeTimeTolerance * best.tree.makespan) {
        best.tree = std::move(tree);
        best.shape = shape;
        best.k0 = k0;
        best.fan_out = fan_out;
      }
    };
    consider(eager_distances(matrix, source_member).second, EagerTreeShape::shortest_path, 0, 0);
    if (k <= kEagerGreedyMembers) consider(greedy_parents(matrix, source_member), EagerTreeShape::greedy, 0, 0);
    // The forwarding order: by arrival from the source alone.
    std::vector<std::size_t> order;
    for (std::size_t v = 0; v < k; ++v) {
      if (v != source_member) order.push_back(v);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return matrix.cost(source_member, a).time() < matrix.cost(source_member, b).time();
    });
    const std::size_t receivers = k - 1;
    std::vector<std::size_t> fan_outs;
    if (k <= kEagerFullSearchMembers) {
      for (std::size_t f = 1; f <= receivers; ++f) fan_outs.push_back(f);
    } else {
      for (std::size_t f = 1; f <= 32; ++f) fan_outs.push_back(f);
      for (std::size_t f = 64; f < receivers; f *= 2) fan_outs.push_back(f);
      fan_outs.push_back(receivers);
    }
    for (auto k0 : fan_outs) {
      if (k0 >= receivers) continue;  // the flat tree
      for (auto fan_out : fan_outs) {
        consider(kary_parents(matrix, source_member, order, k0, fan_out), EagerTreeShape::kary, k0, fan_out);
        if (fan_out >= receivers - k0) break;  // larger fan-outs give the same tree
      }
    }
  }
  return best;
}

std::size_t eager_tree_depth(const EagerTree& tree) { return depth_of(tree); }

void claim_eager_bound(MakespanPlan& plan, double lower_bound, std::string proof) {
  plan.lower_bound = lower_bound;
  if (plan.makespan - plan.lower_bound <= kRelativeTimeTolerance * plan.makespan) {
    plan.optimal = true;
    plan.lower_bound = plan.makespan;
    plan.optimality_proof = std::move(proof);
  }
}

MakespanPlan eager_plan_header(const GraphNetwork& network, Operation operation, EagerHeuristic heuristic,
                               ProcessorIndex root) {
  MakespanPlan plan;
  plan.operation = operation;
  plan.algorithm = std::string("eager-") + to_string(heuristic);
  plan.model = PlanModel::eager;
  plan.message_size = network.message_size();
  plan.root = root;
  plan.guarantee = Guarantee::none();
  plan.guarantee.text = "none (heuristic); optimal when the makespan meets the lower bound";
  return plan;
}

MakespanPlan plan_eager_broadcast(const GraphNetwork& network, ProcessorIndex source, EagerHeuristic heuristic) {
  const auto started = std::chrono::steady_clock::now();
  MakespanRequest request;
  request.operation = Operation::broadcast;
  request.root = source;
  source = graph_request_root(network, request);
  const std::vector<ProcessorIndex>& participants = network.participants();
  require_reachable(network, source, participants, false);
  const EagerMatrix matrix(network, participants);
  const std::size_t k = matrix.size();
  const auto source_member =
      static_cast<std::size_t>(std::lower_bound(participants.begin(), participants.end(), source) - participants.begin());

  const EagerSearch search = best_eager_tree(matrix, source_member, heuristic);
  const EagerTree& best = search.tree;
  const std::uint64_t candidates = search.candidates;
  std::string shape;
  switch (search.shape) {
    case EagerTreeShape::flat:
      shape = fmt::format("flat tree (the source sends to all {} others)", k - 1);
      break;
    case EagerTreeShape::shortest_path:
      shape = fmt::format("shortest-path tree (depth {})", depth_of(best));
      break;
    case EagerTreeShape::greedy:
      shape = fmt::format("greedy earliest-arrival tree (depth {}, the source sends to {})", depth_of(best),
                          best.children[source_member].size());
      break;
    case EagerTreeShape::kary:
      shape = fmt::format("{}-ary tree over the forwarding order (members by arrival from the source), the source "
                          "sending to {}",
                          search.fan_out, search.k0);
      break;
    case EagerTreeShape::knomial:
      shape = fmt::format("{}-nomial tree over the participants in index order (depth {})", search.fan_out,
                          depth_of(best));
      break;
  }

  MakespanPlan plan = eager_plan_header(network, Operation::broadcast, heuristic, source);
  // Each sender's sends, in send order, senders by the time they start.
  RouteFinder finder = network.route_finder();
  std::vector<ProcessorIndex> receivers;
  for (auto u : breadth_first(source_member, best.children)) {
    const auto& kids = best.children[u];
    if (kids.empty()) continue;
    receivers.clear();
    for (auto child : kids) receivers.push_back(matrix.member(child));
    auto routes = finder.routes_from(matrix.member(u), receivers);
    double occupied = 0;  // by u's earlier sends
    for (std::size_t j = 0; j < kids.size(); ++j) {
      Transfer transfer;
      transfer.from = matrix.member(u);
      transfer.to = matrix.member(kids[j]);
      // A send starts once u's earlier ones have left its link, and lasts
      // its route's time: it arrives after delay + the occupancies so far.
      transfer.start = best.arrival[u] + occupied;
      transfer.end = best.arrival[kids[j]];
      occupied += matrix.cost(u, kids[j]).occupancy;
      transfer.payload = Payload::broadcast_value;
      transfer.route = std::move(*routes[j]);
      plan.transfers.push_back(std::move(transfer));
    }
  }
  std::stable_sort(plan.transfers.begin(), plan.transfers.end(),
                   [](const Transfer& a, const Transfer& b) { return a.start < b.start; });
  plan.makespan = best.makespan;
  claim_eager_bound(plan, eager_broadcast_lower_bound(matrix, source_member),
                    "the makespan meets the eager model's lower bound (farthest participant's chain, or the "
                    "postal-model optimum with the smallest occupancy and delay)");
  plan.notes.push_back(fmt::format("eager model: {}{}", shape,
                                   candidates > 1 ? fmt::format("; the best of {} candidate trees", candidates) : ""));
  plan.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return plan;
}

}  // namespace hetcoll
