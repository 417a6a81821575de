#include "hetcoll/plan/split_plans.h"

#include <algorithm>

namespace hetcoll {

std::pair<std::size_t, std::size_t> split_chunk_range(std::size_t piece_elements, std::size_t chunks,
                                                      std::size_t chunk) {
  const std::size_t base = piece_elements / chunks, extra = piece_elements % chunks;
  return {chunk * base + std::min(chunk, extra), base + (chunk < extra ? 1 : 0)};
}

}  // namespace hetcoll
