// What the split broadcast and the split all-reduce runtimes share
// (split_broadcast.h, split_allreduce.h): the checks of a plan's pieces,
// their hash, the rank of each member and the checks of a call. Internal
// to the MPI runtime (not installed as an interface of its own).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "hetcoll/makespan/split/split_broadcast.h"
#include "hetcoll/mpi/executable_plan.h"
#include <mpi.h>

namespace hetcoll::mpi::split_common {

// Throws InputError naming `source_name` unless the plan has
// `member_count` members, at least one chunk, a count MPI can take, and
// pieces with distinct, in-range spreaders (aggregators), none empty,
// covering [0, elements) once.
void check_pieces(std::size_t plan_members, std::size_t member_count, std::size_t chunks, std::size_t elements,
                  const std::vector<SplitPiece>& pieces, std::string_view source_name);

// Adds the elements, chunks and pieces to `hash`.
void hash_pieces(PlanHash& hash, std::size_t elements, std::size_t chunks, const std::vector<SplitPiece>& pieces);

// rank_of[member] from the member each rank plays.
std::vector<int> ranks_of_members(const std::vector<ProcessorIndex>& member_of_rank, std::size_t members);

// Throws MismatchError (naming `call`) unless `comm` is the plan's user
// communicator (or congruent to it) and `count` is the plan's elements.
void check_call(MPI_Comm comm, MPI_Comm plan_comm, int count, std::size_t elements, std::string_view call);

}  // namespace hetcoll::mpi::split_common
