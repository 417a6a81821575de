// The memo (transposition table) of the exact searches (broadcast/
// optimal_search.cpp, reduce/optimal_search.cpp): a state, encoded as a
// vector of integers, maps to one double; storing a key again keeps the
// larger value (both searches store lower bounds, which only rise).
// Open addressing over keys kept in one arena: no allocation per lookup,
// none per store once grown. Stores that would take the table past its
// byte budget are dropped (the search stays exact, it just forgets).
// Lookups compare whole keys, never hashes alone.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hetcoll {

class MemoTable {
 public:
  explicit MemoTable(std::size_t budget_bytes) : budget_bytes_(budget_bytes) {}

  const double* find(const std::vector<std::int64_t>& key, std::uint64_t hash) const {
    if (slots_.empty()) return nullptr;
    for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
      const Slot& slot = slots_[i];
      if (slot.length == 0) return nullptr;
      if (slot.hash == hash && slot.length == key.size() &&
          std::equal(key.begin(), key.end(), arena_.begin() + static_cast<std::ptrdiff_t>(slot.offset))) {
        return &slot.value;
      }
    }
  }

  void store(const std::vector<std::int64_t>& key, std::uint64_t hash, double value) {
    // Stay within the budget, counting the reallocations ahead.
    const std::size_t needed = arena_.size() + key.size();
    std::size_t arena_capacity = arena_.capacity();
    if (needed > arena_capacity) arena_capacity = std::max(needed, 2 * arena_capacity);
    std::size_t slot_count = slots_.size();
    if ((size_ + 1) * 2 > slot_count) slot_count = slot_count == 0 ? 1024 : 2 * slot_count;
    if (arena_capacity * sizeof(std::int64_t) + slot_count * sizeof(Slot) > budget_bytes_) return;
    arena_.reserve(arena_capacity);
    if (slot_count != slots_.size()) grow();
    for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.length == 0) {
        slot = {hash, arena_.size(), static_cast<std::uint32_t>(key.size()), value};
        arena_.insert(arena_.end(), key.begin(), key.end());
        ++size_;
        return;
      }
      if (slot.hash == hash && slot.length == key.size() &&
          std::equal(key.begin(), key.end(), arena_.begin() + static_cast<std::ptrdiff_t>(slot.offset))) {
        slot.value = std::max(slot.value, value);
        return;
      }
    }
  }

  std::size_t size() const { return size_; }
  std::size_t bytes() const { return arena_.capacity() * sizeof(std::int64_t) + slots_.size() * sizeof(Slot); }

 private:
  struct Slot {
    std::uint64_t hash = 0;
    std::size_t offset = 0;
    std::uint32_t length = 0;  // 0 = empty (keys are never empty)
    double value = 0;
  };

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.length == 0) continue;
      std::size_t i = slot.hash & mask_;
      while (slots_[i].length != 0) i = (i + 1) & mask_;
      slots_[i] = slot;
    }
  }

  std::size_t budget_bytes_;
  std::size_t size_ = 0;
  std::size_t mask_ = 0;
  std::vector<Slot> slots_;
  std::vector<std::int64_t> arena_;
};

inline std::uint64_t hash_key(const std::vector<std::int64_t>& key) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ key.size();
  for (std::int64_t v : key) {
    h ^= static_cast<std::uint64_t>(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ULL;
  }
  return h ^ (h >> 31);
}

}  // namespace hetcoll
