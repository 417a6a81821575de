// Internal (not installed: it exposes nlohmann::json).
//
// Reading JSON input strictly: a key that appears twice in one object is an
// InputError naming it (nlohmann::json would silently keep the last one, so
// a second "model" or "makespan" could hide the first). Parse errors are
// nlohmann's exceptions, for the caller to word with its own context.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

namespace hetcoll {

nlohmann::json parse_json_rejecting_duplicate_keys(std::string_view text, std::string_view source_name);

}  // namespace hetcoll
