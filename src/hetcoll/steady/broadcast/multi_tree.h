// The multi-tree schedule that reaches the SSB optimum (ours; Beaumont,
// Marchal, Robert 2004 sec. 4.1 compute only its value and call the trees
// "too complicated" to extract).
//
// Packing: the LP's edge rates n(e) give every target a flow of TP from the
// source (max-flow min-cut), so by Edmonds' branching theorem (Edmonds 1973,
// fractional form) there are arborescences T_i with weights l_i, sum l_i =
// TP, and sum of l_i over the trees holding e <= n(e). Construction
// (ForestColl-style): with residual capacities c and residual requirement
// k, grow one arborescence T from the source, admitting an edge (u, v)
// (u in T, v not) only with a weight mu such that c - mu 1_T still gives
// every target a max-flow >= k - mu (tested by max-flows, and mu lowered
// along the violated minimum cut: mu <= (c(X) - k) / (edges of T entering X
// - 1)); candidates by largest residual capacity; then take T with weight mu,
// subtract, and repeat until k = 0. Lovász's proof of Edmonds' theorem shows
// an admissible edge always exists. (This search is now optional,
// PackingOptions::search_first; by default the column generation below
// builds every tree itself.) The search runs in doubles (stopping
// within 1e-9 of TP), so its trees alone may miss TP exactly: on a dense
// 50-node platform their exact weights summed to TP (1 - 4.9e-10), a
// numerical shortfall, not a limit of the theorem. The weights are therefore
// made exact by column generation over arborescences: maximise sum l_i
// subject to sum of l_i over the trees on e <= n(e), solved as its dual
// (edge prices y, a row "cost of T >= 1" per tree) by row generation, the
// violated tree being a minimum-cost spanning arborescence under y
// (min_cost_arborescence.h) — in doubles first, then certified exactly and
// priced again in rationals. It stops when no arborescence costs below 1,
// and by the theorem the weights then sum to TP exactly, which is checked
// (reaches_optimum). The theorem needs every node to be a target: with
// routers (trees need not span them) the packing may stay below TP, and
// `shortfall` says so. Trees of weight 0 are dropped.
//
// Schedule: with period P = the lcm of the denominators of every l_i c(e),
// edge e carries l_i P slices of tree i per period and is busy
// sum_i l_i P c(e) <= P (one-port rows of the LP); a weighted bipartite edge
// colouring (steady/edge_colouring.h) splits the period into matchings;
// an edge's slices are dealt to its trees in tree order across its slots.
// Slices received in one period are forwarded in the next, so the schedule
// is one-port and causal in steady state.
// Time: O(trees x n x candidates x targets x max-flow) for the search (when
// asked for), then
// per generated tree an O(n m) arborescence; each exact round one certified
// LP solve.
#pragma once

#include <string>
#include <vector>

#include "hetcoll/plan/periodic_plan.h"
#include "hetcoll/steady/broadcast/ssb_lp.h"

namespace hetcoll {

struct WeightedBroadcastTree {
  Rational weight;        // slices per time unit
  BroadcastTree tree;     // platform edges only
};

struct MultiTreePacking {
  std::vector<WeightedBroadcastTree> trees;
  Rational total_weight;  // == the SSB optimum when the packing reached it
  bool reaches_optimum = false;
  int search_trees = 0;   // trees found by the search before the exact re-solve
  int generated_trees = 0;  // trees added by the exact column generation
  std::string shortfall;  // why the weights fall short of the optimum ("" when they reach it)
  double seconds = 0;
};

struct PackingOptions {
  // Start the column generation from the trees of the ForestColl-style
  // search (the rows it would otherwise find itself). Off by default: on
  // Tiers platforms the generation alone gives about as many trees in a
  // fraction of the time.
  bool search_first = false;
};

MultiTreePacking pack_broadcast_trees(const Platform& platform, ProcessorIndex source,
                                      const std::vector<double>& slice_times, const SsbSolution& optimum,
                                      const PackingOptions& options = {});

// The periodic one-port schedule of weighted trees (slices per time unit
// each): period P = lcm of the denominators of the weights and the edge
// loads, flows per edge, slots from the bipartite edge colouring; an
// edge's slices go to its trees in tree order, each tree taking its whole
// per-period share before the next starts (PeriodicTransfer::tree = the
// tree's index), so an edge has at most slots + trees - 1 transfers.
// throughput = throughput_bound = the weights' sum, no certificate.
// With `rational_slots`, the period is the lcm of the weights' denominators
// alone (the edge loads need not be whole per period): slot lengths are any
// rationals and an edge's slices are dealt to its trees in rationals. The
// practical schedule uses it, its weights rounded to a short period.
PeriodicPlan periodic_broadcast_schedule(const Platform& platform, ProcessorIndex source,
                                        const std::vector<double>& slice_times,
                                        const std::vector<WeightedBroadcastTree>& trees, bool rational_slots = false);

// Prop. 4 of Legrand, Marchal, Robert 2003 for the multi-tree schedule:
// every weight rounded down to floor(w x period) / period, trees of weight 0
// dropped, the schedule of the rest (rational_slots) with the SSB optimum
// and certificate as its bound; `exact_period` and `loss_bound` (trees /
// period) say what was given up. InputError when the period keeps no slice.
PeriodicPlan practical_multi_tree_schedule(const Platform& platform, ProcessorIndex source,
                                           const std::vector<double>& slice_times, const SsbSolution& optimum,
                                           const MultiTreePacking& packing, const BigInteger& period,
                                           const BigInteger& exact_period);

// One pipelined tree as a periodic plan: weight 1 / its exact one-port
// period (a node's sends and receives summed), for the simulator and the
// verifier. Throws InputError for a tree with routed edges (Alg. 4: not an
// arborescence of platform edges) or whose slices take no time.
PeriodicPlan single_tree_schedule(const Platform& platform, const BroadcastTree& tree,
                                  const std::vector<double>& slice_times);

// The periodic one-port schedule of a packing: slots from the bipartite edge
// colouring, flows per edge, trees with their weights, the SSB certificate.
PeriodicPlan multi_tree_schedule(const Platform& platform, ProcessorIndex source,
                                 const std::vector<double>& slice_times, const SsbSolution& optimum,
                                 const MultiTreePacking& packing);

}  // namespace hetcoll
