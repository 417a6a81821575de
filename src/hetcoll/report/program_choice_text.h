// What the chooser (registry/program_chooser.h) decided for one call, for
// people (a table of every candidate, fastest first) and as JSON.
#pragma once

#include <string>

#include "hetcoll/makespan/flow_lower_bound.h"
#include "hetcoll/registry/program_chooser.h"

namespace hetcoll {

// `ranks` and `platform_name` describe the call for the heading; `bound`,
// when given, is printed under the candidates (what no schedule beats).
std::string program_choice_text(const ProgramChoice& choice, const CallShape& call, int ranks,
                                const std::string& platform_name, const FlowLowerBound* bound = nullptr);
// {"operation", "root", "count", "element_bytes", "ranks", "chosen",
//  "chosen_seconds", "default_seconds", "reason",
//  "candidates": [{"name", "predicted_seconds" (null when refused), "refused"}]}
// and, with `bound`, "lower_bound_seconds" and "lower_bound_kind" (which bound).
std::string program_choice_json(const ProgramChoice& choice, const CallShape& call, int ranks,
                                const FlowLowerBound* bound = nullptr);

// The bound alone: the call's fields, "lower_bound_seconds", "lower_bound_kind".
std::string flow_lower_bound_json(const FlowLowerBound& bound, const CallShape& call, int ranks);
// One line: the bound, which bound gives it, and what it means.
std::string flow_lower_bound_text(const FlowLowerBound& bound);

}  // namespace hetcoll
