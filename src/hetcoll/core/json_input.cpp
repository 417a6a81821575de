#include "hetcoll/core/json_input_internal.h"

#include <string>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

nlohmann::json parse_json_rejecting_duplicate_keys(std::string_view text, std::string_view source_name) {
  using nlohmann::json;
  // The keys seen so far in each object being parsed, innermost last.
  std::vector<std::unordered_set<std::string>> open_objects;
  json::parser_callback_t callback = [&](int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start: open_objects.emplace_back(); break;
      case json::parse_event_t::object_end: open_objects.pop_back(); break;
      case json::parse_event_t::key:
        if (!open_objects.back().insert(parsed.get<std::string>()).second) {
          throw InputError(fmt::format("{}: {}: the key appears twice in the same object (give each key once)",
                                       source_name, parsed.get<std::string>()));
        }
        break;
      default: break;
    }
    return true;
  };
  return json::parse(text.begin(), text.end(), callback);
}

}  // namespace hetcoll
