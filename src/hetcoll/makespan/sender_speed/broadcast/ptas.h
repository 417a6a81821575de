// Approximation scheme for broadcast — Khuller, Kim, Woeginger, "Approximation
// schemes for broadcasting in heterogeneous networks", 2003, sec. 3, Lemmas
// 1-3, Theorems 2-3.
//
// Problem: sender-speed cluster, a source holding one message at time 0;
// every receiver must get it; minimise the last receive time. NP-hard.
//
// Scheme, for one guess T (guesses T = t_min (1+eps)^j, increasing; the
// first feasible guess gives the plan; t_min is the paper's t_1 = 1):
//  * fast set F = {p : t(p) <= eps' T}, served first by FNF from the source;
//  * slow set S = the others, each rounded up into class
//    S_i = {eps' T (1+eps')^(i-1) < t <= eps' T (1+eps')^i}; we round every
//    member up to the slowest true time of its class (<= the paper's class
//    bound, so the (1+eps') rounding argument is unchanged, and a class that
//    holds one distinct time is not rounded at all). Classes whose rounded
//    time exceeds the largest slack can never send in time: they are merged
//    into one "leaf-only" class;
//  * sending points: the fast processors' free slots after their FNF sends;
//  * tree table: B(m), the least rounded broadcast time of a tree made of
//    exactly the slow processors counted by m, by a recursion over count
//    vectors; a feasibility DP over the sending points (sec. 3) decides
//    whether trees covering every slow processor fit by the deadline
//    D = (1+eps')(1+3eps') T. ptas.cpp: the recursions, why the collapsed DP
//    is exact, and the readings taken where the paper is ambiguous.
//
// Guarantee (source a fastest processor): makespan <= (1+eps)(1+eps')(1+3eps')
// x optimal (Theorem 3). The plan is the same tree re-timed with the true
// times, so its makespan is <= the rounded one <= D. Lower bound: by the
// contrapositive of Theorem 2, an infeasible guess T proves OPT > T, so the
// largest infeasible guess is a lower bound (together with bounds.h).
// For a source that is not a fastest processor, Lemma 1 (via Khuller–Kim's
// Theorem 1) does not apply: we still run the scheme, also run FNF, keep the
// better, and claim only FNF's <= 2 x optimal (Liu 2002 Thm 4.7).
//
// Complexity per guess: FNF O(n log n); tree table O(V k |U|); DP O(P |U| k),
// where k = number of non-empty classes, V = count vectors of at most N_max
// slow processors (N_max = 2^floor(slack / r_min) <= 2^((1+eps')(1+3eps')/eps')),
// U = vectors whose tree fits the slack, P = prod (s_i + 1). With k bounded by
// ceil(log(1/eps')/log(1+eps')) + 1 this is polynomial (the paper's
// O(n^(k+1)) states) but explodes quickly as eps' shrinks: see
// estimate_broadcast_ptas(), which predicts the work before it is done.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct PtasParameters {
  double eps = 0.5;                  // guessing precision, > 0
  std::optional<double> eps_prime;   // fast/slow split and rounding; default eps
  // Time limit and progress (core/limits.h; the node limit is ignored).
  // Before any work the run predicts its time and memory and refuses
  // (status refused, the FNF plan returned) when the prediction exceeds the
  // time limit (no limit: kPtasDefaultRefusalSeconds) or kPtasMaxBytes; the
  // prediction stops as soon as it passes the limit, so a refusal takes
  // time proportional to the limit. While running, it stops at the limit
  // and returns the best plan so far.
  SearchLimits limits;
  // false: skip the up-front prediction and refusal (a caller that already
  // predicted the work of several runs, e.g. multicast over every helper count).
  bool refuse_long_runs = true;
  // At the first feasible guess, the paper accepts any tree within D. With
  // this on, the DP (only) is re-run to bisect for the least deadline the
  // guess's tables can meet: up to 8 more DP runs, same guarantee, usually
  // a much better plan. Off = the paper's algorithm verbatim.
  bool tighten_deadline = true;
};

// At most this many guesses of T (InputError for a smaller --eps), and the
// smallest eps and eps' accepted.
inline constexpr double kMaxPtasGuesses = 10000;
inline constexpr double kMinPtasEps = 1e-6;

// Predictions above this are refused when no time limit is given, and
// tables above kPtasMaxBytes whatever the limit.
inline constexpr double kPtasDefaultRefusalSeconds = 3600;
inline constexpr double kPtasMaxBytes = 6e9;

// What the scheme will do on one instance, predicted before doing it.
struct PtasWorkEstimate {
  double eps = 0, eps_prime = 0;
  int guesses = 0;                   // guesses T that may be tried (worst case)
  int max_classes = 0;               // non-empty slow classes, largest over guesses
  double max_tree_vectors = 0;       // tree-table entries, largest guess
  double max_useful_trees = 0;       // predicted trees within the slack (upper estimate)
  double max_dp_states = 0;          // feasibility-DP count vectors, largest guess
  double operations = 0;             // elementary steps, summed over the guesses
  double seconds = 0;                // operations x calibrated cost per step
  double bytes = 0;                  // largest memory use of one guess
  // The prediction stopped once it passed the threshold it was given: the
  // run would take at least `seconds`.
  bool truncated = false;
  std::string describe() const;      // one line for notes / the terminal
};

// The receivers are the processors that must get the message (the others
// are ignored); for a broadcast, every processor but the source.
// Stops (truncated) once the predicted seconds exceed `stop_above_seconds`.
PtasWorkEstimate estimate_broadcast_ptas(const Cluster& cluster, ProcessorIndex source,
                                         const std::vector<ProcessorIndex>& receivers, double eps, double eps_prime,
                                         double stop_above_seconds = std::numeric_limits<double>::infinity());

// The finest eps' (smallest value, on a x1.1 grid from eps_prime up) whose
// predicted time fits `seconds`; nullopt if none below 8 does, or if the
// search for it would itself take more than `search_seconds`.
std::optional<double> finest_fitting_eps_prime(const Cluster& cluster, ProcessorIndex source,
                                               const std::vector<ProcessorIndex>& receivers, double eps,
                                               double eps_prime, double seconds,
                                               double search_seconds = std::numeric_limits<double>::infinity());

// The guarantee of Theorem 3, (1+eps)(1+eps')(1+3eps').
double ptas_ratio(double eps, double eps_prime);

// Broadcast (or the broadcast over a subset, for multicast) with the
// scheme. Throws InputError for eps <= 0, eps' <= 0 or an eps so small that
// the guesses explode; a predicted running time or memory beyond the limit
// is a refusal (status refused, FNF's plan, a note giving the finest eps'
// that fits).
// Its transfers involve only the source and the receivers; when those are
// not every processor, the plan's operation is multicast with the receivers
// as targets (so verify() checks it), otherwise broadcast.
MakespanPlan plan_broadcast_ptas(const Cluster& cluster, ProcessorIndex source,
                                 const std::vector<ProcessorIndex>& receivers, const PtasParameters& parameters);
MakespanPlan plan_broadcast_ptas(const Cluster& cluster, ProcessorIndex source, const PtasParameters& parameters);

}  // namespace hetcoll
