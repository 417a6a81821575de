// The JSON of a steady broadcast result (docs/FORMATS.md, "hetcoll steady
// broadcast"): the exact throughput and the verdict, the LP's statistics,
// the used edges' rates, the multi-tree packing and its schedule's size,
// the dual certificate, and with a message size the latency-aware choice.
// It reports what plan_steady_broadcast found and checked, so it sits above
// the planners; the periodic schedule alone has its own writer
// (plan/periodic_plan_json.h).
#pragma once

#include <ostream>

#include "hetcoll/model/platform.h"
#include "hetcoll/steady/broadcast/steady_broadcast.h"
#include "hetcoll/steady/pipelined/latency_aware.h"

namespace hetcoll {

// One JSON object and a newline. Needs a result of stage `verified` or
// `schedule` (then "valid" says what `failure` says: true).
void write_steady_broadcast_json(std::ostream& out, const Platform& platform, const SteadyBroadcastResult& result);

// The "latency_aware" member's value: message size, the choice, the single
// tree's and the rounded multi-tree's predicted makespans.
void write_latency_aware_json(std::ostream& out, const LatencyAwareChoice& choice);

}  // namespace hetcoll
