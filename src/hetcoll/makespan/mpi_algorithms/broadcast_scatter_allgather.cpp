// MPICH's long-message broadcasts, a binomial scatter then an allgather,
// as SimGrid SMPI 3.32 runs them (simgrid/simgrid, src/smpi/colls/bcast/;
// Thakur, Rabenseifner, Gropp, "Optimization of collective communication
// operations in MPICH", 2005):
//  * scatter_LR_allgather (bcast-scatter-LR-allgather.cpp): the root's
//    buffer, cut in p pieces of ceil(bytes / p) bytes, is scattered down a
//    binomial tree (blocking sends and receives), then a ring allgather:
//    p - 1 MPI_Sendrecv steps to the right neighbour, from the left one.
//  * scatter_rdb_allgather (bcast-scatter-rdb-allgather.cpp): the same
//    scatter, then a recursive-doubling allgather (MPI_Sendrecv with
//    rank xor 2^k), with MPICH's recursive-halving fix-up for a number of
//    ranks that is not a power of two. Nothing is sent for count 0.
// SimGrid cuts the buffer in bytes (MPI_BYTE); a program slices whole
// elements, so a call whose pieces split an element (ceil(bytes / p) not a
// multiple of element_bytes) is refused. Receives take the size their
// message has (MPICH posts the remaining buffer and reads the count).
// Guarantee: the same messages, in the same order, with the same blocking
// calls as SimGrid's code. Complexity: O(p log p) steps.
#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

std::string bcast_scatter_allgather_limit(int ranks, std::size_t count, std::size_t element_bytes) {
  if (ranks < 1) return {};
  const std::size_t bytes = count * element_bytes;
  const std::size_t piece = (bytes + static_cast<std::size_t>(ranks) - 1) / static_cast<std::size_t>(ranks);
  if (ranks > 1 && piece % element_bytes != 0) {
    return fmt::format("SimGrid cuts {} bytes in pieces of {} bytes, which split elements of {} bytes", bytes, piece,
                       element_bytes);
  }
  return {};
}

namespace {

long long signed_size(std::size_t value) { return static_cast<long long>(value); }

// scatter_for_bcast (in elements: the pieces are whole elements). Returns
// per rank the elements it holds after the scatter (Status::get_count).
std::vector<long long> binomial_scatter(CommProgram& program, int root, long long count, long long piece) {
  const int size = program.ranks;
  std::vector<long long> received(static_cast<std::size_t>(size), 0);  // by relative rank
  std::vector<long long> held(static_cast<std::size_t>(size), 0);
  for (int relative = 0; relative < size; ++relative) {
    const int rank = (relative + root) % size;
    long long current = relative == 0 ? count : 0;
    int mask = 1;
    while (mask < size) {
      if (relative & mask) {
        const long long receive_size = count - relative * piece;
        if (receive_size <= 0) {
          current = 0;
        } else {
          current = received[static_cast<std::size_t>(relative)];
          program.blocking_receive(rank, (rank - mask + size) % size,
                                   data_slice(static_cast<std::size_t>(relative * piece),
                                              static_cast<std::size_t>(current)));
        }
        break;
      }
      mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
      if (relative + mask < size) {
        const long long send_size = current - piece * mask;
        if (send_size > 0) {
          program.blocking_send(rank, (rank + mask) % size,
                                data_slice(static_cast<std::size_t>(piece * (relative + mask)),
                                           static_cast<std::size_t>(send_size)));
          received[static_cast<std::size_t>(relative + mask)] = send_size;
          current -= send_size;
        }
      }
    }
    held[static_cast<std::size_t>(rank)] = current;
  }
  return held;
}

}  // namespace

CommProgram bcast_scatter_LR_allgather_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("scatter_LR_allgather", ranks, root, count, element_bytes);
  if (auto why = bcast_scatter_allgather_limit(ranks, count, element_bytes); !why.empty()) {
    unsupported_call("scatter_LR_allgather", why);
  }
  CommProgram program(ranks, "scatter and ring allgather broadcast (SMPI)");
  if (ranks == 1) return program;
  const long long size = ranks;
  const long long elements = signed_size(count);
  const long long piece = (elements + size - 1) / size;
  binomial_scatter(program, root, elements, piece);
  std::vector<long long> counts(static_cast<std::size_t>(size)), displacements(static_cast<std::size_t>(size), 0);
  for (long long i = 0; i < size; ++i) counts[static_cast<std::size_t>(i)] = std::clamp(elements - i * piece, 0LL, piece);
  for (long long i = 1; i < size; ++i) {
    displacements[static_cast<std::size_t>(i)] =
        displacements[static_cast<std::size_t>(i - 1)] + counts[static_cast<std::size_t>(i - 1)];
  }
  auto block = [&](int source) {
    const auto b = static_cast<std::size_t>((source - root + ranks) % ranks);
    return data_slice(static_cast<std::size_t>(displacements[b]), static_cast<std::size_t>(counts[b]));
  };
  for (int rank = 0; rank < ranks; ++rank) {
    const int left = (ranks + rank - 1) % ranks;
    const int right = (rank + 1) % ranks;
    int source = rank;
    int next_source = left;
    for (int i = 1; i < ranks; ++i) {
      program.send_receive(rank, right, block(source), left, block(next_source));
      source = next_source;
      next_source = (ranks + next_source - 1) % ranks;
    }
  }
  return program;
}

CommProgram bcast_scatter_rdb_allgather_program(int ranks, int root, std::size_t count, std::size_t element_bytes) {
  check_call("scatter_rdb_allgather", ranks, root, count, element_bytes);
  if (auto why = bcast_scatter_allgather_limit(ranks, count, element_bytes); !why.empty()) {
    unsupported_call("scatter_rdb_allgather", why);
  }
  CommProgram program(ranks, "scatter and recursive-doubling allgather broadcast (SMPI)");
  if (ranks == 1 || count == 0) return program;
  const int size = ranks;
  const long long elements = signed_size(count);
  const long long piece = (elements + size - 1) / size;
  binomial_scatter(program, root, elements, piece);
  // Per relative rank: the elements held (curr_size) and the last receive's size (recv_size).
  std::vector<long long> current(static_cast<std::size_t>(size)), last_received(static_cast<std::size_t>(size), 0);
  for (int relative = 0; relative < size; ++relative) {
    current[static_cast<std::size_t>(relative)] = std::max(0LL, std::min(piece, elements - relative * piece));
  }
  auto rank_of = [&](int relative) { return (relative + root) % size; };
  // MPICH points past the buffer for empty messages; a slice stays inside.
  auto slice_at = [&](long long offset, long long length) {
    return data_slice(static_cast<std::size_t>(length == 0 ? std::min(offset, elements) : offset),
                      static_cast<std::size_t>(length));
  };
  int i = 0;
  for (int mask = 1; mask < size; mask <<= 1, ++i) {
    const std::vector<long long> before = current;
    for (int relative = 0; relative < size; ++relative) {
      const int relative_dst = relative ^ mask;
      if (relative_dst >= size) continue;
      const long long my_tree_root = static_cast<long long>(relative >> i) << i;
      const long long dst_tree_root = static_cast<long long>(relative_dst >> i) << i;
      const long long incoming = before[static_cast<std::size_t>(relative_dst)];
      program.send_receive(rank_of(relative), rank_of(relative_dst),
                           slice_at(my_tree_root * piece, before[static_cast<std::size_t>(relative)]),
                           rank_of(relative_dst), slice_at(dst_tree_root * piece, incoming));
      last_received[static_cast<std::size_t>(relative)] = incoming;
      current[static_cast<std::size_t>(relative)] += incoming;
    }
    // MPICH's fix-up for ranks whose partner does not exist (processed
    // level by level: at one level a rank sends or receives, not both).
    int k = 0;
    for (int j = mask; j; j >>= 1) ++k;
    --k;
    int level_k = k;
    for (int tmp_mask = mask >> 1; tmp_mask; tmp_mask >>= 1, --level_k) {
      std::vector<std::pair<int, long long>> arrivals;  // relative rank, size
      for (int relative = 0; relative < size; ++relative) {
        const int dst_tree_root = ((relative ^ mask) >> i) << i;
        if (dst_tree_root + mask <= size) continue;
        const int my_tree_root = (relative >> i) << i;
        const int completed = size - my_tree_root - mask;
        const long long offset = piece * (my_tree_root + mask);
        const int relative_dst = relative ^ tmp_mask;
        const int tree_root = (relative >> level_k) << level_k;
        if (relative_dst > relative && relative < tree_root + completed && relative_dst >= tree_root + completed) {
          program.blocking_send(rank_of(relative), rank_of(relative_dst % size),
                                slice_at(offset, last_received[static_cast<std::size_t>(relative)]));
          arrivals.emplace_back(relative_dst, last_received[static_cast<std::size_t>(relative)]);
        } else if (relative_dst < relative && relative_dst < tree_root + completed &&
                   relative >= tree_root + completed) {
          // The sender is relative_dst, processed before (lower rank): its size is in `arrivals`.
          long long arriving = 0;
          for (const auto& [to, length] : arrivals) {
            if (to == relative) arriving = length;
          }
          program.blocking_receive(rank_of(relative), rank_of(relative_dst), slice_at(offset, arriving));
        }
      }
      for (const auto& [to, length] : arrivals) {
        if (to < size) {
          last_received[static_cast<std::size_t>(to)] = length;
          current[static_cast<std::size_t>(to)] += length;
        }
      }
    }
  }
  return program;
}

}  // namespace hetcoll::mpi_programs
