// Steady-state linear program for a series of reduces (SSR): Legrand,
// Marchal, Robert 2003 secs. 4.1-4.2.
//
// Problem: participants P_0..P_{N-1} (in the reduction order: the operator
// is associative, not necessarily commutative) each hold a value per
// operation; the root (a participant) must obtain v = v_0 (+) ... (+) v_{N-1}
// for every operation. v[k,m] is the partial result v_k (+) ... (+) v_m; the
// task T[k,l,m] computes v[k,m] = v[k,l] (+) v[l+1,m]. Maximise the
// throughput TP of a long series of reduces under the bidirectional one-port
// model (steady_platform.h): computation overlaps communication.
//
// Variables: send(e, v[k,m]) messages per time unit over edge e;
// cons(P_i, T[k,l,m]) tasks per time unit on participant P_i.
// Rows: one-port (2), (3) with (8) (every partial result is one message of
// the platform's unit size, so it costs c(e)); compute (7), (9): the tasks of
// P_i take sum cons x 1/speed(P_i) <= 1 per time unit (no row when the node
// has no speed: computing is free); conservation (10) of v[k,m] at every
// node, except v[r,r] at its owner P_r (an unlimited supply) and
// v[0,N-1] at the root; throughput (11).
//
// Eq. (11) as printed counts every arrival of v[0,N-1] at the root, while
// (10) exempts the root for that value: the value could then go root -> P_j
// -> root and be counted twice, inflating TP. Here v[0,N-1] never leaves the
// root (no such variables), which counts net arrivals; likewise v[r,r] never
// enters its owner P_r. (Tested on a platform where the cycle would pay.)
// Only participants compute; routers forward.
// Size: N(N+1)/2 message types per edge, N(N^2-1)/6 tasks per participant.
//
// Guarantee: exact (optimum and dual certificate checked in rationals).
// Errors: InputError for fewer than two participants, a router among them,
// a root that is not a participant, or an unbounded throughput;
// NoSolutionError when some participant cannot reach the root.
#pragma once

#include <vector>

#include "hetcoll/steady/personal_lp.h"
#include "hetcoll/steady/reduce_tree_pricing.h"

namespace hetcoll {

struct ReduceProblem {
  ProcessorIndex root = kNoProcessor;
  std::vector<ProcessorIndex> participants;  // reduction order
};

// A task T[first, split, last] on a node, with a rate.
struct TaskRate {
  ProcessorIndex node = kNoProcessor;
  int first = 0;
  int split = 0;
  int last = 0;
  Rational rate;
};

// A message v[first, last] over an edge, with a rate.
struct SendRate {
  std::size_t edge = 0;
  int first = 0;
  int last = 0;
  Rational rate;
};

struct ReduceLpResult {
  Rational throughput;
  std::vector<SendRate> sends;  // rates > 0
  std::vector<TaskRate> tasks;  // rates > 0
  lp::LpCertificate certificate;
  LpRunStats stats;
};

// How the LP is solved; every method ends with the same exact check of a
// primal and a dual solution of the full LP above, so they agree on the
// optimum and the certificate proves the same bound.
enum class ReduceLpMethod {
  // Reduction-tree pricing (reduce_tree_pricing.h): a master LP over trees
  // with ~2n + N rows, a DP to price trees; the full LP's certificate is
  // built from the master's duals and the DP's labels. Falls back to
  // `full` when that fails (unbounded throughput, say). The default:
  // 20 participants on a 30-node platform in seconds instead of minutes.
  tree_pricing,
  // Clp on the whole LP (options.algorithm), exact re-solve of its basis.
  full,
  // Clp starts from the columns of flat reductions (own values and prefixes
  // v[0,m] sent anywhere, tasks v[0,l] (+) v[l+1]) and adds the others as
  // their reduced costs ask (lp::SolveOptions::initial_columns); the exact
  // check prices every column.
  column_generation,
};

// `options.exact_solver_only` solves the full LP with QSopt_ex whatever the
// method.
ReduceLpResult solve_reduce_lp(const SteadyPlatform& platform, const ReduceProblem& problem,
                               const lp::SolveOptions& options = {},
                               ReduceLpMethod method = ReduceLpMethod::tree_pricing);

void check_reduce_problem(const SteadyPlatform& platform, const ReduceProblem& problem);

}  // namespace hetcoll
