// Wall-clock seconds elapsed since a steady_clock reading: the one helper the
// planners' and experiments' timing statistics share.
#pragma once

#include <chrono>

namespace hetcoll {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace hetcoll
