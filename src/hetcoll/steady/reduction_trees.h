// Reduction-tree extraction: Legrand, Marchal, Robert 2003 sec. 4.4, Fig. 8
// (FIND_TREE / EXTRACT_TREES), Theorem 1.
//
// Input: the rates of a steady-state reduce (reduce_lp.h): sends of v[k,m]
// per edge and tasks T[k,l,m] per participant, with throughput TP.
// Output: reduction trees with rational weights summing to TP such that the
// trees' tasks, each weighted by its tree, sum exactly to the rates (after
// the circulations below are removed). A reduction tree is the schedule of
// one reduce: starting from v[0,N-1] on the root, each value v[k,m] on a
// node is either computed there by one task T[k,l,m] from v[k,l] and
// v[l+1,m] on the same node, or received over one edge from a node holding
// it; the leaves are v[r,r] on participant P_r.
//
// Method: first remove circulations of each message type (a value sent
// around a cycle of edges serves no reduce; cancel_cycles in flow_paths.h);
// the paper's FIND_TREE assumes there are none — with one it can loop
// forever. Then, while throughput is left: FIND_TREE walks from (v[0,N-1],
// root) and, for each value still needed on a node, takes the first task
// with a positive rate that produces it there (computation first, split
// point ascending; else an incoming send, in-edges in index order); the
// tree's weight is its smallest rate (the paper's w(T)); subtract. Each tree
// zeroes at least one task, so there are at most as many trees as positive
// rates (the paper's bound: 2 n^4). Conservation makes FIND_TREE always find
// a producer for a needed value (Theorem 1's invariant H); after TP is used
// up nothing is left, because every value must end in v[0,N-1] on the root
// and no type has a cycle: this is checked, not assumed (std::logic_error).
// Exact rational arithmetic throughout.
// Complexity: O(trees x N x path length) plus cycle cancelling.
#pragma once

#include <vector>

#include "hetcoll/plan/periodic_plan.h"
#include "hetcoll/steady/reduce_lp.h"

namespace hetcoll {

// Trees over the platform: TreeEdge types are MessageType::partial(k, m);
// TreeTask (node, k, l, m). Weights in operations per time unit.
std::vector<WeightedTree> extract_reduction_trees(const SteadyPlatform& platform, const ReduceProblem& problem,
                                                  const ReduceLpResult& rates);

}  // namespace hetcoll
