#include "hetcoll/mpi/communicator.h"

#include <cstring>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "hetcoll/mpi/exchange.h"

namespace hetcoll::mpi {

std::vector<std::string> gather_processor_names(MPI_Comm comm, double timeout_seconds) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  std::vector<char> mine(MPI_MAX_PROCESSOR_NAME + 1, '\0');
  int length = 0;
  MPI_Get_processor_name(mine.data(), &length);
  std::vector<char> all(static_cast<size_t>(size) * mine.size(), '\0');
  MPI_Request request;
  PMPI_Iallgather(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, all.data(), static_cast<int>(mine.size()),
                  MPI_CHAR, comm, &request);
  wait_for_collective(request, comm, timeout_seconds, "hetcoll::mpi: gathering processor names");
  std::vector<std::string> names;
  for (int rank = 0; rank < size; ++rank) {
    const char* name = all.data() + static_cast<size_t>(rank) * mine.size();
    names.emplace_back(name, strnlen(name, mine.size()));
  }
  return names;
}

PrivateCommunicator::PrivateCommunicator(MPI_Comm user, double timeout_seconds) : user_(user) {
#ifdef HETCOLL_SMPI
  // SMPI has no MPI_Comm_idup; simulated runs need no timeout here.
  (void)timeout_seconds;
  MPI_Comm_dup(user, &private_);
#else
  MPI_Request request;
  MPI_Comm_idup(user, &private_, &request);
  wait_for_collective(request, user, timeout_seconds, "hetcoll::mpi: duplicating the communicator");
#endif
  // Errors come back as codes, so the runtime can say what failed (exchange.h).
  MPI_Comm_set_errhandler(private_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(private_, &rank_);
  MPI_Comm_size(private_, &size_);
}

PrivateCommunicator::~PrivateCommunicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && private_ != MPI_COMM_NULL) MPI_Comm_free(&private_);
}

void agree_on_outcome(MPI_Comm comm, const std::string& local_error, std::string_view what, double timeout_seconds) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // The lowest failing rank wins: it contributes (INT_MAX - rank), others 0.
  int mine = local_error.empty() ? 0 : std::numeric_limits<int>::max() - rank;
  int worst = 0;
  MPI_Request request;
  PMPI_Iallreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, comm, &request);
  wait_for_collective(request, comm, timeout_seconds, what);
  if (worst == 0) return;
  int failing_rank = std::numeric_limits<int>::max() - worst;
  int length = rank == failing_rank ? static_cast<int>(local_error.size()) : 0;
  PMPI_Bcast(&length, 1, MPI_INT, failing_rank, comm);
  std::string message(static_cast<size_t>(length), '\0');
  if (rank == failing_rank) message = local_error;
  if (length > 0) PMPI_Bcast(message.data(), length, MPI_CHAR, failing_rank, comm);
  throw MismatchError(fmt::format("{}: rank {} reports: {}", what, failing_rank, message));
}

void prepare_collectively(MPI_Comm comm, const RankMapping& mapping, const std::vector<std::string>& processor_ids,
                          std::string_view source_name, double timeout_seconds,
                          const std::function<std::uint64_t(const std::vector<ProcessorIndex>&)>& build) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Every rank takes part in the same collectives whatever it finds locally
  // (even if only some ranks asked for a mapping by processor name).
  int wants_names = mapping.kind() == RankMapping::Kind::by_processor_name ? 1 : 0;
  int any_wants_names = 0;
  constexpr std::string_view what = "hetcoll::mpi: preparing the plan";
  MPI_Request request;
  PMPI_Iallreduce(&wants_names, &any_wants_names, 1, MPI_INT, MPI_MAX, comm, &request);
  wait_for_collective(request, comm, timeout_seconds, what);
  std::vector<std::string> names;
  if (any_wants_names) names = gather_processor_names(comm, timeout_seconds);

  std::string local_error;
  std::uint64_t hash = 0;
  try {
    auto processor_count = static_cast<ProcessorIndex>(processor_ids.size());
    if (processor_count != size) {
      throw InputError(fmt::format("{}: the plan has {} processors but the communicator {} ranks", source_name,
                                   processor_count, size));
    }
    auto find = [&](std::string_view text) -> std::optional<ProcessorIndex> {
      for (size_t p = 0; p < processor_ids.size(); ++p) {
        if (processor_ids[p] == text) return static_cast<ProcessorIndex>(p);
      }
      return parse_processor_index(text, processor_ids.size());
    };
    auto processor_of_rank = mapping.resolve(size, processor_count, find, names, source_name);
    PlanHash mapping_hash;
    for (auto p : processor_of_rank) mapping_hash.add(static_cast<std::uint64_t>(p));
    mapping_hash.add(build(processor_of_rank));
    hash = mapping_hash.value();
  } catch (const std::exception& error) {
    local_error = error.what();
    if (local_error.empty()) local_error = "unknown error";
  }
  agree_on_outcome(comm, local_error, what, timeout_seconds);
  // Same plan and mapping everywhere? max(hash) == min(hash).
  std::uint64_t mine[2] = {hash, ~hash};
  std::uint64_t largest[2] = {0, 0};
  PMPI_Iallreduce(mine, largest, 2, MPI_UINT64_T, MPI_MAX, comm, &request);
  wait_for_collective(request, comm, timeout_seconds, what);
  if (largest[0] != ~largest[1]) {
    throw MismatchError(fmt::format(
        "hetcoll::mpi: preparing the plan: {}: the ranks hold different plans or rank mappings (rank {} has plan hash "
        "{:016x}); every rank must read the same plan file and mapping",
        source_name, rank, hash));
  }
}

void agree_on_hash(MPI_Comm comm, std::uint64_t hash, std::string_view what, double timeout_seconds) {
  // Same everywhere? max(hash) == ~max(~hash), i.e. max == min.
  std::uint64_t mine[2] = {hash, ~hash};
  std::uint64_t largest[2] = {0, 0};
  MPI_Request request;
  PMPI_Iallreduce(mine, largest, 2, MPI_UINT64_T, MPI_MAX, comm, &request);
  wait_for_collective(request, comm, timeout_seconds, what);
  if (largest[0] != ~largest[1]) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    throw MismatchError(fmt::format("{}: the ranks hold different programs (rank {} has hash {:016x})", what, rank,
                                    hash));
  }
}

}  // namespace hetcoll::mpi
