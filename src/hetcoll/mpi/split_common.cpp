#include <climits>
#include <map>

#include <fmt/format.h>

#include "hetcoll/mpi/split_common_internal.h"

namespace hetcoll::mpi::split_common {

void check_pieces(std::size_t plan_members, std::size_t member_count, std::size_t chunks, std::size_t elements,
                  const std::vector<SplitPiece>& pieces, std::string_view source_name) {
  if (plan_members != member_count) {
    throw InputError(fmt::format("{}: the plan has {} members, the communicator {} ranks", source_name, plan_members,
                                 member_count));
  }
  if (chunks == 0) throw InputError(fmt::format("{}: chunks must be at least 1", source_name));
  if (elements > static_cast<std::size_t>(INT_MAX)) {
    throw InputError(fmt::format("{}: {} elements do not fit an MPI count", source_name, elements));
  }
  std::vector<char> has_piece(plan_members, 0);
  std::map<std::size_t, std::size_t> by_first;
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    const auto& piece = pieces[p];
    if (piece.spreader >= plan_members || has_piece[piece.spreader]++ || piece.elements == 0) {
      throw InputError(fmt::format("{}: pieces[{}]: spreader out of range, with two pieces, or empty", source_name, p));
    }
    by_first[piece.first] = piece.elements;
  }
  std::size_t covered = 0;
  for (const auto& [first, count] : by_first) {
    if (first != covered) throw InputError(fmt::format("{}: the pieces do not cover element {} once", source_name, covered));
    covered += count;
  }
  if (covered != elements) {
    throw InputError(fmt::format("{}: the pieces cover {} of {} elements", source_name, covered, elements));
  }
}

void hash_pieces(PlanHash& hash, std::size_t elements, std::size_t chunks, const std::vector<SplitPiece>& pieces) {
  hash.add(elements);
  hash.add(chunks);
  for (const auto& piece : pieces) {
    hash.add(piece.spreader);
    hash.add(piece.first);
    hash.add(piece.elements);
  }
}

std::vector<int> ranks_of_members(const std::vector<ProcessorIndex>& member_of_rank, std::size_t members) {
  std::vector<int> rank_of(members, -1);
  for (std::size_t r = 0; r < member_of_rank.size(); ++r) rank_of[static_cast<std::size_t>(member_of_rank[r])] = static_cast<int>(r);
  return rank_of;
}

void check_call(MPI_Comm comm, MPI_Comm plan_comm, int count, std::size_t elements, std::string_view call) {
  if (comm != plan_comm) {
    int relation = MPI_UNEQUAL;
    MPI_Comm_compare(comm, plan_comm, &relation);
    if (relation != MPI_IDENT && relation != MPI_CONGRUENT) {
      throw MismatchError(fmt::format("{}: the plan was prepared on another communicator", call));
    }
  }
  if (count < 0 || static_cast<std::size_t>(count) != elements) {
    throw MismatchError(fmt::format("{}: count {} given, but the plan splits {} elements", call, count, elements));
  }
}

}  // namespace hetcoll::mpi::split_common
