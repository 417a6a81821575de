// Broadcast planning in the eager model (model/eager_model.h): every node
// that holds the message sends it to all its children without waiting for
// them, its link carrying the messages one after the other while their
// latencies overlap; child j of u (in send order) holds it at t(u) +
// delay(u, v_j) + the occupancies of u's first j sends.
//
// Problem: a tree over the participants, rooted at the source, and a send
// order for each node's children, minimising the time the last participant
// holds the message (the makespan).
//
// Heuristics:
//  * "flat": the source sends to every other participant.
//  * "auto": the best, by its eager-model makespan, of these candidate trees:
//    flat, the shortest-path tree, the greedy earliest-arrival tree (the
//    postal model's optimal rule) and k-ary trees over the forwarding order
//    (eager_broadcast.cpp: each candidate and its limits).
//    Every candidate's children are sent in the order that is optimal for
//    its tree: Jackson's rule (Jackson 1955, one machine, delivery times):
//    by decreasing delay(u, v) + the time v's subtree then takes, computed
//    bottom-up. Ties: the lower participant index first; candidates in the
//    order above, the first of equal makespans kept.
//  * "binomial", "4-nomial": MPI's k-nomial trees (k = 2, 4; MPICH's and
//    MVAPICH2's knomial broadcasts): the participants in index order, the
//    source at relative rank 0; relative rank r receives from r with its
//    lowest nonzero base-k digit cleared; children in Jackson's order.
// Lower bound: the larger of
//    (a) the farthest participant's eager distance from the source and
//    (b) the postal-model optimum with every cost lowered to the smallest
//    occupancy and delay of any pair (eager_broadcast.cpp: why both hold).
// Guarantee: none (heuristic); `optimal: true` only when the makespan meets
// the lower bound (e.g. a homogeneous complete graph, where the greedy tree
// is the postal optimum and the bound (b) equals it).
// Complexity, k participants: O(k · route search) for the eager matrix
// (O(k²) space), O(k²) per candidate for Dijkstra and the greedy
// (O(k² log k) to sort the greedy's candidate lists), O(k log k) per k-ary
// tree: O(k³ log k) for k <= 64, else about 1,600 trees; the bound
// O(k² + k log k). Refused above kEagerMemberCap participants.
// References: Bar-Noy, Kipnis, "Designing broadcasting algorithms in the
// postal model for message-passing systems", 1994; Jackson, "Scheduling a
// production line to minimize maximum tardiness", 1955 (the send order).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/model/eager_model.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

enum class EagerHeuristic { automatic, flat, binomial, knomial4 };

// "auto" / "flat" / "binomial" / "4-nomial"; nullopt otherwise.
std::optional<EagerHeuristic> eager_heuristic_from_string(std::string_view name);
const char* to_string(EagerHeuristic heuristic);
// The names, for messages and --help: "auto, flat, binomial, 4-nomial".
std::string eager_heuristic_names();

inline constexpr std::size_t kEagerFullSearchMembers = 64;
inline constexpr std::size_t kEagerGreedyMembers = 1024;

// An eager broadcast tree over the members of an EagerMatrix: parent[i] (a
// member index; npos for the source) and each member's children in send
// order. makespan and arrival are the eager model's times.
struct EagerTree {
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
  std::size_t source = 0;
  std::vector<std::size_t> parent;
  std::vector<std::vector<std::size_t>> children;
  std::vector<double> arrival;
  double makespan = 0;
};

// Orders every node's children by Jackson's rule (optimal for the tree) and
// times the tree. `parent` must describe a tree rooted at `source` over the
// matrix's members whose pairs are connected. O(k log k).
EagerTree time_eager_tree(const EagerMatrix& matrix, std::size_t source, std::vector<std::size_t> parent);

// Which candidate a search kept (for the plan's note).
enum class EagerTreeShape { flat, shortest_path, greedy, kary, knomial };

struct EagerSearch {
  EagerTree tree;
  EagerTreeShape shape = EagerTreeShape::flat;
  std::size_t k0 = 0, fan_out = 0;  // kary: the source's fan-out and the others'; knomial: fan_out = k
  std::uint64_t candidates = 1;     // trees timed
};

// The heuristic's tree (the best of the candidates above, or flat) for a
// broadcast from member `source` on the matrix's costs, each node's
// children in Jackson's order. The eager reduce (eager_reduce.h) runs it on
// the transposed matrix.
EagerSearch best_eager_tree(const EagerMatrix& matrix, std::size_t source, EagerHeuristic heuristic);

// The number of transfers on the longest root-to-leaf chain of `tree`.
std::size_t eager_tree_depth(const EagerTree& tree);

// An eager plan without transfers: operation, algorithm ("eager-" + the
// heuristic), model, message size, root or source, no guarantee.
MakespanPlan eager_plan_header(const GraphNetwork& network, Operation operation, EagerHeuristic heuristic,
                               ProcessorIndex root);

// Sets the plan's lower bound; when the makespan meets it (within the
// relative time tolerance) claims `optimal`, the bound raised to the
// makespan, with `proof` as the optimality proof.
void claim_eager_bound(MakespanPlan& plan, double lower_bound, std::string proof);

// The lower bound above, for a broadcast from member `source`.
double eager_broadcast_lower_bound(const EagerMatrix& matrix, std::size_t source);

// The postal-model optimum: the time by which n nodes (the source included)
// can hold the message when every pair has occupancy o and delay d
// (0 for n <= 1). O(n log n).
double postal_broadcast_time(std::size_t n, double occupancy, double delay);

// Plans a broadcast from `source` to every participant of the network.
// The plan's model is PlanModel::eager, its algorithm "eager-auto" or
// "eager-flat", its transfers sorted by start (each starting when its
// sender's link takes it, lasting its route's time) with their routes, a
// note "eager model: <shape of the tree>". Throws InputError for a
// router as source or beyond kEagerMemberCap participants, NoSolutionError
// when a participant cannot be reached.
MakespanPlan plan_eager_broadcast(const GraphNetwork& network, ProcessorIndex source,
                                  EagerHeuristic heuristic = EagerHeuristic::automatic);

}  // namespace hetcoll
