// Proof of the root-exchange lemma (reduce_broadcast.h states it):
//
// Proof: in an optimal reduce into r' (length R), r sends once, during
// [x, x + t(r)], to some q. Exchange the roles of r and r': r' performs
// r's receives and its send (now lasting t(r')), r performs r''s receives
// as the root. If t(r') > t(r), delay every transfer starting at or after
// x + t(r) by d = t(r') - t(r): order on every processor and causality are
// kept (the modified send ends at x + t(r') and whatever followed it moved
// by d), each processor but r still sends once. Length <= R + max(0, d).
//

#include "hetcoll/makespan/sender_speed/allreduce/reduce_broadcast.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"

namespace hetcoll {

namespace {

// The factor by which a phase's plan may exceed that phase's optimum.
double phase_factor(const MakespanPlan& phase) {
  if (phase.optimal || phase.guarantee.kind == Guarantee::Kind::exact) return 1.0;
  if (phase.guarantee.kind == Guarantee::Kind::ratio) return phase.guarantee.ratio;
  return std::numeric_limits<double>::infinity();
}

}  // namespace

double allreduce_composition_lower_bound(const Cluster& cluster, ProcessorIndex root, double reduce_phase_bound,
                                         double fastest_broadcast_bound) {
  const ProcessorIndex n = cluster.size();
  if (n < 2) return 0;
  // max_{p != r'} t(p) for every r': the largest time, or the second
  // largest for the (first) slowest processor.
  ProcessorIndex slowest = 0;
  for (ProcessorIndex p = 1; p < n; ++p) {
    if (cluster.transmission_time(p) > cluster.transmission_time(slowest)) slowest = p;
  }
  double second = 0;
  for (ProcessorIndex p = 0; p < n; ++p) {
    if (p != slowest) second = std::max(second, cluster.transmission_time(p));
  }
  const double t_min = cluster.fastest_time();
  const int levels = ceil_log2(n);
  const double t_root = cluster.transmission_time(root);
  double best = std::numeric_limits<double>::infinity();
  for (ProcessorIndex other = 0; other < n; ++other) {
    const double t_other = cluster.transmission_time(other);
    const double slowest_sender = other == slowest ? second : cluster.transmission_time(slowest);
    const double reduce_bound = std::max(t_min * levels, slowest_sender);         // bounds.h, into `other`
    const double broadcast_bound = t_other + t_min * (levels - 1);                  // bounds.h, from `other`
    const double reduce_part = std::max(reduce_phase_bound - std::max(0.0, t_other - t_root), reduce_bound);
    const double broadcast_part = std::max(fastest_broadcast_bound, broadcast_bound);
    best = std::min(best, reduce_part + broadcast_part);
  }
  return best;
}

double allreduce_any_schedule_lower_bound(const Cluster& cluster) {
  const ProcessorIndex n = cluster.size();
  if (n < 2) return 0;
  return cluster.slowest_time() + cluster.fastest_time() * (ceil_log2(n) - 1);
}

MakespanPlan compose_allreduce(const Cluster& cluster, ProcessorIndex root, const MakespanPlan& reduce,
                               const MakespanPlan& broadcast, std::string algorithm) {
  MakespanPlan plan;
  plan.operation = Operation::allreduce;
  plan.algorithm = std::move(algorithm);
  plan.root = root;
  plan.transfers = reduce.transfers;
  for (Transfer transfer : broadcast.transfers) {
    transfer.start += reduce.makespan;
    transfer.end += reduce.makespan;
    transfer.payload = Payload::broadcast_value;
    plan.transfers.push_back(transfer);
  }
  plan.makespan = last_completion(plan.transfers);
  plan.status = reduce.limit_reached() ? reduce.status : broadcast.status;
  plan.stats.nodes = reduce.stats.nodes + broadcast.stats.nodes;
  plan.stats.table_references = reduce.stats.table_references + broadcast.stats.table_references;

  const double tolerance = cluster.tolerance();
  const bool root_is_fastest = time_leq(cluster.transmission_time(root), cluster.fastest_time(), tolerance);
  // A bound on the best broadcast from any source: the phase's own bound
  // when its source is fastest, else the closed form from a fastest one.
  const double fastest_broadcast_bound =
      root_is_fastest ? broadcast.lower_bound : broadcast_lower_bound(cluster, cluster.fastest_processor());
  const double bound = allreduce_composition_lower_bound(cluster, root, reduce.lower_bound, fastest_broadcast_bound);
  const double factor = phase_factor(reduce) + (root_is_fastest ? 1.0 : 2.0) * phase_factor(broadcast);
  plan.guarantee = std::isfinite(factor) ? Guarantee::at_most(factor) : Guarantee::none();
  plan.guarantee.text += " among reduce-then-broadcast schedules";
  settle_claims(plan, bound, tolerance,
                "optimal among reduce-then-broadcast schedules (any root): the composition lower bound (the "
                "best reduce-phase bound plus the best broadcast-phase bound over the roots) meets the makespan");
  if (!plan.optimal && reduce.optimal && broadcast.optimal) {
    // Each phase optimal does not make the whole optimal: say both, in one note.
    plan.notes.push_back(fmt::format(
        "each phase is proven optimal for root {} (reduce {:g} by {}, broadcast {:g} by {}), but not the whole: "
        "the composition lower bound over every root is {:g}",
        cluster.id(root), reduce.makespan, reduce.algorithm, broadcast.makespan, broadcast.algorithm, bound));
  } else {
    plan.notes.push_back(fmt::format("reduce phase by {}: {}; broadcast phase by {}: {}", reduce.algorithm,
                                     reduce.optimal ? "proven optimal" : reduce.guarantee.text, broadcast.algorithm,
                                     broadcast.optimal ? "proven optimal" : broadcast.guarantee.text));
  }
  plan.notes.push_back(fmt::format(
      "claims hold among reduce-then-broadcast schedules; any all-reduce schedule takes at least {:g} (t_max + "
      "t_min (ceil(log2 n) - 1))",
      allreduce_any_schedule_lower_bound(cluster)));
  if (!root_is_fastest) {
    plan.notes.push_back("the root is not a fastest processor: the broadcast phase's factor counts twice in the "
                         "guarantee");
  }
  return plan;
}

MakespanPlan plan_allreduce_snf_fnf(const Cluster& cluster, ProcessorIndex root) {
  if (root == kNoProcessor) root = cluster.fastest_processor();
  MakespanPlan reduce = plan_reduce_snf(cluster, root);
  MakespanPlan broadcast = plan_broadcast_fnf(cluster, root);
  return compose_allreduce(cluster, root, reduce, broadcast, "snf+fnf");
}

}  // namespace hetcoll
