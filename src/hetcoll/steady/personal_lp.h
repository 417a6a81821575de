// Steady-state linear programs for series of scatters and of gossips
// (personalised all-to-all): Legrand, Marchal, Robert 2003 secs. 3.1 (SSSP)
// and 3.5 (SSPA2A).
//
// Problem: sources S and targets T (a scatter has one source); every
// operation sends one distinct message from each source s to each target
// t != s. Maximise the throughput TP (operations per time unit) of a long
// series of operations under the bidirectional one-port model
// (steady_platform.h). Variables are message rates per edge.
//
// Two formulations with the same optimum:
//  * per_type (the paper's): one commodity per pair (s, t), variables
//    send(e, m_{s,t}); conservation (5) at every node but s and t; each target
//    receives TP messages of each pair per time unit (6). Messages of (s, t)
//    never enter s or leave t: as printed, (6) counts every arrival at t, so
//    a cycle t -> P_j -> t would count twice and inflate TP (the same flaw as
//    the paper's eq. (11) for reduce, see reduce_lp.h); forbidding those
//    edges is equivalent to counting net arrivals. Size: |S||T||E| columns.
//  * by_source: one commodity per source (all its messages together), with
//    net inflow TP at each of its targets and 0 at other nodes. Exact: a
//    single-source flow with demands decomposes into paths to each target
//    (flow_paths.h), which gives per-pair flows with the same edge totals.
//    Size: |S||E| columns — this is how gossip scales (65 nodes: ~25,000
//    columns instead of over a million).
// One-port rows: sum over edges leaving (entering) a one-port node of
// c(e) x rates <= 1. Edges of zero cost, and edges between two nodes of
// unlimited ports, use no port time.
//
// Guarantee: exact — the optimum and a dual certificate, both checked in
// rational arithmetic (lp/linear_program.h).
// Errors: InputError for a router as source or target, an empty pair set,
// or an unbounded throughput (a target reached from its source over free
// edges only); NoSolutionError when a target cannot be reached at all.
#pragma once

#include <utility>
#include <vector>

#include "hetcoll/steady/lp/certificate.h"
#include "hetcoll/steady/lp/linear_program.h"
#include "hetcoll/model/steady_platform.h"

namespace hetcoll {

enum class PersonalFormulation { per_type, by_source };

// "personal-per-type" / "personal-by-source" (the certificate's formulation).
const char* to_string(PersonalFormulation formulation);

struct PersonalProblem {
  std::vector<ProcessorIndex> sources;
  std::vector<ProcessorIndex> targets;
  // Every (s, t) with s in sources, t in targets, s != t, in that order.
  std::vector<std::pair<ProcessorIndex, ProcessorIndex>> pairs() const;
};

using SparseFlow = std::vector<std::pair<std::size_t, Rational>>;  // (edge, rate), rates > 0

struct LpRunStats {
  int rows = 0;
  int columns = 0;
  std::size_t nonzeros = 0;
  std::string method;
  std::string fallback_reason;
  double floating_objective = 0;
  double seconds = 0;           // all of it
  double floating_seconds = 0;  // Clp
  double exact_seconds = 0;     // exact re-solves, QSopt_ex, checks
  int columns_loaded = 0;       // columns Clp saw (fewer with column generation)
  int generation_rounds = 0;
};

struct PersonalLpResult {
  PersonalFormulation formulation = PersonalFormulation::per_type;
  Rational throughput;
  // per_type: one flow per pair (in PersonalProblem::pairs() order);
  // by_source: one flow per source (in `sources` order).
  std::vector<SparseFlow> flows;
  lp::LpCertificate certificate;
  LpRunStats stats;
};

PersonalLpResult solve_personal_lp(const SteadyPlatform& platform, const PersonalProblem& problem,
                                   PersonalFormulation formulation, const lp::SolveOptions& options = {});

// Checks sources, targets and reachability as described above (called by
// solve_personal_lp; exposed for callers that want the errors early).
void check_personal_problem(const SteadyPlatform& platform, const PersonalProblem& problem);

// Adds the one-port rows for the given columns: `usage[j]` lists the edges a
// column's rate occupies (with coefficient c(e)). Shared by the steady LPs.
struct PortRows {
  std::vector<int> send_row;     // per node, -1 when the node has none
  std::vector<int> receive_row;  // per node
};
PortRows add_port_rows(lp::Model& model, const SteadyPlatform& platform);
// A column carrying `weight` x c(e) on the ports of edge e's ends.
void add_edge_usage(lp::Model& model, const SteadyPlatform& platform, const PortRows& ports, int column,
                    std::size_t edge, const Rational& weight = 1);
// Builds, solves and certifies; fills stats. Throws on unbounded/infeasible/failed.
lp::Solution solve_certified(const lp::Model& model, const lp::SolveOptions& options, LpRunStats& stats,
                             const char* what);
// The second half of solve_certified, for solutions found another way:
// fills stats (`seconds`: the whole solve) and throws unless optimal.
lp::Solution require_certified(const lp::Model& model, lp::Solution solution, double seconds, LpRunStats& stats,
                               const char* what);

}  // namespace hetcoll
