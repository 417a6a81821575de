// MPI_Allgather as SimGrid SMPI 3.32 runs it (simgrid/simgrid,
// src/smpi/colls/allgather/ and smpi_nbc_impl.cpp's iallgather). Buffer 0
// is the receive buffer: `ranks` blocks of `count` elements, block r rank
// r's contribution; the caller has copied each rank's own block in (SMPI's
// Datatype::copy or send-receive to itself, which is a local copy).
//  * default (SMPI's default selector): every rank Isends its block to
//    every other and Irecvs every other's, all posted at once, one wait;
//  * ring (allgather-ring.cpp): step i = 1 .. p-1, MPI_Sendrecv of the
//    own block to rank + i, from rank - i (a shifted direct exchange);
//  * pair (allgather-pair.cpp, p a power of two): step i, MPI_Sendrecv of
//    the own block with rank xor i;
//  * NTSLR (allgather-NTSLR.cpp): the logical ring: p - 1 MPI_Sendrecv,
//    the block received last goes on to the right neighbour;
//  * bruck (allgather-bruck.cpp): blocks gathered in a scratch buffer in
//    the order rank, rank+1, ...: doubling exchanges with rank - 2^k /
//    rank + 2^k, a last partial one for the remainder, then two local
//    copies rotating the blocks into place;
//  * rdb (allgather-rdb.cpp) for p a power of two: recursive doubling
//    (MPI_Sendrecv with rank xor 2^k of the subtree's blocks); SimGrid's
//    fix-up for other p is not modelled (refused);
//  * rhv (allgather-rhv.cpp, p a power of two): each rank first swaps its
//    block with the rank of its bit-reversed number, then exchanges
//    doubling runs of blocks with rank xor p/2, p/4, ..., 1 (the far
//    partners first, with the smallest messages).
// Guarantee: the same messages, in the same order, with the same blocking
// calls as SimGrid's code (tested against SMPI: smpi_mpi_algorithms).
// Complexity: O(p^2) steps (default, ring, pair, NTSLR), O(p log p) (bruck,
// rdb).
#include <algorithm>

#include <fmt/format.h>

#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/program_support.h"

namespace hetcoll::mpi_programs {

namespace {

bool power_of_two(int ranks) { return ranks > 0 && (ranks & (ranks - 1)) == 0; }

Slice block(int rank, std::size_t count) { return data_slice(static_cast<std::size_t>(rank) * count, count); }

// The receive buffer (every rank's block) must fit an MPI int of bytes.
void check_allgather(const char* algorithm, int ranks, std::size_t count, std::size_t element_bytes) {
  check_call(algorithm, ranks, 0, static_cast<std::size_t>(std::max(ranks, 1)) * count, element_bytes);
}

}  // namespace

std::string allgather_power_of_two_limit(int ranks, std::size_t, std::size_t) {
  if (power_of_two(ranks)) return {};
  return fmt::format("SimGrid's code needs a power of two ranks, not {}", ranks);
}

std::string allgather_rdb_limit(int ranks, std::size_t, std::size_t) {
  if (power_of_two(ranks)) return {};
  return fmt::format("modelled for a power of two ranks only (SimGrid's fix-up for {} ranks is not)", ranks);
}

CommProgram allgather_default_program(int ranks, int /*root*/, std::size_t count, std::size_t element_bytes) {
  check_allgather("default", ranks, count, element_bytes);
  CommProgram program(ranks, "every rank sends its block to every other at once (SMPI's default)");
  for (int rank = 0; rank < ranks; ++rank) {
    std::vector<std::uint32_t> requests;
    for (int other = 0; other < ranks; ++other) {
      if (other == rank) continue;
      requests.push_back(program.add(rank, ProgramStep::send_of(other, block(rank, count))));
      requests.push_back(program.add(rank, ProgramStep::receive_of(other, block(other, count))));
    }
    if (!requests.empty()) program.add(rank, ProgramStep::wait_for(std::move(requests)));
  }
  return program;
}

CommProgram allgather_ring_program(int ranks, int /*root*/, std::size_t count, std::size_t element_bytes) {
  check_allgather("ring", ranks, count, element_bytes);
  CommProgram program(ranks, "shifted exchange: step i with rank + i and rank - i (SMPI's ring)");
  for (int rank = 0; rank < ranks; ++rank) {
    for (int i = 1; i < ranks; ++i) {
      const int from = (rank - i + ranks) % ranks;
      const int to = (rank + i) % ranks;
      program.send_receive(rank, to, block(rank, count), from, block(from, count));
    }
  }
  return program;
}

CommProgram allgather_pair_program(int ranks, int /*root*/, std::size_t count, std::size_t element_bytes) {
  check_allgather("pair", ranks, count, element_bytes);
  if (auto why = allgather_power_of_two_limit(ranks, count, element_bytes); !why.empty()) unsupported_call("pair", why);
  CommProgram program(ranks, "pairwise exchange with rank xor i");
  for (int rank = 0; rank < ranks; ++rank) {
    for (int i = 1; i < ranks; ++i) {
      const int peer = rank ^ i;
      program.send_receive(rank, peer, block(rank, count), peer, block(peer, count));
    }
  }
  return program;
}

CommProgram allgather_NTSLR_program(int ranks, int /*root*/, std::size_t count, std::size_t element_bytes) {
  check_allgather("NTSLR", ranks, count, element_bytes);
  CommProgram program(ranks, "logical ring: each block passed on to the right");
  for (int rank = 0; rank < ranks; ++rank) {
    const int right = (rank + 1) % ranks;
    const int left = (rank + ranks - 1) % ranks;
    for (int i = 0; i + 1 < ranks; ++i) {
      program.send_receive(rank, right, block((rank - i + ranks) % ranks, count), left,
                           block((rank - i - 1 + ranks) % ranks, count));
    }
  }
  return program;
}

CommProgram allgather_bruck_program(int ranks, int /*root*/, std::size_t count, std::size_t element_bytes) {
  check_allgather("bruck", ranks, count, element_bytes);
  CommProgram program(ranks, "Bruck: doubling exchanges in a rotated scratch buffer");
  const auto p = static_cast<std::size_t>(ranks);
  const std::uint32_t scratch = program.add_buffer(p * count);
  for (int rank = 0; rank < ranks; ++rank) {
    program.add(rank, ProgramStep::copy_of(block(rank, count), scratch_slice(scratch, 0, count)));
    std::size_t held = count;
    int distance = 1;
    while (distance <= ranks / 2) {
      const int from = (rank + distance) % ranks;
      const int to = (rank - distance + ranks) % ranks;
      program.send_receive(rank, to, scratch_slice(scratch, 0, held), from, scratch_slice(scratch, held, held));
      held *= 2;
      distance *= 2;
    }
    if (const int remainder = ranks - distance; remainder > 0) {
      const int from = (rank + distance) % ranks;
      const int to = (rank - distance + ranks) % ranks;
      const std::size_t part = static_cast<std::size_t>(remainder) * count;
      program.send_receive(rank, to, scratch_slice(scratch, 0, part), from, scratch_slice(scratch, held, part));
    }
    const auto r = static_cast<std::size_t>(rank);
    program.add(rank, ProgramStep::copy_of(scratch_slice(scratch, 0, (p - r) * count),
                                           data_slice(r * count, (p - r) * count)));
    if (rank > 0) {
      program.add(rank, ProgramStep::copy_of(scratch_slice(scratch, (p - r) * count, r * count),
                                             data_slice(0, r * count)));
    }
  }
  return program;
}

CommProgram allgather_rhv_program(int ranks, int /*root*/, std::size_t count, std::size_t element_bytes) {
  check_allgather("rhv", ranks, count, element_bytes);
  if (auto why = allgather_power_of_two_limit(ranks, count, element_bytes); !why.empty()) unsupported_call("rhv", why);
  CommProgram program(ranks, "recursive halving of the partner distance, bit-reversed start");
  for (int rank = 0; rank < ranks; ++rank) {
    int base = 0;
    int mask = 1;
    for (int size = ranks / 2; mask < ranks; mask <<= 1, size /= 2) {
      if (rank & mask) base += size;
    }
    // The first exchange: the own block to rank `base`, block `base` from it
    // (SMPI's send-receive with itself is the local copy already made).
    if (base != rank) program.send_receive(rank, base, block(rank, count), base, block(base, count));
    std::size_t blocks = 1;
    int step = 1;
    for (mask >>= 1; mask >= 1; mask >>= 1, step *= 2, blocks *= 2) {
      const int peer = rank ^ mask;
      const int send_base = base;
      int receive_base = base + step;
      if (rank & mask) {
        receive_base = base - step;
        base -= step;
      }
      program.send_receive(rank, peer, data_slice(static_cast<std::size_t>(send_base) * count, blocks * count), peer,
                           data_slice(static_cast<std::size_t>(receive_base) * count, blocks * count));
    }
  }
  return program;
}

CommProgram allgather_rdb_program(int ranks, int /*root*/, std::size_t count, std::size_t element_bytes) {
  check_allgather("rdb", ranks, count, element_bytes);
  if (auto why = allgather_rdb_limit(ranks, count, element_bytes); !why.empty()) unsupported_call("rdb", why);
  CommProgram program(ranks, "recursive doubling");
  for (int rank = 0; rank < ranks; ++rank) {
    std::size_t held = count;
    int level = 0;
    for (int mask = 1; mask < ranks; mask <<= 1, ++level) {
      const int peer = rank ^ mask;
      const auto my_first = static_cast<std::size_t>((rank >> level) << level);
      const auto peer_first = static_cast<std::size_t>((peer >> level) << level);
      program.send_receive(rank, peer, data_slice(my_first * count, held), peer,
                           data_slice(peer_first * count, static_cast<std::size_t>(mask) * count));
      held += static_cast<std::size_t>(mask) * count;
    }
  }
  return program;
}

}  // namespace hetcoll::mpi_programs
