// hetcoll_mpi_bench: time one collective, hetcoll's plan or the MPI
// library's own, for a list of message sizes; print CSV (rank 0).
//
// Built for Open MPI (build/release) and for SimGrid SMPI (build/smpi, run
// by smpirun); scripts/mpi-bench drives it. Under SMPI the built-in
// algorithm is chosen by smpirun (--cfg=smpi/reduce:NAME); under Open MPI by
// --mca coll_tuned_* options; --label says which, for the CSV.
//
// Timing: every repetition starts at a common instant T0 (all ranks sleep
// until it: the clock is global under SMPI and on one machine), runs the
// collective once, and the time is the largest end time minus T0 over all
// ranks. The median over repetitions is reported (after one warm-up).
//
// Usage: hetcoll_mpi_bench --platform F --collective reduce|bcast|allreduce|allgather|pipelined-bcast|segmented-reduce|split-bcast|split-allreduce
//          [--implementation hetcoll|builtin|program|runtime] [--label NAME] [--algorithm A]
//   (runtime: hetcoll::mpi::Runtime with its defaults, what the PMPI library
//    runs with only HETCOLL_PLATFORM set: the chooser's pick per size,
//    registry/program_chooser.h; the algorithm column names it)
//   (program: one of the chooser's candidates by name, --algorithm
//    hetcoll:graph (default), hetcoll:sender-speed, hetcoll:eager or
//    mpi:NAME (registry/program_chooser.h), run by mpi/program_executor.h
//    and predicted by the flow model, sim/program_simulation.h;
//    hetcoll:predicted: the command line's default plan for the call,
//    registry/default_plan.h, planned on rank 0; the algorithm column then
//    names what won, e.g. "hetcoll:predicted mpi:scatter_rdb_allgather")
//          [--sizes 4,16,...] [--datatype int|double] [--op max|sum|gcd]
//          [--root R] [--repetitions N] [--tree fnf|binomial|chain|tree|multi-tree] [--slice-bytes B]
//   (--tree tree / multi-tree / auto: the platform-graph planners' best
//    single tree, the multi-tree packing in latency-aware rounds, or the
//    faster of the two by the model, platform_pipelines.h; graph platforms only)
//          [--send-mode one-port|standard|synchronous] [--plan-model sender-speed|graph|eager] [--pacing auto|always|never] [--header]
//          [--size-classes] [--predict-only]
//   (segmented-reduce: the reduce cut into segments along one tree,
//    pipelined_reduce.h; --tree plan|chain|binomial|auto, auto = the one
//    predicted fastest, each at its best segment size unless --slice-bytes;
//    printed as collective "reduce")
//   (split-bcast: the split broadcast, makespan/split/split_broadcast.h —
//    pieces scattered to spreaders that send them to everyone, planned per
//    size in the eager model for the message + --envelope-bytes, predicted
//    by it; graph platforms only; printed as collective "bcast",
//    implementation "hetcoll-split"; split-allreduce: the split
//    all-reduce planned and predicted in the NIC fluid model of the rank
//    cluster, makespan/split/split_allreduce_nic.h, or with --plan-model
//    eager in the eager model, split_allreduce.h; printed as collective
//    "allreduce")
//   (--plan-model graph: reduce/bcast/allreduce planned by the graph
//    planners on the platform itself, one plan per message size, predicted
//    by the graph model; the CSV's implementation is "hetcoll-graph")
//   (--plan-model eager: bcast and reduce, planned in the eager model (a
//    broadcast rank's sends paced by the plan; a reduce rank's receives all posted at
//    once), one plan per message size, predicted by
//    the eager model; the CSV's implementation is "hetcoll-eager")
//   (--pacing auto|always|never: when eager plans post their sends,
//    RuntimeOptions::eager_pacing; auto: broadcasts paced, reduces not)
//   (--envelope-bytes B: bcast/reduce/allreduce plans made for the message
//    + B bytes, what the network carries (SMPI: about 16); default 0)
//   (--size-classes: accepted and ignored: hetcoll::mpi::Runtime and the PMPI
//    library plan for the exact message size, as this program always does)
//   (--predict-only: make and predict the plans without running them; the
//    measured time is printed as nan)
//   (split-reduce: the reduce cut into pieces reduced at aggregators and
//    forwarded to the root, makespan/split/split_reduce.h, planned and
//    predicted in the NIC fluid model of the rank cluster's latencies and
//    bandwidths, with --envelope-bytes per message; printed as collective
//    "reduce", implementation "hetcoll-split")
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/makespan/split/split_allreduce.h"
#include "hetcoll/makespan/split/split_allreduce_nic.h"
#include "hetcoll/makespan/split/split_broadcast.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/mpi/collectives.h"
#include "hetcoll/mpi/program_executor.h"
#include "hetcoll/registry/program_chooser.h"
#include "hetcoll/sim/program_simulation.h"
#include "hetcoll/makespan/split/split_reduce.h"
#include "hetcoll/plan/split_program.h"
#include "hetcoll/registry/default_plan.h"
#include "hetcoll/plan/program_bytes.h"
#include "hetcoll/mpi/pipelined_broadcast.h"
#include "hetcoll/mpi/pipelined_reduce.h"
#include "hetcoll/mpi/platform_pipelines.h"
#include "hetcoll/mpi/runtime.h"

namespace {

using namespace hetcoll;

struct Options {
  std::string platform;
  std::string collective = "reduce";
  std::string implementation = "hetcoll";
  std::string label;
  std::string algorithm;  // hetcoll registry name ("" = auto)
  std::vector<long> sizes{4, 16, 64, 256, 1024, 4096};
  std::string datatype = "int";
  std::string op = "max";
  int root = 0;
  int repetitions = 5;
  std::string tree = "fnf";
  long slice_bytes = 0;  // 0: the slice size the prediction likes best
  double envelope_bytes = 0;  // planned as message + this (PlanningOptions::envelope_bytes)
  std::string send_mode = "one-port";
  std::string pacing = "auto";  // eager plans: RuntimeOptions::eager_pacing
  std::string plan_model = "sender-speed";
  bool header = false;
  std::string rank_map;
  bool size_classes = false;  // accepted for old scripts: the Runtime now plans for the exact size, as this does
  bool predict_only = false;
};

void gcd_int(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<int*>(in);
  auto* b = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = std::gcd(a[i], b[i]);
}
void gcd_double(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<double*>(in);
  auto* b = static_cast<double*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = static_cast<double>(std::gcd(static_cast<long long>(a[i]), static_cast<long long>(b[i])));
}

std::vector<long> parse_list(const std::string& text) {
  std::vector<long> values;
  size_t start = 0;
  while (start <= text.size()) {
    auto comma = text.find(',', start);
    auto item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    values.push_back(std::stol(item));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return values;
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw InputError(fmt::format("{} needs a value", arg));
      return argv[++i];
    };
    if (arg == "--platform") options.platform = value();
    else if (arg == "--collective") options.collective = value();
    else if (arg == "--implementation") options.implementation = value();
    else if (arg == "--label") options.label = value();
    else if (arg == "--algorithm") options.algorithm = value();
    else if (arg == "--sizes") options.sizes = parse_list(value());
    else if (arg == "--datatype") options.datatype = value();
    else if (arg == "--op") options.op = value();
    else if (arg == "--root") options.root = std::stoi(value());
    else if (arg == "--repetitions") options.repetitions = std::stoi(value());
    else if (arg == "--tree") options.tree = value();
    else if (arg == "--slice-bytes") options.slice_bytes = std::stol(value());
    else if (arg == "--envelope-bytes") options.envelope_bytes = std::stod(value());
    else if (arg == "--send-mode") options.send_mode = value();
    else if (arg == "--pacing") options.pacing = value();
    else if (arg == "--plan-model") options.plan_model = value();
    else if (arg == "--header") options.header = true;
    else if (arg == "--rank-map") options.rank_map = value();
    else if (arg == "--size-classes") options.size_classes = true;
    else if (arg == "--predict-only") options.predict_only = true;
    else throw InputError(fmt::format("unknown option {}", arg));
  }
  if (options.platform.empty()) throw InputError("--platform is required");
  if (options.pacing != "auto" && options.pacing != "always" && options.pacing != "never") {
    throw InputError(fmt::format("--pacing: must be auto, always or never, got \"{}\"", options.pacing));
  }
  if (options.label.empty()) options.label = options.implementation == "hetcoll" ? "hetcoll" : "default";
  return options;
}

// Sleeps until MPI_Wtime() reaches `instant` (simulated time under SMPI:
// nanosleep is SMPI's there).
void sleep_until(double instant) {
  double remaining = instant - MPI_Wtime();
  if (remaining <= 0) return;
  struct timespec pause;
  pause.tv_sec = static_cast<time_t>(remaining);
  pause.tv_nsec = static_cast<long>((remaining - static_cast<double>(pause.tv_sec)) * 1e9);
  nanosleep(&pause, nullptr);
  while (MPI_Wtime() < instant) {
  }
}

// A common start shortly after now, the same on every rank.
double common_start() {
  double before = MPI_Wtime(), latest = 0;
  MPI_Allreduce(&before, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double took = MPI_Wtime() - before, longest = 0;
  MPI_Allreduce(&took, &longest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return latest + 4 * longest + 1e-4;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  auto n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Transfer times on the platform for the pipelined broadcast's prediction.
mpi::TransferCost platform_costs(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank) {
  if (platform.is_cluster()) {
    const auto& cluster = platform.cluster();
    return [&cluster, processor_of_rank](ProcessorIndex u, ProcessorIndex, double) {
      return cluster.transmission_time(processor_of_rank[static_cast<size_t>(u)]);
    };
  }
  const auto& graph = platform.graph();
  auto zero = graph.edge_costs(1.0);
  return [&graph, zero, processor_of_rank](ProcessorIndex u, ProcessorIndex v, double bytes) {
    auto route = graph.route(processor_of_rank[static_cast<size_t>(u)], processor_of_rank[static_cast<size_t>(v)], zero);
    return route ? graph.route_time(*route, bytes) : std::numeric_limits<double>::infinity();
  };
}

// --rank-map LIST, or "hostname", or (default) by host name when every rank
// runs on its own host of the platform (SimGrid SMPI: the platform's host
// names; smpirun places ranks on hosts in its own order), else by order.
mpi::RankMapping rank_mapping(const Options& options, const LoadedPlatform& platform) {
  if (options.rank_map == "hostname") return mpi::RankMapping::by_processor_name();
  if (!options.rank_map.empty()) return mpi::RankMapping::parse(options.rank_map);
  auto names = mpi::gather_processor_names(MPI_COMM_WORLD);
  std::set<std::string> distinct(names.begin(), names.end());
  bool all_found = distinct.size() == names.size();
  for (const auto& name : names) {
    auto found = platform.is_cluster() ? platform.cluster().find(name) : platform.graph().find(name);
    all_found = all_found && found.has_value();
  }
  return all_found ? mpi::RankMapping::by_processor_name() : mpi::RankMapping::by_order();
}

int run(Options options) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Datatype datatype = options.datatype == "double" ? MPI_DOUBLE : MPI_INT;
  int type_size = 0;
  MPI_Type_size(datatype, &type_size);
  MPI_Op op = MPI_MAX;
  if (options.op == "sum") op = MPI_SUM;
  if (options.op == "gcd") MPI_Op_create(datatype == MPI_DOUBLE ? gcd_double : gcd_int, 1, &op);

  auto platform = load_platform_file(options.platform);
  mpi::RuntimeOptions runtime_options;
  runtime_options.eager_pacing = options.pacing == "always"  ? mpi::RuntimeOptions::EagerPacing::always
                                 : options.pacing == "never" ? mpi::RuntimeOptions::EagerPacing::never
                                                             : mpi::RuntimeOptions::EagerPacing::automatic;
  runtime_options.send_mode = options.send_mode == "standard"      ? mpi::RuntimeOptions::SendMode::standard
                             : options.send_mode == "synchronous" ? mpi::RuntimeOptions::SendMode::synchronous
                                                                  : mpi::RuntimeOptions::SendMode::one_port;
  mpi::PlanningOptions planning;
  planning.model = mpi::parse_plan_model(options.plan_model, "--plan-model");
  planning.broadcast_algorithm = planning.reduce_algorithm = planning.allreduce_algorithm = options.algorithm;
  planning.envelope_bytes = options.envelope_bytes;
  std::unique_ptr<mpi::Runtime> runtime;
  bool use_hetcoll = options.implementation == "hetcoll";
  const bool use_program = options.implementation == "program";
  // runtime: what the PMPI library runs with only HETCOLL_PLATFORM set
  // (hetcoll::mpi::Runtime with its defaults: the chooser decides).
  const bool use_runtime = options.implementation == "runtime";
  if (use_runtime) planning = mpi::PlanningOptions{};
  // builtin: the MPI library's algorithm (forced by smpirun's --cfg), its
  // prediction by the flow model when it is one of makespan/mpi_algorithms/
  // (--label names it as SMPI does).
  const bool predict_builtin = options.implementation == "builtin" && !platform.is_cluster() &&
                               chooser_applies(platform);
  if (use_hetcoll || use_program || use_runtime || predict_builtin) {
    runtime = std::make_unique<mpi::Runtime>(MPI_COMM_WORLD, platform, rank_mapping(options, platform),
                                             runtime_options, planning);
  }
  const bool segmented_reduce = options.collective == "segmented-reduce";
  const bool split_reduce = options.collective == "split-reduce";
  if (segmented_reduce && options.tree == "fnf") options.tree = "auto";  // fnf is the broadcasts' default
  Operation operation = options.collective == "bcast" || options.collective == "pipelined-bcast" ||
                                options.collective == "split-bcast"
                            ? Operation::broadcast
                        : options.collective == "allreduce" || options.collective == "split-allreduce" ? Operation::allreduce
                        : options.collective == "allgather"                                            ? Operation::allgather
                                                                                                   : Operation::reduce;
  if (rank == 0 && options.header) {
    std::printf("platform,collective,implementation,algorithm,elements,bytes,measured_seconds,predicted_seconds,"
                "repetitions,datatype,op,ranks\n");
  }
  for (long elements : options.sizes) {
    int count = static_cast<int>(elements);
    double bytes = static_cast<double>(elements) * type_size;
    // An all-gather receives every rank's block.
    const double receive_bytes = operation == Operation::allgather ? bytes * size : bytes;
    std::vector<char> send(static_cast<size_t>(bytes)), receive(static_cast<size_t>(receive_bytes));
    for (size_t i = 0; i < send.size(); i += static_cast<size_t>(type_size)) {
      if (datatype == MPI_INT) {
        int value = static_cast<int>(6 * (1 + (rank * 7 + i) % 97));
        std::memcpy(&send[i], &value, sizeof value);
      } else {
        double value = static_cast<double>(6 * (1 + (rank * 7 + i) % 97));
        std::memcpy(&send[i], &value, sizeof value);
      }
    }
    double predicted = std::nan("");
    std::string algorithm = options.label;
    std::unique_ptr<mpi::ExecutablePipeline> pipeline;
    std::unique_ptr<mpi::ExecutablePlan> plan;
    bool split = false;  // a split plan, run as its program
    std::unique_ptr<CommProgram> program;
    if (predict_builtin) {
      CallShape call;
      call.operation = operation;
      call.root = options.root;
      call.count = static_cast<std::size_t>(count);
      call.element_bytes = static_cast<std::size_t>(type_size);
      try {
        const FlowNetwork network(platform.graph(), runtime->processor_of_rank());
        sim::FlowModelOptions flow_options;
        flow_options.envelope_bytes = options.envelope_bytes > 0 ? options.envelope_bytes : sim::kSmpiEnvelopeBytes;
        predicted = predict_candidate(platform, runtime->processor_of_rank(), network, call, "mpi:" + options.label,
                                      flow_options);
      } catch (const InputError&) {
        predicted = std::nan("");  // not modelled (or refused for this call)
      }
    } else if (use_runtime) {
      int commutative = 1;
      MPI_Op_commutative(op, &commutative);
      const bool rooted = operation == Operation::broadcast || operation == Operation::reduce;
      const auto* chosen = runtime->chosen_for(operation, rooted ? options.root : -1, count, type_size,
                                               commutative != 0);
      predicted = chosen ? chosen->predicted_seconds : std::nan("");
      algorithm = chosen ? chosen->name : "no choice (cluster or fixed costs)";
    } else if (use_program) {
      // One of the chooser's candidates (registry/program_chooser.h) by
      // name, run by the program executor and predicted by the flow model.
      if (platform.is_cluster()) throw InputError("--implementation program needs a platform graph");
      std::string name = options.algorithm.empty() ? "hetcoll:graph" : options.algorithm;
      if (name == "hetcoll-graph") name = "hetcoll:graph";
      if (name == "hetcoll-sender-speed") name = "hetcoll:sender-speed";
      CallShape call;
      call.operation = operation;
      call.root = options.root;
      call.count = static_cast<std::size_t>(count);
      call.element_bytes = static_cast<std::size_t>(type_size);
      if (name == "hetcoll:predicted") {
        // The command line's default plan for this call (registry/default_plan.h):
        // what `hetcoll broadcast --message-size BYTES --element-bytes SIZE` prints.
        // Planned once, on rank 0 (about 25 candidates built and predicted),
        // and handed to the others as bytes (plan/program_bytes.h).
        std::vector<char> bytes;
        std::string chosen_name;
        if (rank == 0) {
          auto chosen = default_plan_program(platform, runtime->processor_of_rank(), call);
          bytes = encode_program(chosen.program);
          predicted = chosen.predicted_seconds;
          chosen_name = chosen.name;
        }
        long long sizes[2] = {static_cast<long long>(bytes.size()), static_cast<long long>(chosen_name.size())};
        MPI_Bcast(sizes, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
        bytes.resize(static_cast<std::size_t>(sizes[0]));
        chosen_name.resize(static_cast<std::size_t>(sizes[1]));
        MPI_Bcast(bytes.data(), static_cast<int>(sizes[0]), MPI_CHAR, 0, MPI_COMM_WORLD);
        MPI_Bcast(chosen_name.data(), static_cast<int>(sizes[1]), MPI_CHAR, 0, MPI_COMM_WORLD);
        MPI_Bcast(&predicted, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        program = std::make_unique<CommProgram>(
            decode_program(std::string_view(bytes.data(), bytes.size()), static_cast<std::size_t>(count)));
        algorithm = fmt::format("{} {}", name, chosen_name);
      } else {
        program = std::make_unique<CommProgram>(candidate_program(platform, runtime->processor_of_rank(), call, name));
        const FlowNetwork network(platform.graph(), runtime->processor_of_rank());
        sim::FlowModelOptions flow_options;
        flow_options.envelope_bytes = options.envelope_bytes > 0 ? options.envelope_bytes : sim::kSmpiEnvelopeBytes;
        predicted = predict_candidate(platform, runtime->processor_of_rank(), network, call, name, flow_options);
        algorithm = name;
      }
    } else if (use_hetcoll && options.collective == "pipelined-bcast" && (options.tree == "tree" || options.tree == "multi-tree" || options.tree == "auto")) {
#ifdef HETCOLL_WITH_LP
      if (platform.is_cluster()) throw InputError("--tree tree/multi-tree/auto needs a platform graph (JSON graph or SimGrid XML)");
      // Planned on rank 0 and sent to the others: the LP solvers are shared
      // libraries with global state, which SMPI's ranks (one process) would share.
      mpi::PlatformPipeline planned;
      // slice bytes, predicted, then per tree: weight, root, and per rank its
      // number of children and the children in order.
      std::vector<double> packed;
      if (rank == 0) {
        planned = mpi::plan_platform_pipeline(platform.graph(), runtime->processor_of_rank(), options.root,
                                              options.tree, bytes, type_size);
        packed = {static_cast<double>(planned.plan.slice_bytes), planned.predicted_seconds};
        for (const auto& [weight, tree] : planned.plan.trees) {
          packed.push_back(weight);
          packed.push_back(tree.root);
          for (const auto& children : tree.children) {
            packed.push_back(static_cast<double>(children.size()));
            for (auto child : children) packed.push_back(child);
          }
        }
      }
      int length = static_cast<int>(packed.size());
      MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
      packed.resize(static_cast<size_t>(length));
      MPI_Bcast(packed.data(), length, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      int description_length = static_cast<int>(planned.description.size());
      MPI_Bcast(&description_length, 1, MPI_INT, 0, MPI_COMM_WORLD);
      planned.description.resize(static_cast<size_t>(description_length));
      MPI_Bcast(planned.description.data(), description_length, MPI_CHAR, 0, MPI_COMM_WORLD);
      if (rank != 0) {
        planned.plan.slice_bytes = static_cast<std::size_t>(packed[0]);
        planned.predicted_seconds = packed[1];
        for (size_t at = 2; at + 1 < packed.size();) {
          mpi::WeightedTree weighted;
          weighted.weight = packed[at];
          weighted.tree.root = static_cast<ProcessorIndex>(packed[at + 1]);
          at += 2;
          weighted.tree.children.assign(static_cast<size_t>(size), {});
          for (int r = 0; r < size; ++r) {
            auto count = static_cast<size_t>(packed[at++]);
            for (size_t c = 0; c < count; ++c) {
              weighted.tree.children[static_cast<size_t>(r)].push_back(static_cast<ProcessorIndex>(packed[at++]));
            }
          }
          planned.plan.trees.push_back(weighted);
        }
      }
      predicted = planned.predicted_seconds;
      algorithm = planned.description;
      std::vector<std::string> ids;
      for (int r = 0; r < size; ++r) ids.push_back(std::to_string(r));
      pipeline = std::make_unique<mpi::ExecutablePipeline>(
          mpi::ExecutablePipeline::prepare(MPI_COMM_WORLD, planned.plan, ids, {}, runtime_options));
#else
      throw InputError("--tree tree/multi-tree/auto needs the steady-state layer (HETCOLL_WITH_LP)");
#endif
    } else if (use_hetcoll && split_reduce) {
      // The NIC network of the rank cluster (t_u(S) = L_u + S / U_u), with
      // --envelope-bytes per message.
      auto network = runtime->rank_nic_network();
      // Planned on rank 0 (SMPI runs every rank in one process: planning on
      // each would take n times as long), the pieces sent to the others.
      SplitReducePlan planned;
      std::vector<long> pieces;  // element count, aggregator, ...
      if (rank == 0) {
        planned = plan_split_reduce(network, options.root, static_cast<std::size_t>(count), type_size);
        for (const auto& piece : planned.pieces) {
          pieces.push_back(static_cast<long>(piece.count));
          pieces.push_back(piece.aggregator);
        }
      }
      int length = static_cast<int>(pieces.size());
      MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
      pieces.resize(static_cast<size_t>(length));
      MPI_Bcast(pieces.data(), length, MPI_LONG, 0, MPI_COMM_WORLD);
      if (rank != 0) {
        std::vector<std::size_t> counts;
        std::vector<ProcessorIndex> aggregators;
        for (size_t i = 0; i + 1 < pieces.size(); i += 2) {
          counts.push_back(static_cast<std::size_t>(pieces[i]));
          aggregators.push_back(static_cast<ProcessorIndex>(pieces[i + 1]));
        }
        planned = make_split_reduce(network, options.root, type_size, counts, aggregators);
        planned.algorithm = fmt::format("split reduce, {} pieces", planned.pieces.size());
      }
      predicted = planned.predicted_seconds;
      std::string sizes;
      for (const auto& piece : planned.pieces) sizes += fmt::format("{}{}@{}", sizes.empty() ? "" : " ", piece.count, piece.aggregator);
      algorithm = fmt::format("hetcoll {} (elements@aggregator: {}); lower bound {:.4g} s", planned.algorithm, sizes,
                              split_reduce_lower_bound(network, options.root, static_cast<std::size_t>(count), type_size));
      program = std::make_unique<CommProgram>(program_of_split_reduce(planned));
      split = true;
    } else if (use_hetcoll && segmented_reduce) {
      auto cost = platform_costs(platform, runtime->processor_of_rank());
      std::vector<std::pair<std::string, mpi::PipelineTree>> candidates;
      if (options.tree == "plan" || options.tree == "auto") {
        auto whole = mpi::plan_for_ranks(platform, runtime->processor_of_rank(), Operation::reduce, options.root, bytes,
                                         options.algorithm, planning.model);
        candidates.emplace_back(whole.algorithm, mpi::reduce_tree_from_plan(whole, size));
      }
      if (options.tree == "chain" || options.tree == "auto") {
        // Fastest ranks nearest the root: they forward everything below them.
        std::vector<ProcessorIndex> order;
        for (auto p : runtime->rank_cluster(bytes).fastest_first_order()) {
          if (p != options.root) order.push_back(p);
        }
        candidates.emplace_back("chain", mpi::PipelineTree::chain(options.root, order));
      }
      if (options.tree == "binomial" || options.tree == "auto") {
        candidates.emplace_back("binomial", mpi::PipelineTree::binomial(size, options.root));
      }
      if (candidates.empty()) throw InputError("--tree: a segmented reduce takes plan, chain, binomial or auto");
      auto choice = mpi::choose_segmented_reduce(candidates, bytes, type_size, cost);
      if (options.slice_bytes > 0) {
        choice.plan.segment_bytes = static_cast<std::size_t>(options.slice_bytes);
        choice.predicted_seconds = mpi::predict_pipelined_reduce(choice.plan, bytes, type_size, cost);
      }
      predicted = choice.predicted_seconds;
      algorithm = fmt::format("hetcoll segmented reduce ({} tree); {} B segments", choice.plan.algorithm,
                              choice.plan.segment_bytes);
      std::vector<std::string> ids;
      for (int r = 0; r < size; ++r) ids.push_back(std::to_string(r));
      pipeline = std::make_unique<mpi::ExecutablePipeline>(
          mpi::ExecutablePipeline::prepare(MPI_COMM_WORLD, mpi::as_pipeline(choice.plan), ids, {}, runtime_options));
    } else if (use_hetcoll && options.collective == "pipelined-bcast") {
      auto cluster = runtime->rank_cluster(options.slice_bytes > 0 ? static_cast<double>(options.slice_bytes) : 65536.0);
      mpi::PipelineTree tree;
      std::vector<ProcessorIndex> order;
      for (auto p : cluster.fastest_first_order()) {
        if (p != options.root) order.push_back(p);
      }
      if (options.tree == "binomial") tree = mpi::PipelineTree::binomial(size, options.root);
      else if (options.tree == "chain") tree = mpi::PipelineTree::chain(options.root, order);
      else tree = mpi::PipelineTree::from_plan(mpi::plan_for_cluster(cluster, Operation::broadcast, options.root, "fnf"), size);
      mpi::PipelinedBroadcastPlan pipelined{{{1.0, tree}}, 65536, "pipelined " + options.tree + " tree"};
      auto cost = platform_costs(platform, runtime->processor_of_rank());
      if (options.slice_bytes > 0) {
        pipelined.slice_bytes = static_cast<size_t>(options.slice_bytes);
      } else {
        double best = std::numeric_limits<double>::infinity();
        for (double slice = 1024; slice <= std::max(bytes, 1024.0); slice *= 2) {
          pipelined.slice_bytes = static_cast<size_t>(slice);
          double time = mpi::predict_pipelined_broadcast(pipelined, bytes, type_size, cost);
          if (time < best) best = time;
        }
        for (double slice = 1024; slice <= std::max(bytes, 1024.0); slice *= 2) {
          pipelined.slice_bytes = static_cast<size_t>(slice);
          if (mpi::predict_pipelined_broadcast(pipelined, bytes, type_size, cost) == best) break;
        }
      }
      predicted = mpi::predict_pipelined_broadcast(pipelined, bytes, type_size, cost);
      algorithm = fmt::format("pipelined {} tree; {} B slices", options.tree, pipelined.slice_bytes);
      std::vector<std::string> ids;
      for (int r = 0; r < size; ++r) ids.push_back(std::to_string(r));
      pipeline = std::make_unique<mpi::ExecutablePipeline>(
          mpi::ExecutablePipeline::prepare(MPI_COMM_WORLD, pipelined, ids, {}, runtime_options));
    } else if (use_hetcoll && options.collective == "split-allreduce" && planning.model != PlanModel::eager) {
      // Planned in the NIC fluid model of the rank cluster (with
      // --envelope-bytes per message) on rank 0, as the split reduce; the
      // piece sizes and chunk count sent to the others, who rebuild it.
      auto network = runtime->rank_nic_network();
      std::vector<long> shape;  // chunks, then each rank's piece (elements)
      double pace = 1;
      if (rank == 0) {
        const auto best = plan_split_allreduce_nic(network, static_cast<std::size_t>(elements), type_size);
        shape.assign(static_cast<size_t>(size) + 1, 0);
        shape[0] = static_cast<long>(best.chunks);
        for (const auto& piece : best.pieces) shape[piece.spreader + 1] = static_cast<long>(piece.elements);
        pace = best.pace;
      }
      shape.resize(static_cast<size_t>(size) + 1);
      MPI_Bcast(shape.data(), size + 1, MPI_LONG, 0, MPI_COMM_WORLD);
      MPI_Bcast(&pace, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      std::vector<std::size_t> sizes(shape.begin() + 1, shape.end());
      auto planned = make_split_allreduce_nic(network, static_cast<std::size_t>(elements), type_size, sizes,
                                              static_cast<std::size_t>(shape[0]), pace);
      predicted = planned.makespan;
      algorithm = "hetcoll " + planned.algorithm;
      program = std::make_unique<CommProgram>(program_of_split_allreduce(planned));
      split = true;
    } else if (use_hetcoll && options.collective == "split-allreduce") {
      if (platform.is_cluster()) throw InputError("--collective split-allreduce needs a platform graph (JSON graph or SimGrid XML)");
      auto costs = SplitCosts::of(platform.graph(), runtime->processor_of_rank());
      auto planned = plan_split_allreduce(costs, static_cast<std::size_t>(elements), type_size, options.envelope_bytes);
      predicted = planned.makespan;
      algorithm = "hetcoll " + planned.algorithm;
      program = std::make_unique<CommProgram>(
          program_of_split_allreduce(planned, runtime_options.paces_eager_broadcasts()));
      split = true;
    } else if (use_hetcoll && options.collective == "split-bcast") {
      if (platform.is_cluster()) throw InputError("--collective split-bcast needs a platform graph (JSON graph or SimGrid XML)");
      // Every rank plans alike (the planner is deterministic; prepare() checks it by a hash).
      auto costs = SplitCosts::of(platform.graph(), runtime->processor_of_rank());
      auto planned = plan_split_broadcast(costs, static_cast<std::size_t>(options.root), static_cast<std::size_t>(elements),
                                          type_size, options.envelope_bytes);
      predicted = planned.makespan;
      algorithm = "hetcoll " + planned.algorithm;
      program = std::make_unique<CommProgram>(
          program_of_split_broadcast(planned, runtime_options.paces_eager_broadcasts()));
      split = true;
    } else if (use_hetcoll) {
      int root = operation == Operation::allreduce ? -1 : options.root;
      // A plan for this very size (on a graph the costs depend on it), as
      // the Runtime makes it (it caches plans per exact message size).
      const double plan_bytes = bytes;
      auto exact = mpi::plan_for_ranks(platform, runtime->processor_of_rank(), operation, root,
                                       plan_bytes + options.envelope_bytes, options.algorithm, planning.model);
      // The graph model's makespan is its own prediction. A sender-speed
      // plan of a graph is replayed with each pair's route time: the view it
      // was planned on charges every message the sender's slowest route, an
      // upper bound far off on a WAN.
      predicted = platform.is_cluster() || planning.model != PlanModel::sender_speed
                      ? exact.makespan
                      : mpi::predict_plan_time(exact, bytes, platform_costs(platform, runtime->processor_of_rank()));
      std::vector<std::string> ids;
      for (auto p : runtime->processor_of_rank()) ids.emplace_back(platform.is_cluster() ? platform.cluster().id(p) : platform.graph().id(p));
      plan = std::make_unique<mpi::ExecutablePlan>(mpi::ExecutablePlan::prepare(
          MPI_COMM_WORLD, exact, ids, mpi::RankMapping::by_order(), runtime_options, options.platform));
      algorithm = "hetcoll " + plan->algorithm();
      if (planning.model == PlanModel::platform_graph) algorithm += exact.optimal ? " graph (optimal)" : " graph";
      if (planning.model == PlanModel::eager) {
        // "eager model: flat tree (...)": the tree's shape, for the CSV.
        algorithm += exact.optimal ? " (optimal)" : "";
        if (!exact.notes.empty()) algorithm += "; " + exact.notes.front().substr(exact.notes.front().find(':') + 2);
      }
    }
    auto run_once = [&] {
      if (use_runtime) {
        if (operation == Operation::reduce) runtime->reduce(send.data(), receive.data(), count, datatype, op, options.root);
        else if (operation == Operation::allreduce) runtime->allreduce(send.data(), receive.data(), count, datatype, op);
        else if (operation == Operation::allgather) {
          runtime->allgather(send.data(), count, datatype, receive.data(), count, datatype);
        } else runtime->bcast(send.data(), count, datatype, options.root);
      } else if (program) {
        MPI_Comm comm = MPI_COMM_WORLD;
        if (operation == Operation::reduce) {
          mpi::reduce(send.data(), receive.data(), count, datatype, op, options.root, *program, comm, comm, runtime_options);
        } else if (operation == Operation::allreduce) {
          mpi::allreduce(send.data(), receive.data(), count, datatype, op, *program, comm, comm, runtime_options);
        } else if (operation == Operation::allgather) {
          mpi::allgather(send.data(), receive.data(), count, datatype, *program, comm, comm, runtime_options);
        } else {
          mpi::bcast(send.data(), count, datatype, options.root, *program, comm, comm, runtime_options);
        }
      } else if (!use_hetcoll) {
        if (operation == Operation::reduce) MPI_Reduce(send.data(), receive.data(), count, datatype, op, options.root, MPI_COMM_WORLD);
        else if (operation == Operation::allreduce) MPI_Allreduce(send.data(), receive.data(), count, datatype, op, MPI_COMM_WORLD);
        else if (operation == Operation::allgather) {
          MPI_Allgather(send.data(), count, datatype, receive.data(), count, datatype, MPI_COMM_WORLD);
        } else MPI_Bcast(send.data(), count, datatype, options.root, MPI_COMM_WORLD);
      } else if (pipeline && segmented_reduce) {
        mpi::reduce(send.data(), receive.data(), count, datatype, op, options.root, MPI_COMM_WORLD, *pipeline);
      } else if (pipeline) {
        mpi::bcast(send.data(), count, datatype, options.root, MPI_COMM_WORLD, *pipeline);
      } else if (operation == Operation::reduce) {
        mpi::reduce(send.data(), receive.data(), count, datatype, op, options.root, MPI_COMM_WORLD, *plan);
      } else if (operation == Operation::allreduce) {
        mpi::allreduce(send.data(), receive.data(), count, datatype, op, MPI_COMM_WORLD, *plan);
      } else {
        mpi::bcast(send.data(), count, datatype, options.root, MPI_COMM_WORLD, *plan);
      }
    };
    std::vector<double> times;
    if (options.predict_only) times.push_back(std::nan(""));
    for (int repetition = 0; repetition <= options.repetitions && !options.predict_only; ++repetition) {
      double start = common_start();
      sleep_until(start);
      run_once();
      double took = MPI_Wtime() - start, longest = 0;
      MPI_Reduce(&took, &longest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      if (repetition > 0) times.push_back(longest);  // the first run is a warm-up
    }
    std::replace(algorithm.begin(), algorithm.end(), ',', ';');  // one CSV field
    if (rank == 0) {
      std::string implementation = split ? "hetcoll-split"
                                   : !use_hetcoll || pipeline                   ? options.implementation
                                   : planning.model == PlanModel::platform_graph ? "hetcoll-graph"
                                   : planning.model == PlanModel::eager          ? "hetcoll-eager"
                                                                                 : options.implementation;
      std::printf("%s,%s,%s,%s,%ld,%.0f,%.9g,%.9g,%d,%s,%s,%d\n", options.platform.c_str(),
                  segmented_reduce || split_reduce ? "reduce"
                  : options.collective == "split-bcast"     ? "bcast"
                  : options.collective == "split-allreduce" ? "allreduce"
                                                   : options.collective.c_str(),
                  implementation.c_str(), algorithm.c_str(), elements, bytes, median(times), predicted,
                  options.repetitions, options.datatype.c_str(), options.op.c_str(), size);
      std::fflush(stdout);
    }
  }
  if (options.op == "gcd") MPI_Op_free(&op);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  try {
    status = run(parse(argc, argv));
  } catch (const std::exception& error) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::fprintf(stderr, "hetcoll_mpi_bench: %s\n", error.what());
    status = 2;
  }
  MPI_Finalize();
  return status;
}
