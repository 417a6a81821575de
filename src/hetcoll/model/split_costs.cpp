#include "hetcoll/model/split_costs.h"

#include <algorithm>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

namespace {

// The two message sizes SplitCosts::of reads the affine costs from.
constexpr double kSmallBytes = 1024;
constexpr double kLargeBytes = 65536;

}  // namespace

SplitCosts::SplitCosts(const EagerMatrix& at_a, double bytes_a, const EagerMatrix& at_b, double bytes_b)
    : members_(at_a.members()) {
  if (!(bytes_b > bytes_a) || at_a.members() != at_b.members()) {
    throw InputError("message_size", "split costs need the same members at two different message sizes");
  }
  const std::size_t k = members_.size();
  pairs_.assign(k * k, Pair{});
  for (std::size_t i = 0; i < k; ++i) {
    for (std::size_t j = 0; j < k; ++j) {
      if (i == j) continue;
      const auto& a = at_a.cost(i, j);
      const auto& b = at_b.cost(i, j);
      if (!a.connected() || !b.connected()) {
        throw InputError("participants",
                         fmt::format("the split broadcast needs a route between every two participants; there is "
                                     "none from participant {} to participant {}", members_[i], members_[j]));
      }
      Pair& pair = pairs_[i * k + j];
      pair.per_byte = std::max(0.0, (b.occupancy - a.occupancy) / (bytes_b - bytes_a));
      pair.fixed = std::max(0.0, a.occupancy - bytes_a * pair.per_byte);
      pair.delay = a.delay;
    }
  }
}

SplitCosts SplitCosts::of(const Platform& platform, std::vector<ProcessorIndex> members) {
  GraphNetwork small(platform, kSmallBytes), large(platform, kLargeBytes);
  EagerMatrix at_small(small, members), at_large(large, std::move(members));
  return SplitCosts(at_small, kSmallBytes, at_large, kLargeBytes);
}

}  // namespace hetcoll
