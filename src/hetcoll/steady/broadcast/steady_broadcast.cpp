#include "hetcoll/steady/broadcast/steady_broadcast.h"

#include <string>
#include <utility>

#include "hetcoll/core/error.h"
#include "hetcoll/plan/broadcast_tree.h"
#include "hetcoll/steady/steady_planner.h"

namespace hetcoll {

SteadyBroadcastResult plan_steady_broadcast(const Platform& platform, ProcessorIndex source,
                                            const SteadyBroadcastOptions& options) {
  if (!options.slice_size && !options.message_size && !platform.has_fixed_costs()) {
    throw InputError("slice_size", "the platform's edges give latency/bandwidth; give the slice size in bytes, or "
                                   "the message size to choose the slice size and between one tree and many");
  }
  if (options.practical_loss && !(*options.practical_loss > 0 && *options.practical_loss < 1)) {
    throw InputError("practical_loss", "must be in (0, 1), got " + std::to_string(*options.practical_loss));
  }
  if (options.message_size && platform.has_fixed_costs()) {
    throw InputError("message_size", "the platform's edges have fixed costs (no latency/bandwidth), so there are no "
                                     "bytes to cut into slices");
  }
  SteadyBroadcastResult result;
  result.source = source;
  result.slice_size = options.slice_size;
  if (options.message_size) {
    // The choice solves the LP and packs the trees at the slice size it
    // settles on; the schedule below uses that packing.
    LatencyAwareOptions latency_options;
    latency_options.slice_size = options.slice_size;
    result.latency_aware = choose_broadcast_schedule(platform, source, *options.message_size, latency_options);
    result.slice_size = result.latency_aware->packing_slice_size;
    result.optimum = result.latency_aware->optimum;
    result.packing = result.latency_aware->packing;
  }
  result.slice_times = make_tree_costs(platform, result.slice_size, BroadcastModel::one_port).edge_time;
  if (!result.latency_aware) {
    result.optimum = solve_ssb(platform, source, result.slice_times);
    if (options.stage == SteadyBroadcastStage::optimum) return result;
    result.packing = pack_broadcast_trees(platform, source, result.slice_times, result.optimum);
  }
  if (options.stage <= SteadyBroadcastStage::packing) return result;
  result.schedule = multi_tree_schedule(platform, source, result.slice_times, result.optimum, result.packing);
  if (options.practical_loss && result.packing.reaches_optimum && sgn(result.optimum.throughput) > 0) {
    const BigInteger period =
        practical_period(result.optimum.throughput, result.packing.trees.size(), *options.practical_loss);
    if (result.schedule.period > period) {
      result.schedule = practical_multi_tree_schedule(platform, source, result.slice_times, result.optimum,
                                                      result.packing, period, result.schedule.period);
    }
  }
  if (!platform.has_fixed_costs()) result.schedule.message_size = result.slice_size;
  if (options.stage == SteadyBroadcastStage::schedule) return result;
  // The verifier re-derives the certificate and runs the exact max-flows
  // when the trees reach the bound; otherwise the LP's own rates are checked
  // here. Once is enough: on dense 50-node platforms the check against the
  // full flow program takes seconds.
  result.schedule_report = verify_periodic_plan(platform, result.schedule);
  if (!result.schedule_report.certificate_checked) {
    const std::string failure = check_ssb_solution(platform, source, result.slice_times, result.optimum);
    if (!failure.empty()) result.verification.add_violation(failure);
  }
  if (!result.packing.reaches_optimum) {
    result.verification.add_violation("the tree packing fell short: " + result.packing.shortfall);
  }
  if (!result.schedule_report.valid) result.verification.add_violation(result.schedule_report.summary());
  return result;
}

}  // namespace hetcoll
