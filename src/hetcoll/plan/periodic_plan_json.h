// Periodic plans as JSON (docs/FORMATS.md "Steady-state plans"). STABLE
// INTERFACE: fields are only ever added.
//
// Exact numbers are strings "p/q" (throughput, throughput_bound, slot
// lengths, tree weights, dual values); integers (period,
// operations_per_period, whole message counts) are JSON integers when they
// fit in 64 bits and decimal strings otherwise; a fractional message count
// is a "p/q" string. "throughput_value" is the nearest double, for reading.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hetcoll/model/platform.h"
#include "hetcoll/plan/periodic_plan.h"

namespace hetcoll {

struct PeriodicPlanJsonOptions {
  std::optional<bool> valid;  // the verifier's verdict, printed as "valid"
  bool include_certificate = true;
  // More top-level fields, as (key, JSON text), e.g. {"simulation", "{...}"}.
  std::vector<std::pair<std::string, std::string>> extra_fields;
};

void write_periodic_plan_json(std::ostream& out, const PeriodicPlan& plan, const Platform& platform,
                              const PeriodicPlanJsonOptions& options = {});

// Reads a plan written by write_periodic_plan_json. Nodes by id or index.
// Throws InputError naming `source_name` and the field.
PeriodicPlan parse_periodic_plan_json(std::string_view text, const Platform& platform, std::string_view source_name);

// True when the JSON text is a periodic (steady-state) plan: an object with
// a "period" key. Makespan plans have none.
bool looks_like_periodic_plan(std::string_view text);

// How a message type is printed: scatter "B" (the target), gossip "A->B",
// reduce "[0,2]" (positions in the reduction order), broadcast "m".
std::string message_type_name(const MessageType& type, const Platform& platform);

}  // namespace hetcoll
