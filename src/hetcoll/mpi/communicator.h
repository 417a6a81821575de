// What every prepared collective of the MPI runtime shares: the private
// communicator it talks on, the collective agreement on a local outcome
// (a failure on one rank is an error on every rank, never a hang), and a
// hash by which ranks make sure they hold the same plan or program.
//
// Cost: agree_on_outcome is one small all-reduce (and a broadcast of the
// message when a rank failed); prepare_collectively adds an all-reduce of
// the hashes and, for mappings by processor name, an all-gather of names.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>

#include "hetcoll/core/error.h"
#include "hetcoll/core/ids.h"
#include "hetcoll/mpi/rank_mapping.h"

namespace hetcoll::mpi {

// A plan that does not fit the communicator or the call, reported on every rank.
class MismatchError : public InputError {
 public:
  using InputError::InputError;
};

// The communicator the runtime talks on: a duplicate of the user's, freed
// when the last plan using it goes (unless MPI is already finalized).
class PrivateCommunicator {
 public:
  // Collective (MPI_Comm_dup); timeout_seconds > 0 bounds the wait (exchange.h).
  explicit PrivateCommunicator(MPI_Comm user, double timeout_seconds = 0);
  ~PrivateCommunicator();
  PrivateCommunicator(const PrivateCommunicator&) = delete;
  PrivateCommunicator& operator=(const PrivateCommunicator&) = delete;
  MPI_Comm user() const { return user_; }
  MPI_Comm get() const { return private_; }
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  MPI_Comm user_ = MPI_COMM_NULL;
  MPI_Comm private_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 0;
};

// After a local failure or success, tells every rank the outcome: returns
// normally when no rank failed, throws MismatchError with the first failing
// rank's message on every rank otherwise. `what` says what was being done.
// Collective over `comm` (uses PMPI_ calls, so it works inside the PMPI
// library too).
// `timeout_seconds` > 0 bounds the wait for the other ranks (exchange.h).
void agree_on_outcome(MPI_Comm comm, const std::string& local_error, std::string_view what,
                      double timeout_seconds = 0);

// Collective: throws MismatchError on every rank unless every rank passed
// the same `hash` (`what` says what was compared).
void agree_on_hash(MPI_Comm comm, std::uint64_t hash, std::string_view what, double timeout_seconds = 0);

// FNV-1a, 64 bits: ranks compare plans by this hash of what they will run.
class PlanHash {
 public:
  void add(std::uint64_t value) {
    for (int byte = 0; byte < 8; ++byte) {
      hash_ ^= (value >> (8 * byte)) & 0xff;
      hash_ *= 0x100000001b3ULL;
    }
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// The collective part of preparing any plan: resolves `mapping` (gathering
// processor names if any rank maps by name), calls `build` with each rank's
// processor (it checks the plan, fills the caller's result and returns a
// hash of what this rank will run), then agrees with every rank: a failure
// anywhere, or different hashes, is a MismatchError on every rank.
void prepare_collectively(MPI_Comm comm, const RankMapping& mapping, const std::vector<std::string>& processor_ids,
                          std::string_view source_name, double timeout_seconds,
                          const std::function<std::uint64_t(const std::vector<ProcessorIndex>& processor_of_rank)>& build);

// Every rank's MPI_Get_processor_name, by rank (collective, PMPI_Allgather).
std::vector<std::string> gather_processor_names(MPI_Comm comm, double timeout_seconds = 0);

}  // namespace hetcoll::mpi
