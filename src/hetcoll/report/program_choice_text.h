// What the chooser (registry/program_chooser.h) decided for one call, for
// people (a table of every candidate, fastest first) and as JSON.
#pragma once

#include <string>

#include "hetcoll/registry/program_chooser.h"

namespace hetcoll {

// `ranks` and `platform_name` describe the call for the heading.
std::string program_choice_text(const ProgramChoice& choice, const CallShape& call, int ranks,
                                const std::string& platform_name);
// {"operation", "root", "count", "element_bytes", "ranks", "chosen",
//  "chosen_seconds", "default_seconds", "reason",
//  "candidates": [{"name", "predicted_seconds" (null when refused), "refused"}]}
std::string program_choice_json(const ProgramChoice& choice, const CallShape& call, int ranks);

}  // namespace hetcoll
