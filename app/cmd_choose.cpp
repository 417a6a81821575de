// choose: what hetcoll's MPI drop-in runs for one call, and why — every
// candidate (the MPI library's default, MPI libraries' own algorithms,
// hetcoll's plans) predicted by one flow model (registry/program_chooser.h).
#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "cli_common.h"
#include "option_table.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "hetcoll/makespan/flow_lower_bound.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/registry/program_chooser.h"
#include "hetcoll/report/program_choice_text.h"

namespace hetcoll::cli {
namespace {

struct ChooseOptions {
  PlatformOptions platform;
  std::string operation = "bcast";
  std::size_t count = 0;
  std::size_t element_bytes = 4;
  int root = 0;
  int ranks = 0;  // 0: every host
  double margin = 0.02;
  bool non_commutative = false;
  bool json = false;
  bool bound_only = false;
  std::string library = "smpi";
};

int run_choose(const ChooseOptions& options) {
  const LoadedPlatform loaded = load_platform(options.platform);
  if (!chooser_applies(loaded)) {
    throw InputError("platform", fmt::format("{}: choose needs a platform graph with latencies and bandwidths (a "
                                             "SimGrid XML file, or a JSON graph with latency/bandwidth edges)",
                                             loaded.source_name));
  }
  const auto hosts = loaded.graph().participants();
  if (options.ranks > static_cast<int>(hosts.size())) {
    throw InputError("ranks", fmt::format("{} ranks asked, the platform has {} hosts", options.ranks, hosts.size()));
  }
  // Rank r plays the r-th host of the file, as the MPI runtime maps them by default.
  const std::vector<ProcessorIndex> members(hosts.begin(),
                                            hosts.begin() + (options.ranks > 0 ? options.ranks : hosts.size()));
  CallShape call;
  call.operation = options.operation == "reduce"      ? Operation::reduce
                   : options.operation == "allreduce" ? Operation::allreduce
                   : options.operation == "allgather" ? Operation::allgather
                                                      : Operation::broadcast;
  call.root = options.root;
  call.count = options.count;
  call.element_bytes = options.element_bytes;
  call.commutative = !options.non_commutative;
  ChooserOptions chooser;
  chooser.margin = options.margin;
  chooser.library = options.library == "openmpi" ? MpiLibrary::openmpi
                    : options.library == "other" ? MpiLibrary::unknown
                                                 : MpiLibrary::smpi;
  chooser.flow.envelope_bytes = sim::kSmpiEnvelopeBytes;  // as the runtime (mpi/runtime.cpp)
  const int ranks = static_cast<int>(members.size());
  const bool rooted = call.operation == Operation::broadcast || call.operation == Operation::reduce;
  if (rooted && (call.root < 0 || call.root >= ranks)) {
    throw InputError("root", fmt::format("root {} is not a rank of the communicator of {} ranks", call.root, ranks));
  }
  const FlowNetwork network(loaded.graph(), members);
  // The flow lower bound covers bcast, reduce and allreduce (not all-gathers).
  std::optional<FlowLowerBound> bound;
  if (call.operation != Operation::allgather) {
    bound = flow_lower_bound(network, call.operation, static_cast<std::size_t>(rooted ? call.root : 0), call.count,
                             call.element_bytes, chooser.flow.envelope_bytes);
  } else if (options.bound_only) {
    throw InputError("operation", "no lower bound is computed for allgather (bcast, reduce and allreduce have one)");
  }
  if (options.bound_only) {
    std::cout << (options.json ? flow_lower_bound_json(*bound, call, ranks) + "\n" : flow_lower_bound_text(*bound));
    return 0;
  }
  const auto choice = choose_program(loaded, members, call, chooser);
  const FlowLowerBound* shown = bound ? &*bound : nullptr;
  if (options.json) {
    std::cout << program_choice_json(choice, call, ranks, shown) << "\n";
  } else {
    std::cout << program_choice_text(choice, call, ranks, loaded.source_name, shown);
  }
  return 0;
}

}  // namespace

void add_choose_command(CLI::App& app, int& result) {
  auto options = std::make_shared<ChooseOptions>();
  auto* choose = app.add_subcommand(
      "choose",
      "What hetcoll's MPI library (libhetcoll_pmpi.so) runs for one MPI_Bcast, MPI_Reduce, MPI_Allreduce or "
      "MPI_Allgather call on a "
      "platform graph: every candidate — the MPI library's default, MPI libraries' own algorithms (as SimGrid SMPI "
      "implements them), hetcoll's plans — predicted by one flow model (SimGrid's CM02 link sharing, SMPI's eager "
      "and rendezvous sends), fastest first; '*' marks what runs. Ranks play the platform's hosts in file order.");
  add_table_option(choose, "--platform", options->platform.platform_file)->required();
  add_table_option(choose, "--operation", options->operation)
      ->check(CLI::IsMember({"bcast", "broadcast", "reduce", "allreduce", "allgather"}));
  choose->add_option("--count", options->count,
                     "Elements in the call (MPI's count, 1 to 2147483647; allgather: each rank's block)")
      ->required()
      ->check(CLI::PositiveNumber);
  add_table_option(choose, "--element-bytes", options->element_bytes);
  add_table_option(choose, "--root", options->root)->check(CLI::NonNegativeNumber);
  choose->add_option("--ranks", options->ranks, "Ranks in the communicator: the first N hosts (default: every host)")
      ->check(CLI::PositiveNumber);
  choose->add_option("--margin", options->margin,
                     "The library's default runs unless a candidate is predicted faster by more than this fraction "
                     "(default 0.02)")
      ->check(CLI::Range(0.0, 1.0));
  choose->add_flag("--non-commutative", options->non_commutative,
                   "The reduction is not commutative (the library's default then runs)");
  choose->add_option("--library", options->library,
                     "Whose default mpi:default is: smpi (SimGrid SMPI's default selector, the default), openmpi "
                     "(Open MPI 4.1's fixed decision, where the algorithm it picks is modelled) or other (not "
                     "modelled)")
      ->check(CLI::IsMember({"smpi", "openmpi", "other"}));
  choose->add_flag("--bound-only", options->bound_only,
                   "Print only the lower bound on every schedule of the call in the flow model (no candidate planned "
                   "or predicted: fast at any message size)");
  add_table_flag(choose, "--json", options->json);
  choose->callback([options, &result] { result = run_choose(*options); });
}

}  // namespace hetcoll::cli
