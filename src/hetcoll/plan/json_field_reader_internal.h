// What the plan readers (periodic_plan_json.cpp, program_plan_json.cpp)
// check of one JSON field, each message naming the file and the field's
// path ("p.json: program.ranks[2][0].peer: out of range"); internal to
// plan/.
#pragma once

#include <limits>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetcoll/core/error.h"

namespace hetcoll {

class JsonFieldReader {
 public:
  explicit JsonFieldReader(std::string_view source_name) : source_(source_name) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw InputError(fmt::format("{}: {}: {}", source_, where, what));
  }

  const nlohmann::json& require(const nlohmann::json& object, const char* key, const std::string& where) const {
    auto it = object.find(key);
    if (it == object.end()) fail(where + key, "missing");
    return *it;
  }

  // An integer from -1 (none) to INT_MAX; `what` names it in the message.
  int small_integer(const nlohmann::json& value, const std::string& where, const char* what = "an integer") const {
    if (!value.is_number_integer()) fail(where, fmt::format("must be {}", what));
    const auto result = value.get<long long>();
    if (result < -1 || result > std::numeric_limits<int>::max()) fail(where, "out of range");
    return static_cast<int>(result);
  }

 private:
  std::string source_;
};

}  // namespace hetcoll
