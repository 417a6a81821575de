#include "hetcoll/mpi/runtime.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/makespan/eager/eager_broadcast.h"
#include "hetcoll/makespan/eager/eager_reduce.h"
#include "hetcoll/registry/graph_registry.h"
#include "hetcoll/makespan/split/split_broadcast.h"
#include "hetcoll/makespan/split/split_reduce.h"
#include "hetcoll/plan/split_program.h"
#include "hetcoll/makespan/sender_speed/auto_select.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/model/participants.h"
#include "hetcoll/mpi/executable_plan.h"
#include "hetcoll/mpi/exchange.h"
#include "hetcoll/mpi/program_executor.h"
#include "hetcoll/plan/program_bytes.h"
#include "hetcoll/registry/program_chooser.h"

namespace hetcoll::mpi {

namespace {


// Throws InputError unless `root` is a rank of a communicator of `ranks`.
void check_root(int root, std::size_t ranks) {
  if (root < 0 || root >= static_cast<int>(ranks)) {
    throw InputError(fmt::format("root {} is not a rank of the communicator of {} ranks", root, ranks));
  }
}

// Whose default selection PMPI_* runs: SMPI's when built for SMPI; Open
// MPI's (its 4.1 fixed decision) when MPI_Get_library_version says Open
// MPI 4.1 or 5.0; else unknown.
MpiLibrary running_library() {
#ifdef HETCOLL_SMPI
  return MpiLibrary::smpi;
#else
  static const MpiLibrary library = [] {
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int length = 0;
    if (MPI_Get_library_version(version, &length) != MPI_SUCCESS) return MpiLibrary::unknown;
    const std::string_view text(version, static_cast<std::size_t>(length));
    // The 4.1 decision lines are those of Open MPI 4.1 and 5.0.
    const bool decision_4_1 = text.find("Open MPI v4.1") != std::string_view::npos ||
                              text.find("Open MPI v5.0") != std::string_view::npos;
    return decision_4_1 ? MpiLibrary::openmpi : MpiLibrary::unknown;
  }();
  return library;
#endif
}

}  // namespace

Runtime::Runtime(MPI_Comm comm, const std::string& platform_path, const RankMapping& mapping,
                 const RuntimeOptions& options, const PlanningOptions& planning)
    : Runtime(comm, [&platform_path] { return load_platform_file(platform_path); }, mapping, options, planning) {}

Runtime::Runtime(MPI_Comm comm, const std::function<LoadedPlatform()>& load, const RankMapping& mapping,
                 const RuntimeOptions& options, const PlanningOptions& planning)
    : communicator_(std::make_shared<PrivateCommunicator>(comm, options.timeout_seconds)),
      options_(options),
      planning_(planning) {
  std::string local_error;
  try {
    platform_ = load();
  } catch (const std::exception& error) {
    local_error = error.what();
  }
  initialise(local_error, mapping);
}

Runtime::Runtime(MPI_Comm comm, LoadedPlatform platform, const RankMapping& mapping, const RuntimeOptions& options,
                 const PlanningOptions& planning)
    : communicator_(std::make_shared<PrivateCommunicator>(comm, options.timeout_seconds)),
      platform_(std::move(platform)),
      options_(options),
      planning_(planning) {
  initialise("", mapping);
}

void Runtime::initialise(const std::string& read_error, const RankMapping& mapping) {
  MPI_Comm comm = communicator_->get();
  auto names = gather_processor_names(comm, options_.timeout_seconds);
  std::string local_error = read_error;
  if (local_error.empty()) {
    try {
      // Ranks play hosts only (rank_mapping.h): never a router or a link.
      processor_of_rank_ = mapping.resolve_on_platform(platform_, communicator_->size(), names, platform_.source_name);
      if (!platform_.is_cluster()) size_dependent_ = !platform_.graph().has_fixed_costs();
      // Planning for the communicator must work before any call relies on it.
      (void)rank_cluster(8);
    } catch (const std::exception& error) {
      local_error = error.what();
    }
  }
  agree_on_outcome(comm, local_error, "hetcoll::mpi::Runtime", options_.timeout_seconds);
}

Runtime::ProgramKey Runtime::program_key(Operation operation, int root, int count, int type_size,
                                         bool commutative) const {
  const bool rooted = operation == Operation::broadcast || operation == Operation::reduce;
  return {operation, rooted ? root : -1, count, type_size,
          operation == Operation::broadcast || operation == Operation::allgather || commutative};
}

Cluster Runtime::rank_cluster(double message_bytes) const {
  return restrict_to_processors(platform_, processor_of_rank_, message_bytes);
}

NicNetwork Runtime::rank_nic_network() const {
  return nic_network_of_ranks(platform_, processor_of_rank_, planning_.envelope_bytes);
}

const ChosenProgram& Runtime::program_for(Operation operation, int root, int count, int type_size, bool commutative) {
  const ProgramKey key = program_key(operation, root, count, type_size, commutative);
  if (auto found = programs_.find(key); found != programs_.end()) {
    programs_by_use_.splice(programs_by_use_.begin(), programs_by_use_, found->second.use);
    return found->second.chosen;
  }
  ChosenProgram chosen = decide(key);  // collective; throws alike on every rank
  // Every rank makes the same calls, so every rank evicts the same entry.
  if (programs_.size() >= kProgramCacheEntries) {
    programs_.erase(programs_by_use_.back());
    programs_by_use_.pop_back();
  }
  programs_by_use_.push_front(key);
  auto& entry = programs_[key];
  entry.chosen = std::move(chosen);
  entry.use = programs_by_use_.begin();
  return entry.chosen;
}

ChosenProgram Runtime::decide(const ProgramKey& key) {
  if (auto chosen = choose(key)) return std::move(*chosen);
  if (key.operation == Operation::allgather) {
    // Only the chooser plans all-gathers: elsewhere the library's own runs.
    ChosenProgram library;
    library.source = ChosenProgram::Source::chooser;
    library.name = "mpi:default";
    library.predicted_seconds = std::nan("");
    library.default_seconds = std::nan("");
    library.reason = "all-gathers are chosen on platform graphs with latencies and bandwidths only";
    return library;
  }
  if (key.operation == Operation::broadcast) {
    if (auto split = split_for(key.root, key.count, key.type_size)) return std::move(*split);
  }
  if (key.operation == Operation::reduce && key.commutative) {
    if (auto split = split_reduce_for(key.root, key.count, key.type_size)) return std::move(*split);
  }
  return whole_plan(key);
}

ChosenProgram Runtime::whole_plan(const ProgramKey& key) {
  ChosenProgram chosen;
  chosen.source = ChosenProgram::Source::plan;
  std::string local_error;
  try {
    const auto ranks = static_cast<int>(processor_of_rank_.size());
    if (key.operation != Operation::allreduce) check_root(key.root, processor_of_rank_.size());
    if (key.count < 0) throw InputError(fmt::format("count {} is negative", key.count));
    const std::string& algorithm = key.operation == Operation::broadcast ? planning_.broadcast_algorithm
                                   : key.operation == Operation::reduce  ? planning_.reduce_algorithm
                                                                         : planning_.allreduce_algorithm;
    const double bytes = static_cast<double>(key.count) * key.type_size;
    const auto plan = plan_for_ranks(platform_, processor_of_rank_, key.operation, key.root,
                                     bytes + planning_.envelope_bytes, algorithm, planning_.model);
    check_executable_structure(plan, ranks, platform_.source_name);
    chosen.name = plan.algorithm;
    chosen.predicted_seconds = plan.makespan;
    chosen.model = plan.model;
    chosen.program = std::make_unique<CommProgram>(program_of_plan(
        plan, ranks, static_cast<std::size_t>(key.count), lowering_of(plan, options_, !key.commutative)));
    check_program(*chosen.program, static_cast<std::size_t>(key.count), platform_.source_name);
  } catch (const std::exception& error) {
    local_error = error.what();
  }
  const std::string what = fmt::format("hetcoll::mpi: planning the {}", to_string(key.operation));
  agree_on_outcome(communicator_->get(), local_error, what, options_.timeout_seconds);
  agree_on_hash(communicator_->get(), program_hash(*chosen.program), what, options_.timeout_seconds);
  return chosen;
}

namespace {

// Whether a split plan runs, decided alike on every rank: `plan_and_compare`
// plans it and says whether its prediction beats the whole-message plan's;
// a failure on any rank, or any rank saying no, means no (the
// whole-message plan then runs and reports its own errors).
bool everyone_splits(MPI_Comm comm, double timeout_seconds, const std::string& what,
                     const std::function<bool()>& plan_and_compare) {
  int split = 0;
  std::string local_error;
  try {
    split = plan_and_compare() ? 1 : 0;
  } catch (const std::exception& error) {
    local_error = error.what();
  }
  try {
    agree_on_outcome(comm, local_error, what, timeout_seconds);
  } catch (const MismatchError&) {
    return false;
  }
  // Every rank decides alike (deterministic planners); the minimum makes sure.
  int everyone = 0;
  MPI_Request request;
  PMPI_Iallreduce(&split, &everyone, 1, MPI_INT, MPI_MIN, comm, &request);
  wait_for_collective(request, comm, timeout_seconds, what);
  return everyone != 0;
}

}  // namespace

std::unique_ptr<ChosenProgram> Runtime::split_reduce_for(int root, int count, int type_size) {
  if (!planning_.split_reduces || !size_dependent_ || count <= 0 || type_size <= 0) return nullptr;
  SplitReducePlan plan;
  const bool split = everyone_splits(
      communicator_->get(), options_.timeout_seconds, "hetcoll::mpi: planning the split reduce", [&] {
        check_root(root, processor_of_rank_.size());
        plan = plan_split_reduce(rank_nic_network(), root, static_cast<std::size_t>(count), type_size);
        const double bytes = static_cast<double>(count) * type_size;
        const auto whole = plan_for_ranks(platform_, processor_of_rank_, Operation::reduce, root,
                                          bytes + planning_.envelope_bytes, planning_.reduce_algorithm, planning_.model);
        return plan.predicted_seconds < whole.makespan;
      });
  if (!split) return nullptr;
  auto chosen = std::make_unique<ChosenProgram>();
  chosen->source = ChosenProgram::Source::split;
  chosen->name = plan.algorithm;
  chosen->predicted_seconds = plan.predicted_seconds;
  chosen->program = std::make_unique<CommProgram>(program_of_split_reduce(plan));
  return chosen;
}

std::optional<ChosenProgram> Runtime::choose(const ProgramKey& key) {
  if (!planning_.choose || !chooser_applies(platform_) || key.count <= 0 || key.type_size <= 0) return std::nullopt;
  const Operation operation = key.operation;
  CallShape call;
  call.operation = operation;
  call.root = key.root;
  call.count = static_cast<std::size_t>(key.count);
  call.element_bytes = static_cast<std::size_t>(key.type_size);
  call.commutative = key.commutative;
  ChooserOptions options;
  options.margin = planning_.choose_margin;
  options.library = running_library();
  options.flow.envelope_bytes = planning_.envelope_bytes > 0 ? planning_.envelope_bytes : sim::kSmpiEnvelopeBytes;
  MPI_Comm comm = communicator_->get();
  // Rank 0 predicts every candidate and sends the decision with the chosen
  // program (planned once, on rank 0: the split plans take seconds to plan
  // on 64 ranks); every other rank decodes it.
  ChosenProgram chosen;
  std::string local_error;
  std::vector<char> decision, program_bytes;
  if (communicator_->rank() == 0) {
    try {
      const auto started = std::chrono::steady_clock::now();
      const auto choice = choose_program(platform_, processor_of_rank_, call, options);
      const std::chrono::duration<double> deciding = std::chrono::steady_clock::now() - started;
      const std::string text = fmt::format("{}\n{:.17g}\n{:.17g}\n{}; decided in {:.2g} s", choice.chosen,
                                           choice.chosen_seconds, choice.default_seconds, choice.reason,
                                           deciding.count());
      decision.assign(text.begin(), text.end());
      if (choice.program) program_bytes = encode_program(*choice.program);
    } catch (const std::exception& error) {
      local_error = error.what();
    }
  }
  agree_on_outcome(comm, local_error, "hetcoll::mpi: choosing what runs", options_.timeout_seconds);
  auto broadcast_bytes = [&](std::vector<char>& bytes) {
    long long length = static_cast<long long>(bytes.size());
    MPI_Request request;
    PMPI_Ibcast(&length, 1, MPI_LONG_LONG, 0, comm, &request);
    wait_for_collective(request, comm, options_.timeout_seconds, "hetcoll::mpi: the chooser's decision");
    bytes.resize(static_cast<std::size_t>(length));
    // In pieces of at most INT_MAX bytes (MPI's count).
    for (std::size_t done = 0; done < bytes.size();) {
      const auto piece = static_cast<int>(std::min<std::size_t>(bytes.size() - done, std::numeric_limits<int>::max()));
      PMPI_Ibcast(bytes.data() + done, piece, MPI_CHAR, 0, comm, &request);
      wait_for_collective(request, comm, options_.timeout_seconds, "hetcoll::mpi: the chosen program");
      done += static_cast<std::size_t>(piece);
    }
  };
  broadcast_bytes(decision);
  const std::string text(decision.begin(), decision.end());
  const auto first = text.find('\n'), second = text.find('\n', first + 1), third = text.find('\n', second + 1);
  chosen.name = text.substr(0, first);
  chosen.predicted_seconds = std::strtod(text.c_str() + first + 1, nullptr);
  chosen.default_seconds = std::strtod(text.c_str() + second + 1, nullptr);
  chosen.reason = text.substr(third + 1);
  if (chosen.name != "mpi:default") {
    broadcast_bytes(program_bytes);
    try {
      chosen.program = std::make_unique<CommProgram>(decode_program(
          std::string_view(program_bytes.data(), program_bytes.size()),
          call_data_elements(call, static_cast<int>(processor_of_rank_.size()))));
    } catch (const std::exception& error) {
      local_error = error.what();
    }
    agree_on_outcome(comm, local_error, "hetcoll::mpi: receiving the chosen program", options_.timeout_seconds);
  }
  chosen.source = ChosenProgram::Source::chooser;
  return chosen;
}

const ChosenProgram* Runtime::chosen_for(Operation operation, int root, int count, int type_size, bool commutative) {
  if (!planning_.choose || !chooser_applies(platform_) || count <= 0 || type_size <= 0) return nullptr;
  return &program_for(operation, root, count, type_size, commutative);
}

int Runtime::reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root) {
  int type_size = 0;
  MPI_Type_size(datatype, &type_size);
  int commutative = 0;
  MPI_Op_commutative(op, &commutative);
  const auto& chosen = program_for(Operation::reduce, root, count, type_size, commutative != 0);
  if (!chosen.program) return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, communicator_->user());
  if (count == 0) return MPI_SUCCESS;
  return mpi::reduce(sendbuf, recvbuf, count, datatype, op, root, *chosen.program, communicator_->get(),
                     communicator_->user(), options_);
}

std::unique_ptr<ChosenProgram> Runtime::split_for(int root, int count, int type_size) {
  if (!planning_.split_broadcasts || planning_.model != PlanModel::eager || platform_.is_cluster() || count <= 0 ||
      type_size <= 0) {
    return nullptr;
  }
  SplitBroadcastPlan plan;
  const bool split = everyone_splits(
      communicator_->get(), options_.timeout_seconds, "hetcoll::mpi: planning the split broadcast", [&] {
        check_root(root, processor_of_rank_.size());
        const double bytes = static_cast<double>(count) * type_size;
        plan = plan_split_broadcast(SplitCosts::of(platform_.graph(), processor_of_rank_),
                                    static_cast<std::size_t>(root), static_cast<std::size_t>(count), type_size,
                                    planning_.envelope_bytes);
        const auto whole = plan_for_ranks(platform_, processor_of_rank_, Operation::broadcast, root,
                                          bytes + planning_.envelope_bytes, planning_.broadcast_algorithm,
                                          PlanModel::eager);
        return plan.makespan < whole.makespan;
      });
  if (!split) return nullptr;
  auto chosen = std::make_unique<ChosenProgram>();
  chosen->source = ChosenProgram::Source::split;
  chosen->name = plan.algorithm;
  chosen->predicted_seconds = plan.makespan;
  chosen->program = std::make_unique<CommProgram>(program_of_split_broadcast(plan, options_.paces_eager_broadcasts()));
  return chosen;
}

int Runtime::bcast(void* buffer, int count, MPI_Datatype datatype, int root) {
  int type_size = 0;
  MPI_Type_size(datatype, &type_size);
  const auto& chosen = program_for(Operation::broadcast, root, count, type_size, true);
  if (!chosen.program) return PMPI_Bcast(buffer, count, datatype, root, communicator_->user());
  if (count == 0) return MPI_SUCCESS;
  return mpi::bcast(buffer, count, datatype, root, *chosen.program, communicator_->get(), communicator_->user(),
                    options_);
}

int Runtime::allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype) {
  MPI_Comm user = communicator_->user();
  if (sendbuf != MPI_IN_PLACE && (sendcount != recvcount || sendtype != recvtype)) {
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, user);
  }
  int type_size = 0;
  MPI_Type_size(recvtype, &type_size);
  const auto& chosen = program_for(Operation::allgather, -1, recvcount, type_size, true);
  if (!chosen.program || recvcount == 0) {
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, user);
  }
  return mpi::allgather(sendbuf, recvbuf, recvcount, recvtype, *chosen.program, communicator_->get(), user, options_);
}

int Runtime::allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op) {
  int type_size = 0;
  MPI_Type_size(datatype, &type_size);
  int commutative = 0;
  MPI_Op_commutative(op, &commutative);
  const auto& chosen = program_for(Operation::allreduce, -1, count, type_size, commutative != 0);
  if (!chosen.program) return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, communicator_->user());
  if (count == 0) return MPI_SUCCESS;
  return mpi::allreduce(sendbuf, recvbuf, count, datatype, op, *chosen.program, communicator_->get(),
                        communicator_->user(), options_);
}

}  // namespace hetcoll::mpi
