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

// Whether the text holds a raw control character (below 0x20). The fast
// (simdjson) readers leave such strings to the reference reader, which
// rejects raw ones and keeps escaped ones: both readers' ids stay identical.
inline bool has_control_character(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20) return true;
  }
  return false;
}

}  // namespace hetcoll
