// The route of one planned message: the platform edges it travels, in order.
//
// A Transfer carries one, and most plans are sender-speed plans whose routes
// are all empty; a million-transfer plan must not pay 24 bytes per transfer
// for a std::vector that is never filled. TransferRoute is one pointer (8 bytes; null when empty) to a
// single heap block [size, edge 0, edge 1, ...], with the part of the
// std::vector interface that plans use (so code written against
// `std::vector<std::size_t> route` reads the same), and converts to and from
// Route (model/platform.h's std::vector<std::size_t>) and std::span.
// Copying copies the edges; moving moves the pointer.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <span>
#include <vector>

namespace hetcoll {

class TransferRoute {
 public:
  using value_type = std::size_t;
  using size_type = std::size_t;
  using const_iterator = const std::size_t*;
  using iterator = const_iterator;  // read-only: change a route with assign/push_back/clear

  TransferRoute() = default;
  TransferRoute(std::span<const std::size_t> edges) { assign(edges.begin(), edges.end()); }  // NOLINT(implicit)
  TransferRoute(const std::vector<std::size_t>& edges) : TransferRoute(std::span<const std::size_t>(edges)) {}  // NOLINT
  TransferRoute(std::initializer_list<std::size_t> edges) { assign(edges.begin(), edges.end()); }
  TransferRoute(const TransferRoute& other) : TransferRoute(std::span<const std::size_t>(other)) {}
  TransferRoute(TransferRoute&&) noexcept = default;
  TransferRoute& operator=(const TransferRoute& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  TransferRoute& operator=(TransferRoute&&) noexcept = default;
  TransferRoute& operator=(std::initializer_list<std::size_t> edges) {
    assign(edges.begin(), edges.end());
    return *this;
  }

  template <typename Iterator>
  void assign(Iterator first, Iterator last) {
    const auto count = static_cast<std::size_t>(std::distance(first, last));
    if (count == 0) {
      block_.reset();
      return;
    }
    if (count > capacity()) block_ = allocate(count);
    block_[0] = count;
    std::copy(first, last, block_.get() + 1);
  }
  void push_back(std::size_t edge) {
    const std::size_t count = size();
    if (count == capacity()) {
      auto grown = allocate(count + 1);
      std::copy(begin(), end(), grown.get() + 1);
      block_ = std::move(grown);
    }
    block_[count + 1] = edge;
    block_[0] = count + 1;
  }
  void clear() { block_.reset(); }

  bool empty() const { return !block_; }
  std::size_t size() const { return block_ ? block_[0] : 0; }
  const_iterator begin() const { return block_ ? block_.get() + 1 : nullptr; }
  const_iterator end() const { return block_ ? block_.get() + 1 + block_[0] : nullptr; }
  std::size_t operator[](std::size_t k) const { return block_[k + 1]; }
  std::size_t front() const { return block_[1]; }
  std::size_t back() const { return block_[block_[0]]; }

  operator std::span<const std::size_t>() const { return {begin(), size()}; }  // NOLINT(implicit)
  operator std::vector<std::size_t>() const { return {begin(), end()}; }     // NOLINT(implicit)

  friend bool operator==(const TransferRoute& a, const TransferRoute& b) { return std::ranges::equal(a, b); }
  friend bool operator==(const TransferRoute& a, const std::vector<std::size_t>& b) { return std::ranges::equal(a, b); }

 private:
  // Room for the edges a block holds: the power of two at least its size.
  std::size_t capacity() const { return block_ ? std::bit_ceil(block_[0]) : 0; }
  static std::unique_ptr<std::size_t[]> allocate(std::size_t count) {
    return std::make_unique_for_overwrite<std::size_t[]>(std::bit_ceil(count) + 1);
  }

  std::unique_ptr<std::size_t[]> block_;  // [size, edges...]; null when empty
};

static_assert(sizeof(TransferRoute) == sizeof(void*));

}  // namespace hetcoll
