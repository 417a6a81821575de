// The steady-state reduce LP solved through its reduction trees (a
// Dantzig-Wolfe decomposition with an exact pricing DP), certified on the
// full LP of Legrand, Marchal, Robert 2003 secs. 4.1-4.2 (reduce_lp.h).
//
// Problem: the reduce LP as reduce_lp.h builds it — N(N+1)/2 message types
// on every edge and N(N^2-1)/6 tasks per participant, over 49,000 columns
// for 20 participants on a 30-node platform, where Clp's simplex needs
// minutes. Its solutions are weighted sums of reduction trees (sec. 4.4:
// every rate decomposes into trees, EXTRACT_TREES), so the LP equals the
// master  max sum_T w_T  s.t.  sum_T usage_T(r) w_T <= 1  for every port and
// compute row r, w >= 0 — one column per tree, only ~2n + N rows.
//
// Pricing: given prices y >= 0 on those rows, an edge costs c(e)(y_send(u) +
// y_receive(w)) and a task on P costs its compute time x y_compute(P); the
// cheapest way D(v, [k,m]) to have v[k,m] on node v is, by interval length,
// the cheapest task at v (D(v,[k,l]) + D(v,[l+1,m]) + task cost) or own
// value (0), then Dijkstra over the message type's edges. The cheapest tree
// has cost D(root, [0,N-1]); it prices out when below 1.
//
// Certificate (why the answer is the full LP's, exactly): the master is
// solved by Clp and re-solved exactly from its basis (lp::solve_with_
// pricing); the DP is then run again in rational arithmetic with the
// master's exact duals. If D(root, [0,N-1]) >= 1, then y on the resource
// rows, -D(v,t) on each conservation row (v,t) and -1 on the throughput row
// satisfy every dual constraint of the full LP: D obeys the triangle
// inequality along every send and task column (that is what the DP
// computes; unreachable (v,t) get the largest finite D, which no column
// leaves towards a finite label). The full primal is the sum of the trees'
// columns times their weights. lp::check_optimality then checks both on
// the full model, exactly; nothing is trusted from the decomposition.
//
// Guarantee: exact when it returns a solution; std::nullopt when the master
// is unbounded or not solved exactly (the caller solves the full LP, which
// reports those cases). Time: per pricing round O(N^3 n / 6 + N^2 (n^2 + E))
// (floating), once more in rationals at the end; the master has at most one
// column per round. Tie rule: the first cheapest split, then Dijkstra's first
// settled predecessor. Limits: pricing rounds are capped (20,000); past the
// cap the caller falls back to the full LP.
#pragma once

#include <optional>
#include <vector>

#include "hetcoll/model/platform.h"
#include "hetcoll/steady/lp/linear_program.h"

namespace hetcoll {

// Where the structure of a reduce LP sits among its rows and columns
// (filled by solve_reduce_lp while it builds the model).
// Index of v[k,m] among the N(N+1)/2 types (k <= m), row-major by k.
inline int partial_index(int participants, int first, int last) {
  return first * participants - first * (first - 1) / 2 + (last - first);
}

struct ReduceLpIndex {
  int participants = 0;  // N; message type t = partial_index(N, first, last)
  int nodes = 0;
  ProcessorIndex root = kNoProcessor;
  std::vector<ProcessorIndex> order;  // participant at each position
  int throughput_column = -1;
  int throughput_row = -1;
  // Per (node * types + type): the conservation row, -1 when exempt (own
  // value at its owner), -2 when the model has none.
  std::vector<int> conservation;
  struct Send {
    ProcessorIndex from;
    ProcessorIndex to;
    int type;
    int column;
  };
  std::vector<Send> sends;
  struct Task {
    int position;  // of the participant computing it
    int first;
    int split;
    int last;
    int column;
  };
  std::vector<Task> tasks;
  std::vector<int> resource_rows;  // port and compute rows (<= 1)
};

std::optional<lp::Solution> solve_reduce_by_tree_pricing(const lp::Model& model, const ReduceLpIndex& index);

}  // namespace hetcoll
