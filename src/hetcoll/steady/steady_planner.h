// Steady-state planners: from a platform graph to a verified-ready periodic
// schedule (Legrand, Marchal, Robert 2003), for series of scatters, gossips
// (personalised all-to-all) and reduces.
//
// Pipeline, for each operation:
//  1. the linear program (personal_lp.h or reduce_lp.h): the optimal
//     throughput TP, the rates, and a dual certificate, all exact;
//  2. a weighted decomposition of the rates: paths per (source, target) pair
//     for scatter/gossip (flow_paths.h), reduction trees for reduce
//     (reduction_trees.h); circulations are removed first;
//  3. the period T: the lcm of the denominators of TP and of the weights, so
//     every per-period count is a whole number (sec. 3.1). With
//     `period_max` < T, the fixed-period approximation of sec. 4.6 (Prop. 4):
//     each weight w becomes floor(w x T_max) / T_max; for scatter/gossip the
//     pairs are then trimmed to the smallest pair total, so every target
//     still receives the same number per period. Throughput lost: at most
//     (number of trees) / T_max for reduce, (largest number of paths of one
//     pair) / T_max for scatter/gossip (the same argument, pair by pair).
//     With `practical_loss` e instead, T_max is chosen: the smallest of
//     1, 2, 5, 10, 20, 50, ... whose loss bound is at most e x TP (the
//     exact period is kept when it is not longer);
//  4. the one-port slots by weighted bipartite edge colouring
//     (periodic_schedule.h), with messages split across slots or, with
//     `split_messages` false, a period scaled to whole messages (Fig. 4).
// The plan carries TP as `throughput_bound` with the LP's certificate, the
// achieved `throughput` (equal unless step 3 rounded), the flows, trees,
// computations, slots and statistics. Planners do not verify: callers run
// verify_periodic_plan (verify/verify_periodic.h), as the CLI does.
//
// Guarantee: exact optimal throughput (proven by the certificate); the
// schedule achieves it in steady state, and a series of K operations takes
// K / TP + O(1) time (Props. 1-3; see sim/periodic_simulator.h).
// Complexity: the LP, then polynomial steps (paths/trees: at most one per
// positive rate; colouring: at most |E| + N matchings), never one step per
// time unit, so huge periods are fine.
// Errors: InputError (bad parameters or platform, unbounded throughput,
// a `period_max` too small to keep any operation), NoSolutionError
// (a target or the root cannot be reached).
#pragma once

#include <optional>
#include <vector>

#include "hetcoll/model/platform.h"
#include "hetcoll/plan/periodic_plan.h"
#include "hetcoll/steady/lp/linear_program.h"
#include "hetcoll/steady/personal_lp.h"
#include "hetcoll/steady/reduce_lp.h"

namespace hetcoll {

struct SteadyOptions {
  // Scatter/gossip LP; default: by_source (the fewest columns, the same
  // exact optimum as the paper's per_type; personal_lp.h).
  std::optional<PersonalFormulation> formulation;
  // By source with several sources (gossip), the LP is solved by routing
  // generation (personal_path_generation.h: the same exact optimum and
  // certificate) unless this is set or lp.exact_solver_only asks for
  // QSopt_ex; then the whole LP is built (always for one source: |E| columns).
  bool personal_full_lp = false;
  std::optional<BigInteger> period_max;  // Prop. 4; must be >= 1
  // A practical period (ignored when period_max is set): Prop. 4's period
  // chosen so that its loss bound is at most this fraction of the optimal
  // throughput, e.g. 0.01; must be in (0, 1).
  std::optional<double> practical_loss;
  bool split_messages = true;
  std::optional<double> message_size;  // bytes, for latency/bandwidth edges
  lp::SolveOptions lp;
  // Reduce: how the LP is solved (reduce_lp.h); every method gives the same
  // exact optimum with a certificate of the full LP.
  ReduceLpMethod reduce_method = ReduceLpMethod::tree_pricing;
};

// The practical period of Prop. 4: the smallest of 1, 2, 5, 10, 20, 50, ...
// time units with bound_count / period <= loss_fraction x throughput (the
// loss bound, e.g. trees / period, within that fraction of the optimum).
// `throughput` must be positive, `loss_fraction` in (0, 1).
BigInteger practical_period(const Rational& throughput, std::size_t bound_count, double loss_fraction);

// `targets` empty: every participant but the source.
PeriodicPlan plan_steady_scatter(const Platform& platform, ProcessorIndex source, std::vector<ProcessorIndex> targets,
                                 const SteadyOptions& options = {});
// `sources` / `targets` empty: every participant.
PeriodicPlan plan_steady_gossip(const Platform& platform, std::vector<ProcessorIndex> sources,
                                std::vector<ProcessorIndex> targets, const SteadyOptions& options = {});
// `participants` empty: every participant, in index order (the reduction
// order); `root` must be one of them.
PeriodicPlan plan_steady_reduce(const Platform& platform, ProcessorIndex root,
                                std::vector<ProcessorIndex> participants, const SteadyOptions& options = {});

}  // namespace hetcoll
