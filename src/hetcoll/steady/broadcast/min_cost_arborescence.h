// Minimum-cost spanning arborescence (Chu, Liu 1965; Edmonds 1967): the
// pricing step of the multi-tree packing (multi_tree.h), which needs it in
// exact rationals, so it is written for any ordered field.
//
// Problem: nodes 0..n-1, a root r, arcs (from, to, cost); find a set of arcs
// in which every node but r has exactly one entering arc and every node is
// reached from r, of least total cost. Guarantee: exact (optimal) for any
// costs, negative ones included; the arithmetic is the Number type's, so
// with Rational the optimum is exact.
// How: every node but the root takes its cheapest entering arc; if these
// arcs form no cycle they are the answer; otherwise each cycle is contracted
// to one node, the cost of an arc entering a cycle node v is lowered by the
// cost of v's chosen arc, the contracted problem is solved recursively, and
// each cycle is opened at the node its chosen entering arc reaches.
// Time O(n m) (at most n contractions of O(m) each), space O(n + m) per
// level. Ties: the first cheapest arc in input order. Self-loops and arcs
// into the root are ignored. Returns nothing when some node cannot be
// reached from the root.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace hetcoll {

template <class Number>
struct CostedArc {
  int from = 0;
  int to = 0;
  Number cost{};
};

// Indices into `arcs` of an optimal arborescence (n - 1 of them, in no
// particular order), or nullopt when some node is unreachable from `root`.
template <class Number>
std::optional<std::vector<std::size_t>> min_cost_arborescence(int nodes, int root,
                                                              const std::vector<CostedArc<Number>>& arcs);

}  // namespace hetcoll
