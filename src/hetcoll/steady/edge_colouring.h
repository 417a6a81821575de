// Weighted bipartite edge colouring: the one-port schedule of a period.
//
// Problem: a bipartite multigraph (left = senders, right = receivers) with a
// positive weight w(e) per edge — the time edge e is busy in one period.
// Find matchings M_1..M_k and lengths l_1..l_k > 0 with
//     sum over m of l_m [e in M_m] = w(e)   for every edge e,
//     sum over m of l_m = Delta = the largest weighted degree.
// Each matching is a slot in which every node sends at most once and
// receives at most once; no schedule can be shorter than Delta, so this one
// is optimal (König's edge-colouring theorem, weighted form: Schrijver,
// Combinatorial Optimization, ch. 20; used by Legrand, Marchal, Robert 2003
// sec. 3.3, Figs. 3-4).
//
// Algorithm (exact, integers): regularise — pad the smaller side with
// dummy vertices and join deficient vertices by dummy edges (at most
// L' + R' - 1 of them, north-west-corner rule), so that every vertex has
// weighted degree exactly Delta — then repeat: take a perfect matching of
// the edges with positive remaining weight (one exists in a regular
// bipartite multigraph: Hall), give it the length of its lightest edge,
// subtract. Each round zeroes at least one edge, so the number of rounds is
// at most |E| + |dummy edges| - N + 1 <= |E| + N, where N is the number of
// vertices on a side; after the first matching (Hopcroft-Karp), each round
// only repairs the matching along augmenting paths from the vertices whose
// edge was used up. Matchings with the same real edges are merged, and the
// dummy time of a round is idle time (returned as `idle`). Never enumerates
// time steps: the weights may be huge integers (periods of 10^30 are fine).
// Complexity: O((|E| + N) * |E|) integer operations; space O(|E|).
// Tie rule (deterministic): edges are scanned in input order.
#pragma once

#include <vector>

#include "hetcoll/core/rational.h"

namespace hetcoll {

struct ColouringEdge {
  int left = 0;
  int right = 0;
  BigInteger weight;  // > 0
};

struct WeightedMatching {
  BigInteger length;
  std::vector<int> edges;  // indices into the input, in increasing order
};

struct EdgeColouring {
  BigInteger max_degree;                  // Delta; sum of lengths + idle = Delta
  std::vector<WeightedMatching> matchings;  // non-empty matchings
  BigInteger idle;                         // time no real edge is in use
};

// Throws std::invalid_argument for a non-positive weight or an endpoint out
// of range.
EdgeColouring weighted_edge_colouring(int left_count, int right_count, const std::vector<ColouringEdge>& edges);

// The same with rational weights (scaled by the lcm of their denominators).
struct RationalColouringEdge {
  int left = 0;
  int right = 0;
  Rational weight;  // > 0
};

struct RationalMatching {
  Rational length;
  std::vector<int> edges;
};

struct RationalEdgeColouring {
  Rational max_degree;
  std::vector<RationalMatching> matchings;
  Rational idle;
};

RationalEdgeColouring weighted_edge_colouring(int left_count, int right_count,
                                              const std::vector<RationalColouringEdge>& edges);

}  // namespace hetcoll
