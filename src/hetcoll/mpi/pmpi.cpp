// libhetcoll_pmpi.so: hetcoll's plans for an unmodified MPI program, through
// the MPI profiling interface. It defines MPI_Bcast, MPI_Reduce,
// MPI_Allreduce and MPI_Allgather (and MPI_Finalize, to release what it
// holds); the MPI
// library's own versions stay reachable as PMPI_*. Use it with
//     LD_PRELOAD=/path/libhetcoll_pmpi.so mpirun -np 8 ./program
// (mpirun -x LD_PRELOAD=... on several hosts), or link it before the MPI
// library (-lhetcoll_pmpi -lmpi).
//
// Environment (read once, at the first intercepted call):
//   HETCOLL_PLATFORM    platform file (cluster or graph JSON, SimGrid XML).
//                       Unset: every call goes to the MPI library.
//   HETCOLL_RANK_MAP    hosts played by MPI_COMM_WORLD's ranks, by host name
//                       or index among the hosts ("xeon0,athlon0,..."; a
//                       router's or link's id is refused); "hostname" maps
//                       by MPI_Get_processor_name; unset: rank r plays the
//                       r-th host of the file (rank_mapping.h).
//   HETCOLL_ALGORITHM_BCAST / _REDUCE / _ALLREDUCE   registry names
//                       (hetcoll algorithms); unset: auto.
//   HETCOLL_PLAN_MODEL  "graph": on a platform graph, plan with the graph
//                       planners on the platform itself (runtime.h);
//                       "eager": broadcasts and reduces in the eager model,
//                       broadcasts' sends paced by the plan (all-reduces
//                       fall back);
//                       "sender-speed" / unset: on its sender-speed view.
//   HETCOLL_SPLIT_BCAST=0  with HETCOLL_PLAN_MODEL=eager, never split a
//                       broadcast into pieces (split_broadcast.h); by
//                       default each (root, count, datatype size) runs the
//                       split broadcast when the eager model predicts it
//                       faster than the whole-message plan.
//   HETCOLL_SPLIT_REDUCE=1  on a platform graph with latencies and
//                       bandwidths, each (root, count, datatype size) of a
//                       commutative MPI_Reduce runs the split reduce
//                       (split_reduce.h: pieces reduced at aggregators)
//                       when the NIC fluid model predicts it faster than
//                       the whole-vector plan; unset: never (the model
//                       is for clusters whose hosts each have their own NIC).
//   HETCOLL_TIMEOUT     seconds a rank waits in one call before aborting
//                       the job with a message (0 / unset: no limit).
//   HETCOLL_VERBOSE=1   rank 0 of each communicator says, once per plan,
//                       which plan it runs and its prediction.
//   HETCOLL_QUIET=1     say nothing of fallbacks. By default, when a call
//                       falls back to the MPI library, rank 0 says so on
//                       stderr ("hetcoll_pmpi: MPI_Reduce falls back to the
//                       MPI library's: <why>"), once per (collective,
//                       reason); a communicator that cannot be planned at
//                       all (no or unreadable HETCOLL_PLATFORM, a mapping
//                       error) is one message at its first call. Said by
//                       MPI_COMM_WORLD's rank 0 (so a job says each once);
//                       communicators without it are not heard.
//
// What runs where. A communicator gets a hetcoll::mpi::Runtime at its first
// intercepted collective (collective; cached as a communicator attribute,
// freed with the communicator): its ranks are translated to
// MPI_COMM_WORLD's, hence to the platform's processors, so sub-communicators
// plan on their own processors. What runs for each (operation, root,
// count, datatype size, commutativity) is decided once and cached in the
// Runtime's one cache of programs (runtime.h), and run by the program
// executor (program_executor.h). The MPI library's
// own call is used — and all ranks of the communicator agree on it, so no
// rank is left waiting — for:
// no HETCOLL_PLATFORM, a platform that cannot be read or does not fit the
// job (fewer hosts than ranks, an id in HETCOLL_RANK_MAP that is no host),
// intercommunicators, communicators of one rank, a count of zero, and any
// plan that cannot be prepared. Results equal the MPI library's for
// integer and logical operations and for every non-commutative operation;
// floating-point sums and products may differ in the last bits wherever the
// plan associates the terms differently (MPI fixes no order for them
// either: the MPI library's algorithms disagree among themselves too).
//
// Not thread-safe beyond what MPI already requires: collectives on one
// communicator are never called concurrently.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "hetcoll/core/units.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/mpi/program_executor.h"
#include "hetcoll/mpi/runtime.h"

namespace {

using hetcoll::LoadedPlatform;
using hetcoll::Operation;
using hetcoll::mpi::Runtime;

struct Settings {
  bool read = false;
  std::string platform_path;
  std::string rank_map;
  bool verbose = false;
  bool quiet = false;
  hetcoll::mpi::RuntimeOptions runtime;
  hetcoll::mpi::PlanningOptions planning;
  // The platform, read once per process; or why it could not be.
  std::unique_ptr<LoadedPlatform> platform;
  std::string platform_error;
  // Processors played by MPI_COMM_WORLD's ranks (resolved once).
  std::vector<hetcoll::ProcessorIndex> world_processors;
  bool world_resolved = false;
  std::string world_error;
};

Settings& settings() {
  static Settings values;
  if (!values.read) {
    values.read = true;
    auto text = [](const char* name) {
      const char* value = std::getenv(name);
      return std::string(value ? value : "");
    };
    values.platform_path = text("HETCOLL_PLATFORM");
    values.rank_map = text("HETCOLL_RANK_MAP");
    values.verbose = text("HETCOLL_VERBOSE") == "1";
    values.quiet = text("HETCOLL_QUIET") == "1";
    values.planning.broadcast_algorithm = text("HETCOLL_ALGORITHM_BCAST");
    values.planning.reduce_algorithm = text("HETCOLL_ALGORITHM_REDUCE");
    values.planning.allreduce_algorithm = text("HETCOLL_ALGORITHM_ALLREDUCE");
    values.planning.split_broadcasts = text("HETCOLL_SPLIT_BCAST") != "0";
    values.planning.split_reduces = text("HETCOLL_SPLIT_REDUCE") == "1";
    // Any of the expert settings is an override: the chooser steps aside.
    for (const char* name : {"HETCOLL_ALGORITHM_BCAST", "HETCOLL_ALGORITHM_REDUCE", "HETCOLL_ALGORITHM_ALLREDUCE",
                             "HETCOLL_PLAN_MODEL", "HETCOLL_SPLIT_BCAST", "HETCOLL_SPLIT_REDUCE"}) {
      if (!text(name).empty()) values.planning.choose = false;
    }
    if (text("HETCOLL_CHOOSE") == "0") values.planning.choose = false;
    if (auto timeout = text("HETCOLL_TIMEOUT"); !timeout.empty()) {
      values.runtime.timeout_seconds = std::strtod(timeout.c_str(), nullptr);
    }
    if (!values.platform_path.empty()) {
      try {
        if (auto model = text("HETCOLL_PLAN_MODEL"); !model.empty()) {
          values.planning.model = hetcoll::mpi::parse_plan_model(model, "HETCOLL_PLAN_MODEL");
        }
        values.platform = std::make_unique<LoadedPlatform>(hetcoll::load_platform_file(values.platform_path));
      } catch (const std::exception& error) {
        values.platform_error = error.what();
      }
    }
  }
  return values;
}

// Prints "hetcoll_pmpi: <message>" on stderr once per process per `key`.
void print_once(const std::string& key, const std::string& message) {
  static std::set<std::string> said;
  if (!said.insert(key).second) return;
  std::fprintf(stderr, "hetcoll_pmpi: %s\n", message.c_str());
  std::fflush(stderr);
}

int rank_in(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

// HETCOLL_VERBOSE: rank 0 of `comm` says each distinct message once.
void say_verbose(MPI_Comm comm, const std::string& message) {
  if (!settings().verbose || rank_in(comm) != 0) return;
  print_once(message, message);
}

// Whether this process says fallbacks: MPI_COMM_WORLD's rank 0, so that a
// job says each once (every communicator's reasons are alike on its ranks).
bool says_fallbacks() { return !settings().quiet && rank_in(MPI_COMM_WORLD) == 0; }

// A call that falls back to the MPI library, said once per (collective, reason).
void say_fallback(const char* call, const std::string& reason) {
  if (!says_fallbacks()) return;
  print_once(fmt::format("{}\n{}", call, reason), fmt::format("{} falls back to the MPI library's: {}", call, reason));
}

// What a communicator has: a runtime, or the reason it falls back.
struct CommunicatorState {
  std::unique_ptr<Runtime> runtime;
  std::string fallback_reason;
  std::set<Runtime::ProgramKey> failed_programs;
};

int state_keyval = MPI_KEYVAL_INVALID;
std::set<CommunicatorState*>& live_states() {
  static std::set<CommunicatorState*> states;
  return states;
}

int delete_state(MPI_Comm, int, void* attribute, void*) {
  auto* state = static_cast<CommunicatorState*>(attribute);
  live_states().erase(state);
  delete state;
  return MPI_SUCCESS;
}

// The processors of MPI_COMM_WORLD's ranks (collective over the world the
// first time it is needed; every communicator's first call goes through it
// on all its ranks, and the world's resolution is itself collective over the
// world only when HETCOLL_RANK_MAP=hostname, which needs the names).
std::string resolve_world(Settings& s) {
  if (s.world_resolved) return s.world_error;
  s.world_resolved = true;
  int world_size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  try {
    if (!s.platform) throw hetcoll::InputError(s.platform_error);
    const auto& platform = *s.platform;
    std::vector<std::string> names;
    auto mapping = hetcoll::mpi::RankMapping::parse(s.rank_map);
    if (s.rank_map == "hostname") {
      mapping = hetcoll::mpi::RankMapping::by_processor_name();
      names = hetcoll::mpi::gather_processor_names(MPI_COMM_WORLD, s.runtime.timeout_seconds);
    }
    s.world_processors = mapping.resolve_on_platform(
        platform, world_size, names,
        s.rank_map.empty() ? fmt::format("{} (rank r plays its r-th host)", platform.source_name)
                           : fmt::format("HETCOLL_RANK_MAP on {}", platform.source_name));
  } catch (const std::exception& error) {
    s.world_error = error.what();
  }
  return s.world_error;
}

CommunicatorState* state_of(MPI_Comm comm) {
  if (state_keyval == MPI_KEYVAL_INVALID) {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_state, &state_keyval, nullptr);
  }
  void* attribute = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, state_keyval, &attribute, &found);
  if (found) return static_cast<CommunicatorState*>(attribute);

  auto state = std::make_unique<CommunicatorState>();
  auto& s = settings();
  int is_inter = 0, size = 0;
  MPI_Comm_test_inter(comm, &is_inter);
  MPI_Comm_size(comm, &size);
  if (s.platform_path.empty()) {
    state->fallback_reason = "HETCOLL_PLATFORM is not set (no platform: every collective goes to the MPI library)";
  } else if (is_inter) {
    state->fallback_reason = "intercommunicators are not planned";
  } else if (size < 2) {
    state->fallback_reason = "a communicator of one rank";
  } else {
    // Every rank of `comm` takes this path (the decisions above are alike
    // everywhere), so the Runtime's collective checks line up.
    std::string world_error = s.rank_map == "hostname" && comm != MPI_COMM_WORLD && !s.world_resolved
                                  ? "HETCOLL_RANK_MAP=hostname: call a collective on MPI_COMM_WORLD first"
                                  : resolve_world(s);
    std::vector<std::string> ids;
    if (world_error.empty()) {
      MPI_Group group, world_group;
      MPI_Comm_group(comm, &group);
      MPI_Comm_group(MPI_COMM_WORLD, &world_group);
      std::vector<int> ranks(static_cast<size_t>(size)), world_ranks(static_cast<size_t>(size));
      for (int r = 0; r < size; ++r) ranks[static_cast<size_t>(r)] = r;
      MPI_Group_translate_ranks(group, size, ranks.data(), world_group, world_ranks.data());
      MPI_Group_free(&group);
      MPI_Group_free(&world_group);
      // The hosts' ids: a SimGrid file's links may be named "0", "1", ...
      const auto& platform = *s.platform;
      for (int world_rank : world_ranks) {
        auto p = s.world_processors[static_cast<size_t>(world_rank)];
        ids.emplace_back(platform.is_cluster() ? platform.cluster().id(p) : platform.graph().id(p));
      }
    }
    try {
      auto load = [&]() -> LoadedPlatform {
        if (!world_error.empty()) throw hetcoll::InputError(world_error);
        return *s.platform;
      };
      state->runtime = std::make_unique<Runtime>(comm, load, hetcoll::mpi::RankMapping::explicit_list(ids), s.runtime,
                                                 s.planning);
    } catch (const std::exception& error) {
      state->fallback_reason = fmt::format("the platform cannot be used on this communicator, every collective on it "
                                           "goes to the MPI library: {}",
                                           error.what());
    }
  }
  auto* raw = state.release();
  live_states().insert(raw);
  MPI_Comm_set_attr(comm, state_keyval, raw);
  return raw;
}

const char* mpi_name(Operation operation) {
  switch (operation) {
    case Operation::broadcast: return "MPI_Bcast";
    case Operation::reduce: return "MPI_Reduce";
    case Operation::allgather: return "MPI_Allgather";
    default: return "MPI_Allreduce";
  }
}

// What runs (Runtime::program_for), or nullptr for the MPI library's own
// call (every rank of `comm` decides alike). A decision that fails is the
// MPI library's call, said once.
const hetcoll::mpi::ChosenProgram* program_or_fallback(MPI_Comm comm, Operation operation, int root, int count,
                                                       MPI_Datatype datatype, MPI_Op op) {
  using hetcoll::mpi::ChosenProgram;
  if (count <= 0) return nullptr;  // nothing to send: the MPI library's call, unannounced
  auto* state = state_of(comm);
  if (!state->runtime) {
    // One message for the communicator, at its first call (whichever).
    if (says_fallbacks()) {
      print_once(state->fallback_reason,
                 fmt::format("{} falls back to the MPI library's: {}", mpi_name(operation), state->fallback_reason));
    }
    return nullptr;
  }
  int type_size = 0;
  MPI_Type_size(datatype, &type_size);
  int commutative = 1;
  if (op != MPI_OP_NULL) MPI_Op_commutative(op, &commutative);
  auto& runtime = *state->runtime;
  const auto key = runtime.program_key(operation, root, count, type_size, commutative != 0);
  if (state->failed_programs.count(key)) return nullptr;
  try {
    const auto& chosen = runtime.program_for(operation, root, count, type_size, commutative != 0);
    int size = 0;
    MPI_Comm_size(comm, &size);
    const std::string call = fmt::format("{} on a communicator of {} ranks{}", mpi_name(operation), size,
                                         operation == Operation::allreduce || operation == Operation::allgather
                                             ? ""
                                             : fmt::format(", root {}", root));
    const auto bytes = static_cast<long long>(count) * type_size;
    switch (chosen.source) {
      case ChosenProgram::Source::chooser:
        // A non-commutative call under a library whose own algorithm is
        // not modelled has no prediction at all.
        say_verbose(comm, fmt::format("{} ({} bytes, elements of {} bytes): runs {}, {} ({}; platform {})", call,
                                      bytes, type_size,
                                      chosen.name == "mpi:default" ? "the MPI library's own call (mpi:default)"
                                                                   : chosen.name,
                                      std::isnan(chosen.predicted_seconds)
                                          ? std::string("not predicted")
                                          : fmt::format("predicted {:.4g} s{}", chosen.predicted_seconds,
                                                        chosen.name == "mpi:default" &&
                                                                std::isnan(chosen.default_seconds)
                                                            ? " or more"
                                                            : ""),
                                      chosen.reason, runtime.platform_name()));
        break;
      case ChosenProgram::Source::split:
        say_verbose(comm, fmt::format("{} ({} elements of {} bytes): hetcoll \"{}\", predicted makespan {} (platform "
                                      "{})",
                                      call, count, type_size, chosen.name,
                                      hetcoll::time_text(chosen.predicted_seconds, runtime.time_unit()),
                                      runtime.platform_name()));
        break;
      case ChosenProgram::Source::plan:
        say_verbose(comm, fmt::format("{} ({} bytes, elements of {} bytes): hetcoll plan \"{}\", predicted makespan "
                                      "{} {}(platform {})",
                                      call, bytes, type_size, chosen.name,
                                      hetcoll::time_text(chosen.predicted_seconds, runtime.time_unit()),
                                      runtime.size_dependent() ? "for this size "
                                                               : "for any size (the platform's times are per message) ",
                                      runtime.platform_name()));
        break;
    }
    return chosen.program ? &chosen : nullptr;
  } catch (const std::exception& error) {
    state->failed_programs.insert(key);
    say_fallback(mpi_name(operation), error.what());
    return nullptr;
  }
}

}  // namespace

extern "C" {

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  const auto* chosen = program_or_fallback(comm, Operation::broadcast, root, count, datatype, MPI_OP_NULL);
  if (!chosen) return PMPI_Bcast(buffer, count, datatype, root, comm);
  const auto& runtime = *state_of(comm)->runtime;
  return hetcoll::mpi::bcast(buffer, count, datatype, root, *chosen->program, runtime.private_communicator(), comm,
                             runtime.options());
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm) {
  const auto* chosen = program_or_fallback(comm, Operation::reduce, root, count, datatype, op);
  if (!chosen) return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  const auto& runtime = *state_of(comm)->runtime;
  return hetcoll::mpi::reduce(sendbuf, recvbuf, count, datatype, op, root, *chosen->program,
                              runtime.private_communicator(), comm, runtime.options());
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  const auto* chosen = program_or_fallback(comm, Operation::allreduce, -1, count, datatype, op);
  if (!chosen) return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  const auto& runtime = *state_of(comm)->runtime;
  return hetcoll::mpi::allreduce(sendbuf, recvbuf, count, datatype, op, *chosen->program,
                                 runtime.private_communicator(), comm, runtime.options());
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
  // Programs move blocks of one datatype: other calls are the library's.
  if (sendbuf != MPI_IN_PLACE && (sendcount != recvcount || sendtype != recvtype)) {
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  }
  const auto* chosen = program_or_fallback(comm, Operation::allgather, -1, recvcount, recvtype, MPI_OP_NULL);
  if (!chosen) return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  const auto& runtime = *state_of(comm)->runtime;
  return hetcoll::mpi::allgather(sendbuf, recvbuf, recvcount, recvtype, *chosen->program,
                                 runtime.private_communicator(), comm, runtime.options());
}

int MPI_Finalize(void) {
  // Release the runtimes (their private communicators) while MPI still runs.
  for (auto* state : std::set<CommunicatorState*>(live_states())) state->runtime.reset();
  if (state_keyval != MPI_KEYVAL_INVALID) {
    void* attribute = nullptr;
    int found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, state_keyval, &attribute, &found);
    if (found) MPI_Comm_delete_attr(MPI_COMM_WORLD, state_keyval);
    MPI_Comm_free_keyval(&state_keyval);
  }
  return PMPI_Finalize();
}

}  // extern "C"
