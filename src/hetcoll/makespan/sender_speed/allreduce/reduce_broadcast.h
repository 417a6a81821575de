// All-reduce as a reduce followed by a broadcast — Liu, Kuo, Wang, "An
// approximation algorithm and dynamic programming for reduction in
// heterogeneous environments", 2009, sec. 5.2, Thm 3 — and what is proven about such compositions.
//
// Model. An all-reduce plan here is a *composition*: a reduce of every
// processor's value into a root r (each other processor sends once), then a
// broadcast of the result from r, which starts when r holds the result
// (verify/ checks exactly this). Its makespan is R + B, the two phases'
// makespans. Every claim below (bound, ratio, optimal) is proven for this
// model: OPT means the best composition over every root,
//   OPT = min over r' of (OPT_red(r') + OPT_bc(r')).
// Liu, Kuo, Wang 2009 sec. 5.2 also states ("easy to see") that an
// arbitrary all-reduce schedule costs at least a fastest reduce; we do not
// rely on it. For arbitrary schedules (messages carrying any partial data)
// we prove only G = t_max + t_min (ceil(log2 n) - 1): the set of processors
// whose data depends on a slowest processor's value is one processor until
// its first send completes (>= t_max), then at most doubles every t_min
// (the argument of bounds.h's broadcast bound). G is printed as a note.
//
// Lemma (root exchange). For any processors r, r':
//   OPT_red(r) <= OPT_red(r') + max(0, t(r') - t(r)).
// (Proof: reduce_broadcast.cpp.)
//
// Lower bound on OPT (allreduce_composition_lower_bound). Given LB_red, a
// proven bound on OPT_red(r) for the plan's root r, and LB_bc, a proven
// bound on the optimal broadcast from a fastest processor — which is the
// best broadcast from any source (Liu 2002 Thm 4.2: some optimal tree has
// every processor no faster than its parent, so its source is fastest):
//   OPT >= min over r' of [ max(LB_red - max(0, t(r') - t(r)), redB(r'))
//                          + max(LB_bc, bcB(r')) ],
// with redB, bcB the closed-form bounds of bounds.h. With the phases
// proven optimal this often meets the makespan (the demo: 3.6 + 3 = 6.6).
//
// Guarantee of a composition with root r whose reduce is within rho of
// OPT_red(r) and broadcast within beta of OPT_bc(r): OPT_red(r) <= OPT (by
// the lemma, as t(r') <= OPT_bc(r')), and OPT_bc(r) <= OPT when r is a
// fastest processor (Thm 4.2), else OPT_bc(r) <= t(r) + OPT_bc(fastest)
// <= 2 OPT (r first sends to a fastest processor; r sends at least once in
// any composition). So makespan <= (rho + beta) OPT for a fastest root and
// <= (rho + 2 beta) OPT otherwise: SNF (rho = 2) + FNF from a fastest root
// (beta = 1.5): 3.5 (Thm 3); from another root (FNF <= 2 x, Liu 2002
// Thm 4.7): 6.
// Complexity: O(n log n) time (the phases), O(n) for the bound.
#pragma once

#include <string>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// The composition bound above (O(n)).
double allreduce_composition_lower_bound(const Cluster& cluster, ProcessorIndex root, double reduce_phase_bound,
                                         double fastest_broadcast_bound);

// G above: a lower bound for any all-reduce schedule (O(n)).
double allreduce_any_schedule_lower_bound(const Cluster& cluster);

// The all-reduce plan of a reduce into `root` followed by a broadcast from
// it: transfers (the broadcast shifted to start when the root holds the
// result), status, statistics, the composition bound, the guarantee
// (rho + beta as above, from each phase's own guarantee) and the claims.
MakespanPlan compose_allreduce(const Cluster& cluster, ProcessorIndex root, const MakespanPlan& reduce,
                               const MakespanPlan& broadcast, std::string algorithm);

// `--algo snf+fnf`. root = kNoProcessor picks a fastest processor.
MakespanPlan plan_allreduce_snf_fnf(const Cluster& cluster, ProcessorIndex root);

}  // namespace hetcoll
