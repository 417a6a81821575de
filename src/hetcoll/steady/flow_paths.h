// Exact decomposition of a single-source flow into weighted paths.
//
// Input: rates x(e) >= 0 on the edges of a platform such that, at every node
// v other than the source, inflow - outflow = demand(v) (0 at non-targets).
// Output: paths from the source, each to one target, with rational weights,
// such that for every target the weights of its paths sum to its demand and
// the paths, weighted, use each edge at most x(e) (exactly x(e) once cycles
// are removed).
//
// Method: first cancel circulations — find a directed cycle in the support
// (depth-first search), subtract its smallest rate, repeat; this only lowers
// rates, keeps every node balanced and makes the support acyclic. Then, for
// each target in order while it has demand left: take a fewest-hops path
// from the source to it in the remaining support (breadth-first, edges in
// index order: deterministic), give it weight min(demand, smallest rate on
// it), subtract. In an acyclic balanced flow a positive demand always has
// such a path (walk back along positive in-edges). Each path zeroes an edge
// or a demand, so there are at most |E| + |targets| paths.
// Complexity: O((|E| + |T|) (|V| + |E|)) rational operations.
// Used for scatter/gossip schedules (per-pair flows, Legrand, Marchal,
// Robert 2003 secs. 3.1, 3.5) and the fixed-period rounding (Prop. 4).
#pragma once

#include <vector>

#include "hetcoll/core/rational.h"
#include "hetcoll/model/platform.h"

namespace hetcoll {

struct WeightedPath {
  ProcessorIndex target = kNoProcessor;
  Rational weight;
  std::vector<std::size_t> edges;  // in travel order, from the source
};

// `flow`: (edge, rate) pairs, rates > 0. `demands`: (target, amount > 0).
// Throws std::logic_error when the flow is not balanced as described.
std::vector<WeightedPath> decompose_flow(const Platform& platform, ProcessorIndex source,
                                         const std::vector<std::pair<std::size_t, Rational>>& flow,
                                         const std::vector<std::pair<ProcessorIndex, Rational>>& demands);

// Cancels every directed cycle of the support of `rate` (indexed by edge;
// only edges with rate > 0 take part). Returns the number of cycles
// cancelled. Shared with the reduction-tree extraction (per message type).
std::size_t cancel_cycles(const Platform& platform, std::vector<Rational>& rate);

}  // namespace hetcoll
