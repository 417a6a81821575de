// The affine eager cost model the split plans are planned and checked in:
// between every two members, occupancy(u, v, S) = fixed + S x per_byte and a
// delay independent of S, read from the eager matrices (model/eager_model.h)
// of the same members at two message sizes.
#pragma once

#include <cstddef>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/eager_model.h"
#include "hetcoll/model/graph_network.h"

namespace hetcoll {

// Affine eager costs between members: occupancy(u, v, S) = fixed + S x
// per_byte, delay independent of S.
class SplitCosts {
 public:
  SplitCosts() = default;
  // From the eager matrices of the same members at two different message
  // sizes (bytes_a < bytes_b). Throws InputError (parameter "participants")
  // when two members are not connected.
  SplitCosts(const EagerMatrix& at_a, double bytes_a, const EagerMatrix& at_b, double bytes_b);
  // Builds both matrices for `members` of `platform` (sizes 1 KiB and 64 KiB).
  static SplitCosts of(const Platform& platform, std::vector<ProcessorIndex> members);

  std::size_t size() const { return members_.size(); }
  const std::vector<ProcessorIndex>& members() const { return members_; }
  double occupancy(std::size_t from, std::size_t to, double bytes) const {
    const auto& pair = pairs_[from * members_.size() + to];
    return pair.fixed + bytes * pair.per_byte;
  }
  double delay(std::size_t from, std::size_t to) const { return pairs_[from * members_.size() + to].delay; }
  double per_byte(std::size_t from, std::size_t to) const { return pairs_[from * members_.size() + to].per_byte; }

 private:
  struct Pair {
    double fixed = 0, per_byte = 0, delay = 0;
  };
  std::vector<ProcessorIndex> members_;
  std::vector<Pair> pairs_;
};

}  // namespace hetcoll
