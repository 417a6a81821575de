// The multi-tree optimum of a pipelined broadcast: the SSB linear program
// (Beaumont, Marchal, Robert 2004, sec. 4.1, eq. 2; bidirectional one-port).
//
//   maximise TP subject to, for every target w (participant, not the source):
//     x_w(e) >= 0, a flow of TP slices per time unit from the source to w:
//       sum in x_w - sum out x_w = TP at w, 0 at every other node but the
//       source ("conservation", keys [w, v])                    (a)-(c)
//     n(e) >= x_w(e) for every w ("copy", keys [w, from, to, edge#]): the
//       slices crossing e are the same slices for every target    (d)
//     sum over e leaving u of n(e) c(e) <= 1 ("send_port", [u])   (e)(g)(j)
//     sum over e entering u of n(e) c(e) <= 1 ("receive_port", [u]) (f)(i)
//   (d)'s equality n = max_w x_w is relaxed to n >= x_w: the optimum is the
//   same (lowering n to the max only loosens the port rows), and the LP
//   stays linear. Routers only relay: they are never targets. A node with
//   unlimited ports (a switch) has no port rows; its edges get
//   "link" rows n(e) c(e) <= 1 instead ((h)).
// Solved through the steady-state LP layer (steady/lp/linear_program.h: Clp,
// then an exact rational re-solve of the basis, QSopt_ex as the fallback),
// so TP and every n(e) are exact rationals and the answer carries a dual
// certificate (formulation "ssb-broadcast") checked exactly.
//
// How: the flows are projected out. By max-flow min-cut, rates n admit the
// flows x_w of eq. (2) iff every node set X without the source that holds a
// target w receives TP over its in-edges: TP <= sum of n(e) entering X
// ("cut" rows, keys = the ids in X). The program over TP and n with port
// rows and cut rows is solved by row generation, in two phases:
//  1. Floating point (lp::FloatingRowSolver): start with the in-cut {w} of
//     every target; each round re-solves with Clp from its last basis and,
//     for every target whose float max-flow under n falls short of TP, adds
//     the minimum cuts nearest to it and nearest to the source. Rounds are
//     cheap (a few dual pivots); dense platforms need several.
//  2. Exact: the basis the rounds ended on is re-solved in rationals and
//     certified (FloatingRowSolver::certify, the path of lp::solve), then an
//     exact max-flow per target confirms it receives TP under the exact n. A
//     target short by less than the float tolerance adds its exact minimum
//     cut (violated, so new) and phase 1 resumes.
// When no target falls short, n and TP are feasible for eq. (2), so optimal;
// the certificate's duals are on port and cut rows, and each cut row is a
// valid inequality of eq. (2), which check_ssb_solution() re-derives from
// the platform. The full flow program (build_ssb_model) is kept to
// cross-check on small platforms, and as the fallback after 10 exact rounds
// that keep finding cuts (never seen); its certificate is then checked
// against it.
#pragma once

#include <string>
#include <vector>

#include "hetcoll/core/rational.h"
#include "hetcoll/plan/broadcast_tree.h"
#include "hetcoll/steady/lp/certificate.h"
#include "hetcoll/steady/lp/linear_program.h"

namespace hetcoll {

struct SsbSolution {
  Rational throughput;                 // TP, slices per time unit
  std::vector<Rational> edge_rates;    // n(e) per platform edge
  std::vector<ProcessorIndex> targets;  // the participants but the source
  lp::LpCertificate certificate;
  // Statistics of the last (restricted) LP solve.
  int lp_rows = 0;
  int lp_columns = 0;
  int floating_rounds = 0;             // row-generation rounds in floating point
  int rounds = 0;                      // exact solves of the cut program
  int targets_in_lp = 0;               // cut rows in the final LP (0: the full flow program)
  std::string lp_method;
  double seconds = 0;

  double throughput_value() const { return to_double(throughput); }
  std::vector<double> edge_rate_values() const;
};

// `slice_times` are the per-edge times of one slice (TreeCosts::edge_time).
// Throws NoSolutionError when a participant cannot be reached, and
// std::runtime_error when the LP layer fails to certify an optimum.
SsbSolution solve_ssb(const Platform& platform, ProcessorIndex source, const std::vector<double>& slice_times);

// The SSB program with flows for `targets` only (all of them for the
// checker): the model the certificate refers to.
lp::Model build_ssb_model(const Platform& platform, ProcessorIndex source, const std::vector<double>& slice_times,
                          const std::vector<ProcessorIndex>& targets);

// The largest flow from `source` to `target` under capacities `capacity`
// (per platform edge), exactly (Edmonds-Karp over rationals). Shared with
// the multi-tree packing and the checks.
Rational exact_max_flow(const Platform& platform, ProcessorIndex source, ProcessorIndex target,
                        const std::vector<Rational>& capacity);

// Checks a claimed SSB optimum from the platform alone: the certificate's
// duals are feasible for the full program and bound TP (check_certificate),
// and every target receives TP under the capacities n(e) (max-flow) while
// n(e) respects every port. Returns "" when all hold, else the failure.
std::string check_ssb_solution(const Platform& platform, ProcessorIndex source, const std::vector<double>& slice_times,
                               const SsbSolution& solution);

}  // namespace hetcoll
