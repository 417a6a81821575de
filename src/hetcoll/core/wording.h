// Small helpers for the words hetcoll prints.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace hetcoll {

// "1 processor", "3 processors"; `plural` when adding "s" is wrong
// ("1 search", "2 searches").
inline std::string count_of(std::uint64_t count, std::string_view singular, std::string_view plural = {}) {
  std::string text = std::to_string(count) + " ";
  if (count == 1) return text.append(singular);
  if (!plural.empty()) return text.append(plural);
  return text.append(singular).append("s");
}

}  // namespace hetcoll
