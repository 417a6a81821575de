// hetcoll::mpi::Runtime: what runs for each collective call, decided
// in-process from a platform file, as a communication program
// (plan/comm_program.h) — or the MPI library's own call — cached per call
// class in one cache, and run by the one program executor
// (program_executor.h). What the PMPI library (pmpi.cpp) uses, and
// the shortest way for a program to swap its collectives:
//
//     hetcoll::mpi::Runtime hetcoll_runtime(MPI_COMM_WORLD, "cluster.json");   // collective
//     hetcoll_runtime.reduce(send, recv, n, MPI_INT, MPI_MAX, /*root=*/0);       // was MPI_Reduce
//
// The platform: a sender-speed cluster (JSON), a platform graph (JSON) or a
// SimGrid XML file. Ranks play hosts by the rank mapping (rank_mapping.h:
// rank r plays the r-th host of the file by default, never a router or a
// link); a communicator may use a subset of the platform's hosts.
// Plans (PlanningOptions::model): by default the registry's algorithm for
// the operation (default "auto": FNF / SNF, then a bounded exact search;
// makespan/sender_speed/auto_select.h) on the sender-speed view of the communicator's
// processors; with PlanModel::platform_graph, on a platform graph, the graph
// planners (registry/graph_registry.h: routes, bidirectional one-port
// hosts and shared links) on the platform itself, the processors no rank
// plays forwarding as routers; with PlanModel::eager, broadcasts and
// reduces, the eager model's planners (makespan/eager/eager_broadcast.h: a
// rank sends to all its children at once; eager_reduce.h: a rank receives
// from all its children at once and sends once; for small messages
// under eager MPI sends) on the platform the same way. Either way the plan's transfers are between
// ranks: which links a message crosses is the network's business. On a cluster
// (or a graph of fixed costs) the message size does not change the plan (one
// time per message), so one plan per (operation, root) serves every size; on
// a graph with latency and bandwidth the times depend on the size, and each
// (operation, root, message bytes, datatype size) is planned for its exact
// size (see kProgramCacheEntries for why). Every rank computes the same
// plan (the planners are deterministic: node budgets, not time budgets),
// lowers it to the program of the call's element count and operation
// (plan/plan_program.h: non-commutative operations combine in rank order),
// and the first use of a class checks that every rank holds the same
// program (a hash, communicator.h).
//
// Every call is collective and must be made by every rank with matching
// arguments, as MPI requires; the first call of a class prepares its plan
// (two small collectives).
#pragma once

#include <compare>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <cstdint>
#include <vector>

#include "hetcoll/model/platform_io.h"
#include "hetcoll/registry/plans_on_ranks.h"
#include "hetcoll/mpi/communicator.h"
#include "hetcoll/mpi/rank_mapping.h"
#include "hetcoll/mpi/runtime_options.h"
#include "hetcoll/model/nic_network.h"
#include "hetcoll/plan/comm_program.h"
#include <mpi.h>

namespace hetcoll::mpi {

struct PlanningOptions {
  // What the plans are made on (see the header comment): sender_speed,
  // platform_graph, or eager (broadcasts and reduces, on a platform graph:
  // the eager planners, makespan/eager/eager_broadcast.h and
  // eager_reduce.h, whose plans run with standard sends (a broadcast's
  // paced, RuntimeOptions::eager_pacing), a reduce
  // rank posting all its receives at once; all-reduces are refused,
  // InputError).
  PlanModel model = PlanModel::sender_speed;
  // Registry names (hetcoll algorithms; graph planners under
  // PlanModel::platform_graph); empty = the default ("auto").
  std::string broadcast_algorithm;
  std::string reduce_algorithm;
  std::string allreduce_algorithm;
  // Bytes the MPI library or network adds to every message (an envelope;
  // SimGrid SMPI's flows carry about 16 bytes more than the message):
  // plans on a graph of latencies and bandwidths are made for the message
  // plus this. 0: none.
  double envelope_bytes = 0;
  // PlanModel::eager on a platform graph: broadcasts may be split
  // (makespan/split/split_broadcast.h: pieces scattered to spreaders that
  // send them to everyone). For each (root, count, datatype size) the
  // runtime plans the split broadcast and the eager plan for that exact
  // size and runs the one the eager model predicts faster. false: whole
  // messages only.
  bool split_broadcasts = true;
  // Reduces of commutative operations may be split (makespan/reduce/
  // split_reduce.h: pieces reduced at aggregator ranks, forwarded to the
  // root) on a platform graph with latencies and bandwidths: for each (root,
  // count, datatype size) the runtime plans the split reduce in the NIC
  // fluid model (each rank's up link from its sender-speed times, every
  // down link at the fastest bandwidth: the clusters of
  // scripts/nic-platform) and runs it when its prediction beats the
  // whole-vector plan's (each its own model's). Off by default: the fluid
  // model does not describe networks with shared links (a WAN, a
  // backbone), where its prediction may mislead the choice.
  bool split_reduces = false;
  // On a platform graph with latencies and bandwidths: every broadcast,
  // reduce and all-reduce runs what the chooser (registry/program_chooser.h)
  // predicts fastest among the MPI library's default, MPI libraries' own
  // algorithms and hetcoll's plans, all timed by one flow model. The
  // settings above (model, algorithms, splits) then apply only where the
  // chooser does not (clusters, fixed-cost graphs). false: the settings
  // above decide, as explicit overrides for experiments.
  bool choose = true;
  // The chooser's margin: the library's default runs unless a candidate is
  // predicted faster by more than this fraction.
  double choose_margin = 0.02;
};

// What runs for one call class, the same on every rank: a program, or the
// MPI library's own call.
struct ChosenProgram {
  // Where it came from: the chooser (registry/program_chooser.h), a split
  // plan (PlanningOptions::split_broadcasts / split_reduces), or a
  // whole-message plan of the PlanningOptions' model and algorithm.
  enum class Source : std::uint8_t { chooser, split, plan };
  Source source = Source::plan;
  std::string name;                      // "mpi:default" = the MPI library's own call; else the plan's algorithm
  double predicted_seconds = 0;          // the candidate's prediction (a plan's makespan, in the platform's unit)
  double default_seconds = 0;            // the library default's (NaN when not modelled; chooser only)
  std::string reason;
  PlanModel model = PlanModel::sender_speed;  // Source::plan: the model of the plan
  std::unique_ptr<CommProgram> program;  // null: run the library's own call
};

class Runtime {
 public:
  // Collective over `comm`: reads the platform on every rank and resolves
  // the mapping; a failure on any rank is a MismatchError on every rank.
  Runtime(MPI_Comm comm, const std::string& platform_path, const RankMapping& mapping = {},
          const RuntimeOptions& options = {}, const PlanningOptions& planning = {});
  Runtime(MPI_Comm comm, LoadedPlatform platform, const RankMapping& mapping = {}, const RuntimeOptions& options = {},
          const PlanningOptions& planning = {});
  // `load` runs on every rank; what it throws is a MismatchError everywhere.
  Runtime(MPI_Comm comm, const std::function<LoadedPlatform()>& load, const RankMapping& mapping = {},
          const RuntimeOptions& options = {}, const PlanningOptions& planning = {});

  // What runs for a call of `count` elements of `type_size` bytes
  // (`commutative`: the operation's; true for broadcasts): decided on first
  // use (collective) and cached. In order: the chooser's decision
  // (PlanningOptions::choose, where it applies); a split plan when the
  // options ask for one and it is predicted faster; else the whole-message
  // plan of the options' model and algorithm, lowered to a program. Throws
  // MismatchError on every rank when the decision fails on any.
  const ChosenProgram& program_for(Operation operation, int root, int count, int type_size, bool commutative);
  // What a program is cached under: the operation, the root (-1 for
  // all-reduces), the call's element count and datatype size (a program
  // addresses elements, so the count is part of every key; on a platform
  // whose times depend on the size the plan is made for exactly that
  // message too) and whether the operation commutes (rank order or not).
  // The communicator is the Runtime's own: one Runtime per communicator.
  struct ProgramKey {
    Operation operation = Operation::broadcast;
    int root = -1;
    int count = 0;
    int type_size = 0;
    bool commutative = true;
    auto operator<=>(const ProgramKey&) const = default;
  };
  ProgramKey program_key(Operation operation, int root, int count, int type_size, bool commutative) const;
  // The one cache keeps this many programs, least recently used evicted
  // first. Why exact sizes and not size classes: a plan made for a class's
  // middle is up to the class's width off the call's size, and its
  // prediction with it (power-of-two classes: a factor of 1.4), while the
  // chooser compares candidates' predictions for the call itself; programs
  // use few distinct sizes (a solver's vector, a few buffer sizes), so
  // exact keys cost few programs, and the bound caps the memory of one that
  // uses many. A miss costs one decision and a few small collectives; every
  // rank evicts alike (same calls, same order).
  static constexpr std::size_t kProgramCacheEntries = 256;
  std::size_t cached_programs() const { return programs_.size(); }

  // The entries of program_for by where they come from (each nullptr when
  // that source does not apply to the call or was not chosen):
  // PlanningOptions::choose on a platform where the chooser applies: the
  // chooser's decision (rank 0 predicts every candidate and tells the
  // others which runs).
  const ChosenProgram* chosen_for(Operation operation, int root, int count, int type_size, bool commutative);
  // PlanningOptions::split_broadcasts (eager model, platform graph): the
  // split broadcast of `count` elements from `root` when the eager model
  // predicts it faster than the whole-message eager plan. Decided on each
  // call (collective; program_for caches what runs).
  std::unique_ptr<ChosenProgram> split_for(int root, int count, int type_size);
  // PlanningOptions::split_reduces: the split reduce (commutative
  // operations) when its prediction in the NIC fluid model beats the
  // whole-vector plan's. Decided on each call (collective), like split_for.
  std::unique_ptr<ChosenProgram> split_reduce_for(int root, int count, int type_size);
  // The NIC network of the communicator's ranks (split_reduce.h): L_u and
  // U_u from the rank cluster's times at two sizes, every down link at the
  // fastest U.
  NicNetwork rank_nic_network() const;

  int reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root);
  int bcast(void* buffer, int count, MPI_Datatype datatype, int root);
  int allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op);
  // MPI_Allgather: the chooser's program on platform graphs with latencies
  // and bandwidths when the send and receive sides have the same count and
  // datatype (or MPI_IN_PLACE); otherwise, and elsewhere, PMPI_Allgather.
  int allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype);

  // Whether the platform's times depend on the message size (a graph with
  // latency and bandwidth).
  bool size_dependent() const { return size_dependent_; }
  // The sender-speed cluster of the communicator's ranks (processor i =
  // rank i, named by the platform ids) for a message size.
  Cluster rank_cluster(double message_bytes) const;
  // The platform processor each rank plays.
  const std::vector<ProcessorIndex>& processor_of_rank() const { return processor_of_rank_; }
  MPI_Comm communicator() const { return communicator_->user(); }
  // The runtime's duplicate of it (its own messages go there).
  MPI_Comm private_communicator() const { return communicator_->get(); }
  const RuntimeOptions& options() const { return options_; }
  const std::string& platform_name() const { return platform_.source_name; }
  // The unit of the platform's times ("s" for latency/bandwidth graphs;
  // empty when the file declares none): predicted makespans are in it.
  const std::string& time_unit() const {
    return platform_.is_cluster() ? platform_.cluster().time_unit() : platform_.graph().time_unit();
  }

 private:
  void initialise(const std::string& local_error, const RankMapping& mapping);

  std::shared_ptr<PrivateCommunicator> communicator_;
  LoadedPlatform platform_;
  RuntimeOptions options_;
  PlanningOptions planning_;
  std::vector<ProcessorIndex> processor_of_rank_;
  bool size_dependent_ = false;  // a graph with latency/bandwidth
  // The decision for a key not in the cache (collective).
  ChosenProgram decide(const ProgramKey& key);
  std::optional<ChosenProgram> choose(const ProgramKey& key);
  ChosenProgram whole_plan(const ProgramKey& key);
  struct CachedProgram {
    ChosenProgram chosen;
    std::list<ProgramKey>::iterator use;  // its place in programs_by_use_
  };
  std::map<ProgramKey, CachedProgram> programs_;
  std::list<ProgramKey> programs_by_use_;  // most recently used first
};

// plan_for_cluster, plan_for_ranks and restrict_to_processors (what the
// Runtime plans, computed without MPI): registry/plans_on_ranks.h.
using hetcoll::parse_plan_model;
using hetcoll::plan_for_cluster;
using hetcoll::plan_for_ranks;
using hetcoll::restrict_to_processors;

}  // namespace hetcoll::mpi
