// The steady broadcast pipeline in one call: the multi-tree optimum of a
// pipelined broadcast (the SSB linear program of Beaumont, Marchal, Robert
// 2004, sec. 4.1, eq. 2), its packing into weighted broadcast trees and the
// periodic one-port schedule of those trees (ours, multi_tree.h), checked by
// the independent verifier; with a message size, the latency-aware choice
// between one tree and the multi-tree schedule (latency_aware.h) first.
//
// Problem: broadcast a long series of slices from `source` on a platform
// graph, bidirectional one-port. Slice times come from the edges' fixed
// costs, or from latency + slice_size / bandwidth.
// Guarantee: the throughput is optimal, proven by an exact dual certificate;
// `failure` is "" only when the certificate and the rates were checked
// (by verify_periodic_plan, or by check_ssb_solution when the schedule's
// check did not reach the certificate), the trees' weights reach the
// optimum exactly and the schedule passed its check.
// Complexity: the SSB LP by cut generation, a max-flow per tree of the
// packing, a weighted bipartite edge colouring for the schedule, and the
// verifier's pass over the plan (see ssb_lp.h, multi_tree.h,
// latency_aware.h). Stages can be left out (SteadyBroadcastStage).
// Throws InputError (a missing or superfluous slice or message size, named
// by parameter), NoSolutionError (a participant the source cannot reach).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hetcoll/model/platform.h"
#include "hetcoll/plan/periodic_plan.h"
#include "hetcoll/steady/broadcast/multi_tree.h"
#include "hetcoll/steady/broadcast/ssb_lp.h"
#include "hetcoll/steady/pipelined/latency_aware.h"
#include "hetcoll/verify/verify_periodic.h"

namespace hetcoll {

// How far the pipeline goes; each stage includes the ones before it.
enum class SteadyBroadcastStage {
  optimum,   // the SSB LP only (with a message size: the latency-aware choice, which packs)
  packing,   // and the weighted trees
  schedule,  // and the periodic one-port schedule
  verified,  // and the verifier's check of the schedule and the optimum
};

struct SteadyBroadcastOptions {
  // Bytes per slice: needed when the edges give latency/bandwidth, unless
  // message_size is given (then it is chosen); fixed for the choice if both.
  std::optional<double> slice_size;
  // Bytes of the whole message (latency/bandwidth platforms only): choose the
  // slice size and between one tree and the multi-tree schedule.
  std::optional<double> message_size;
  SteadyBroadcastStage stage = SteadyBroadcastStage::verified;
  // A practical schedule (Legrand, Marchal, Robert 2003 Prop. 4): when the
  // exact period is longer, the trees' weights are rounded down to the
  // period of steady_planner.h's practical_period, whose loss bound (trees /
  // period) is at most this fraction of the optimum, e.g. 0.01; must be in
  // (0, 1). Unset: the exact schedule, reaching the optimum.
  std::optional<double> practical_loss;
};

struct SteadyBroadcastResult {
  ProcessorIndex source = kNoProcessor;
  // The slice size of the LP and the packing: given, or chosen for the
  // message; none on a platform with fixed costs and no size given.
  std::optional<double> slice_size;
  std::vector<double> slice_times;  // per platform edge, at slice_size
  SsbSolution optimum;
  MultiTreePacking packing;                    // stage packing and above
  PeriodicPlan schedule;                       // stage schedule and above
  std::optional<LatencyAwareChoice> latency_aware;  // with a message size
  PeriodicVerifyReport schedule_report;        // stage verified
  // Stage verified: valid when the optimum, the packing and the schedule all
  // passed their checks, else one violation per failed check (the
  // schedule's: its report's summary).
  VerifyReport verification;
  bool valid() const { return verification.valid; }
  // What failed, "; " between failures ("" when valid).
  std::string failure() const { return verification.joined("; "); }
};

SteadyBroadcastResult plan_steady_broadcast(const Platform& platform, ProcessorIndex source,
                                            const SteadyBroadcastOptions& options = {});

}  // namespace hetcoll
