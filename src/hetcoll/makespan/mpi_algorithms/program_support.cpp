#include "hetcoll/makespan/mpi_algorithms/program_support.h"

#include <climits>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll::mpi_programs {

void check_call(const char* algorithm, int ranks, int root, std::size_t count, std::size_t element_bytes) {
  if (ranks < 1) throw InputError("ranks", fmt::format("{}: must be at least 1, got {}", algorithm, ranks));
  if (root < 0 || root >= ranks) {
    throw InputError("root", fmt::format("{}: must be a rank in 0..{}, got {}", algorithm, ranks - 1, root));
  }
  if (element_bytes < 1) throw InputError("element_bytes", fmt::format("{}: must be at least 1", algorithm));
  if (count > static_cast<std::size_t>(INT_MAX) || count * element_bytes > static_cast<std::size_t>(INT_MAX)) {
    throw InputError("count", fmt::format("{}: {} elements of {} bytes exceed an MPI int of bytes", algorithm, count,
                                          element_bytes));
  }
}

void unsupported_call(const char* algorithm, const std::string& why) {
  throw InputError("algorithm", fmt::format("{}: {}", algorithm, why));
}

namespace {

int power(int fanout, int exponent) {
  int p = 1;
  for (int j = 0; j < exponent; ++j) p *= fanout;
  return p;
}

}  // namespace

TreeNode ompi_tree(int fanout, int ranks, int root, int rank) {
  TreeNode node;
  if (ranks < 2) return node;
  const int shifted = (rank - root + ranks) % ranks;
  // calculate_level: the level whose cumulated size first exceeds `shifted`.
  int level = 0;
  for (int num = 0; num <= shifted; ++level) num += power(fanout, level);
  level -= 1;
  const int delta = power(fanout, level);
  for (int i = 0; i < fanout; ++i) {
    const int child = shifted + delta * (i + 1);
    if (child >= ranks) break;
    node.children.push_back((child + root) % ranks);
  }
  if (shifted == 0) return node;
  const int slimit = fanout > 1 ? (power(fanout, level) - 1) / (fanout - 1) : 0;
  int parent = shifted;
  if (parent < fanout) {
    parent = 0;
  } else {
    while (parent >= slimit) parent -= delta / fanout;
  }
  node.parent = (parent + root) % ranks;
  return node;
}

TreeNode ompi_chain(int ranks, int root, int rank) {
  TreeNode node;
  const int shifted = (rank - root + ranks) % ranks;
  if (shifted > 0) node.parent = (shifted - 1 + root) % ranks;
  if (shifted + 1 < ranks) node.children.push_back((shifted + 1 + root) % ranks);
  return node;
}

TreeNode ompi_in_order_binomial_tree(int ranks, int root, int rank) {
  TreeNode node;
  const int vrank = (rank - root + ranks) % ranks;
  for (int mask = 1; mask < ranks; mask <<= 1) {
    const int remote = vrank ^ mask;
    if (remote < vrank) {
      node.parent = (remote + root) % ranks;
      break;
    }
    if (remote < ranks) node.children.push_back((remote + root) % ranks);
  }
  return node;
}

std::size_t ompi_segment_count(std::size_t segment_bytes, std::size_t element_bytes, std::size_t count) {
  if (segment_bytes >= element_bytes && segment_bytes < element_bytes * count) {
    std::size_t segment_count = segment_bytes / element_bytes;
    const std::size_t residual = segment_bytes - segment_count * element_bytes;
    if (residual > (element_bytes >> 1)) ++segment_count;
    return segment_count;
  }
  return count;
}

CommProgram run_in_sequence(CommProgram first, const CommProgram& second, std::string name) {
  if (first.ranks != second.ranks) throw std::logic_error("run_in_sequence: programs of different rank counts");
  const auto shift = static_cast<std::uint32_t>(first.buffer_elements.size() - 1);
  for (std::size_t b = 1; b < second.buffer_elements.size(); ++b) first.buffer_elements.push_back(second.buffer_elements[b]);
  auto renumber = [&](Slice slice) {
    if (slice.buffer != 0) slice.buffer += shift;
    return slice;
  };
  for (int rank = 0; rank < first.ranks; ++rank) {
    auto& steps = first.steps[static_cast<std::size_t>(rank)];
    const auto offset = static_cast<std::uint32_t>(steps.size());
    for (auto step : second.steps[static_cast<std::size_t>(rank)]) {
      step.data = renumber(step.data);
      step.into = renumber(step.into);
      for (auto& request : step.requests) request += offset;
      steps.push_back(std::move(step));
    }
  }
  first.name = std::move(name);
  return first;
}

}  // namespace hetcoll::mpi_programs
