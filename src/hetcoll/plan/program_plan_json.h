// Program plans (plan/program_plan.h) as JSON, docs/FORMATS.md "Program
// plans": the header every plan file has (operation, source/root,
// algorithm, model "flow", status, participants, notes, stats), the
// prediction, and under "program" the steps of every rank.
//
// The reader checks the file's shape only — every field present where
// required, of its type and range, keys given once, participants hosts of
// the platform (once each) — and throws InputError naming the file and the
// field. Whether the steps compute the operation and whether the prediction
// holds is `hetcoll validate`'s job (registry/program_plan_check.h).
//
// Complexity: linear in the file.
#pragma once

#include <optional>
#include <ostream>
#include <string_view>

#include "hetcoll/model/platform.h"
#include "hetcoll/plan/program_plan.h"

namespace hetcoll {

// `valid`: the verifier's verdict, written as "valid" when given.
void write_program_plan_json(std::ostream& out, const ProgramPlan& plan, const Platform& platform,
                             std::optional<bool> valid = std::nullopt);

// Whether `text` is a program plan: a JSON object with a top-level
// "program" key (other plan files have none).
bool looks_like_program_plan(std::string_view text);

ProgramPlan parse_program_plan_json(std::string_view text, const Platform& platform, std::string_view source_name);

}  // namespace hetcoll
