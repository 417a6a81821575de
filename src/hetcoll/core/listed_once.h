// Lists of processors or nodes given by the user (targets, sources,
// participants) name each member once: a repeated entry is refused with an
// InputError naming the parameter and the member, never silently merged or
// passed on to a planner that would count it twice. O(n) with a mark per
// processor.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "hetcoll/core/error.h"
#include "hetcoll/core/ids.h"

namespace hetcoll {

// `count` processors or nodes exist (indices outside 0..count-1 are left to
// the caller's own check); `name_of(p)` is what the message calls p.
template <typename NameOf>
void require_listed_once(const std::vector<ProcessorIndex>& members, ProcessorIndex count, const std::string& parameter,
                         NameOf&& name_of) {
  std::vector<char> seen(static_cast<std::size_t>(count > 0 ? count : 0), 0);
  for (ProcessorIndex p : members) {
    if (p < 0 || p >= count) continue;
    if (seen[static_cast<std::size_t>(p)]) {
      throw InputError(parameter, std::string(name_of(p)) + " is listed twice; give each once");
    }
    seen[static_cast<std::size_t>(p)] = 1;
  }
}

}  // namespace hetcoll
