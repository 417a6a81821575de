// Plans as JSON (docs/FORMATS.md). Writing streams: a plan with a
// million transfers is written transfer by transfer, never built as one
// giant string or document.
#pragma once

#include <optional>
#include <ostream>
#include <string_view>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct PlanJsonOptions {
  std::optional<bool> valid;  // the verifier's verdict, printed as "valid"
  bool include_transfers = true;
};

void write_plan_json(std::ostream& out, const MakespanPlan& plan, const Cluster& cluster,
                     const PlanJsonOptions& options = {});

// Reads a plan written by write_plan_json (or by hand: "operation", the
// source or root, "makespan" and "transfers" are required; processors by id
// or index; the other claims are optional but must be well-formed). Throws
// InputError naming `source_name` and the field.
MakespanPlan parse_plan_json(std::string_view text, const Cluster& cluster, std::string_view source_name);

// Quotes and escapes a string for JSON output.
std::string json_quote(std::string_view text);

}  // namespace hetcoll
