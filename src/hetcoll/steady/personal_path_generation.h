// The by-source scatter/gossip LP (personal_lp.h) solved by routing
// generation: the same exact optimum, flows and certificate without
// building its |S| x |E| columns.
//
// Master (a Dantzig-Wolfe restriction of the by-source LP): maximise TP
// subject to TP <= sum_j lambda_{s,j} for every source s, and the one-port
// rows, where a column lambda_{s,j} is a routing of source s — one path
// from s to each of its targets (a shortest-path tree), loading edge e with
// the number of targets whose path uses it. Pricing: with the master's port
// duals u (send), w (receive) and source duals sigma_s, an edge costs
// l(e) = c(e) (u_tail + w_head) and the cheapest routing of s is its
// shortest-path tree, of cost sum over targets of dist_l(s, t); it improves
// the master when that is below sigma_s. Rounds price in doubles (Dijkstra
// from every source) and re-solve with Clp from its basis (lp::
// solve_with_pricing); the final master is solved exactly, then priced
// exactly: distances in integers over the common denominator of the l(e)
// (Dijkstra's tree, then label-correcting until no edge relaxes). When no
// routing prices out, the by-source LP's dual is: the master's port duals,
// and the conservation dual of (v, s) = -dist_l(s, v) (unreachable nodes:
// minus the largest distance). It is feasible (every reduced cost is
// l(e) + dist(s, tail) - dist(s, head) >= 0, and the TP column's
// sum of distances >= sum sigma_s >= 1) and its bound equals the master's
// TP, so TP is the by-source optimum (Legrand, Marchal, Robert 2003's
// SSSP/SSPA2A; Dantzig, Wolfe 1960 for the decomposition). The flows: each
// source's routings times their weights, scaled to deliver exactly TP.
//
// Guarantee: exact (the certificate is the by-source LP's, verify/ checks
// it independently). Returns nullopt when the master is not certified or
// the exact rounds do not settle (the caller then solves the full LP).
// Complexity per round: |S| Dijkstras, O(|S| (|E| + N log N)), and a Clp
// re-solve of a master with |S| + 2N rows.
#pragma once

#include <optional>

#include "hetcoll/steady/personal_lp.h"

namespace hetcoll {

std::optional<PersonalLpResult> solve_personal_by_path_generation(const SteadyPlatform& platform,
                                                                  const PersonalProblem& problem);

}  // namespace hetcoll
