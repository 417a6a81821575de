// Human-readable report of a steady broadcast result for the terminal: the
// exact throughput and its proof, the LP's statistics, the multi-tree
// schedule's size, the tree weights and the busiest ports (a port's busy
// fraction = the rates x slice times on its edges; the LP's one-port rows cap
// it at 100%); with detail, every tree's edges and every used edge's rate;
// with a message size, the latency-aware choice; for a practical schedule
// (Prop. 4) its period, the throughput it loses and the exact period. Reports sit above the
// planners and verify/ (they show both).
#pragma once

#include <string>

#include "hetcoll/model/platform.h"
#include "hetcoll/steady/broadcast/steady_broadcast.h"
#include "hetcoll/steady/pipelined/latency_aware.h"

namespace hetcoll {

struct SteadyBroadcastTextOptions {
  bool brief = false;   // throughput, proof and schedule size only
  bool detail = false;  // also every tree's edges and every used edge's rate
  // How a reader asks for what the summary leaves out (the caller's words,
  // e.g. a command line's flags), named in its hints.
  std::string detail_request = "the detailed report";
  std::string json_request = "the JSON report";
  std::string exact_request = "the exact schedule";  // how to ask for it when the schedule is a practical one
};

// The summary of a result of stage `verified` (its verdict is `failure`).
std::string steady_broadcast_summary(const Platform& platform, const SteadyBroadcastResult& result,
                                     const SteadyBroadcastTextOptions& options = {});

// The predicted makespans of one tree and of the multi-tree schedule for the
// message, and the choice between them.
std::string latency_aware_choice_text(const LatencyAwareChoice& choice);

}  // namespace hetcoll
