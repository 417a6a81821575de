#include "hetcoll/registry/program_chooser.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/mpi_algorithms/stock_mpi.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/makespan/split/split_allgather.h"
#include "hetcoll/makespan/split/split_allreduce.h"
#include "hetcoll/makespan/split/split_allreduce_nic.h"
#include "hetcoll/makespan/split/split_broadcast.h"
#include "hetcoll/makespan/split/split_reduce.h"
#include "hetcoll/makespan/sites/site_collectives.h"
#include "hetcoll/model/split_costs.h"
#include "hetcoll/plan/plan_program.h"
#include "hetcoll/plan/split_program.h"
#include "hetcoll/registry/plans_on_ranks.h"

namespace hetcoll {
namespace {

constexpr std::string_view kMpiPrefix = "mpi:";
constexpr std::string_view kDefault = "mpi:default";
constexpr std::string_view kSplit = "hetcoll:split";
constexpr std::string_view kSplitNic = "hetcoll:split-nic";
constexpr std::string_view kSites = "hetcoll:sites";
// The most messages a split all-reduce candidate may have (fewer chunks
// beyond): planning and predicting a program costs about its messages x
// the ranks, and 64 ranks with 16 chunks (130,000 messages) took a minute.
constexpr std::size_t kMaxSplitMessages = 20'000;
constexpr std::string_view kCandidateNames = "mpi:NAME, hetcoll:graph, hetcoll:sender-speed, hetcoll:eager, hetcoll:eager-paced, hetcoll:split, "
                                                "hetcoll:split-nic, hetcoll:sites";

struct HetcollCandidate {
  std::string_view name;
  PlanModel model;
  bool paced = false;  // sends at their planned times (eager broadcasts)
};
constexpr HetcollCandidate kHetcollCandidates[] = {
    {"hetcoll:graph", PlanModel::platform_graph},
    {"hetcoll:sender-speed", PlanModel::sender_speed},
    {"hetcoll:eager", PlanModel::eager},
    {"hetcoll:eager-paced", PlanModel::eager, true},
};

bool has_root(Operation operation) { return operation == Operation::broadcast || operation == Operation::reduce; }

void check_call(const CallShape& call, std::size_t ranks) {
  if (call.operation != Operation::broadcast && call.operation != Operation::reduce &&
      call.operation != Operation::allreduce && call.operation != Operation::allgather) {
    throw InputError("operation", fmt::format("the chooser handles broadcast, reduce, allreduce and allgather, not {}",
                                              to_string(call.operation)));
  }
  if (has_root(call.operation) && (call.root < 0 || static_cast<std::size_t>(call.root) >= ranks)) {
    throw InputError("root", fmt::format("root {} is not a rank of the communicator of {} ranks", call.root, ranks));
  }
  if (call.element_bytes == 0) throw InputError("element_bytes", "must be at least 1");
  // MPI's count is an int; a call of no element sends nothing (MPI returns at once).
  if (call.count == 0 || call.count > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw InputError("count", fmt::format("must be 1 to {} elements (MPI's count is an int), got {}",
                                          std::numeric_limits<int>::max(), call.count));
  }
}

std::string hetcoll_refusal(const CallShape& call, PlanModel model) {
  if (call.operation == Operation::allgather) return "whole-message plans: broadcasts, reduces and all-reduces";
  if (model == PlanModel::eager && call.operation == Operation::allreduce) return "eager plans: broadcasts and reduces";
  if (!call.commutative) return "combines in arrival order: commutative operations only";
  if (call.count == 0) return "nothing to send";
  return {};
}

}  // namespace

std::size_t call_data_elements(const CallShape& call, int ranks) {
  return call.operation == Operation::allgather ? call.count * static_cast<std::size_t>(std::max(ranks, 0)) : call.count;
}

bool chooser_applies(const LoadedPlatform& platform) {
  return !platform.is_cluster() && !platform.graph().has_fixed_costs();
}

// Why `name` is not a candidate for `call`, or empty (an unknown name throws).
std::string candidate_refusal(int ranks, const CallShape& call, const std::string& name) {
  if (name.starts_with(kMpiPrefix)) {
    const auto& algorithm = find_mpi_algorithm(call.operation, std::string_view(name).substr(kMpiPrefix.size()));
    if (auto refusal = algorithm.refusal(ranks, call.count, call.element_bytes); !refusal.empty()) return refusal;
    if (!call.commutative && call.operation != Operation::broadcast && name != kDefault) {
      return "assumes a commutative operation";
    }
    return {};
  }
  for (const auto& candidate : kHetcollCandidates) {
    if (name != candidate.name) continue;
    if (candidate.paced && call.operation != Operation::broadcast) return "paced eager plans: broadcasts";
    return hetcoll_refusal(call, candidate.model);
  }
  if (name == kSplit || name == kSplitNic) {
    if (name == kSplitNic && call.operation != Operation::allreduce) {
      return "the NIC fluid model's split plan is the all-reduce's (the split reduce is planned in it already)";
    }
    if (!call.commutative && call.operation != Operation::broadcast) return "combines at aggregators: commutative operations only";
    if (ranks < 2) return "one rank: nothing to split";
    return {};
  }
  if (name == kSites) {
    if (call.operation == Operation::allgather) return "site plans: broadcasts, reduces and all-reduces";
    if (!call.commutative && call.operation != Operation::broadcast) return "combines at site leaders: commutative operations only";
    if (ranks < 2) return "one rank: one site";
    return {};
  }
  throw InputError("algorithm", fmt::format("unknown candidate \"{}\" ({})", name, kCandidateNames));
}

namespace {

// The split all-gather (makespan/split/split_allgather.h) of the call.
CommProgram split_allgather_program(const LoadedPlatform& platform,
                                    const std::vector<ProcessorIndex>& processor_of_rank, const CallShape& call) {
  const FlowNetwork network(platform.graph(), processor_of_rank);
  SplitAllgatherOptions options;
  options.envelope_bytes = sim::kSmpiEnvelopeBytes;
  options.flow.envelope_bytes = sim::kSmpiEnvelopeBytes;
  return plan_split_allgather(platform.graph(), processor_of_rank, network, call.count, call.element_bytes, options)
      .program;
}

// The split plan of the call on the ranks (makespan/split/), planned for the
// message plus SMPI's envelope, lowered to its program.
CommProgram split_program(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                          const CallShape& call, bool nic_fluid) {
  const auto element_bytes = static_cast<double>(call.element_bytes);
  const double envelope = sim::kSmpiEnvelopeBytes;
  if (nic_fluid) {
    const auto network = nic_network_of_ranks(platform, processor_of_rank, envelope);
    SplitAllreduceNicOptions nic_options;
    nic_options.max_messages = kMaxSplitMessages;
    return program_of_split_allreduce(plan_split_allreduce_nic(network, call.count, element_bytes, nic_options));
  }
  if (call.operation == Operation::reduce) {
    const auto network = nic_network_of_ranks(platform, processor_of_rank, envelope);
    return program_of_split_reduce(plan_split_reduce(network, call.root, call.count, element_bytes));
  }
  if (call.operation == Operation::allgather) return split_allgather_program(platform, processor_of_rank, call);
  const auto costs = SplitCosts::of(platform.graph(), processor_of_rank);
  if (call.operation == Operation::broadcast) {
    return program_of_split_broadcast(
        plan_split_broadcast(costs, static_cast<std::size_t>(call.root), call.count, element_bytes, envelope));
  }
  return program_of_split_allreduce(plan_split_allreduce(costs, call.count, element_bytes, envelope, kMaxSplitMessages));
}

}  // namespace

CommProgram candidate_program(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                              const CallShape& call, const std::string& name) {
  check_call(call, processor_of_rank.size());
  const int ranks = static_cast<int>(processor_of_rank.size());
  if (auto refusal = candidate_refusal(ranks, call, name); !refusal.empty()) {
    throw InputError("algorithm", fmt::format("{}: {}", name, refusal));
  }
  if (name.starts_with(kMpiPrefix)) {
    const auto& algorithm = find_mpi_algorithm(call.operation, std::string_view(name).substr(kMpiPrefix.size()));
    return algorithm.generate(ranks, has_root(call.operation) ? call.root : 0, call.count, call.element_bytes);
  }
  for (const auto& candidate : kHetcollCandidates) {
    if (name != candidate.name) continue;
    const int root = call.operation == Operation::allreduce ? -1 : call.root;
    const auto plan = plan_for_ranks(platform, processor_of_rank, call.operation, root,
                                     static_cast<double>(call.count * call.element_bytes), "", candidate.model);
    auto program = program_of_plan(plan, ranks, call.count, candidate.paced);
    program.name = name;
    return program;
  }
  if (name == kSplit || name == kSplitNic) {
    auto program = split_program(platform, processor_of_rank, call, name == kSplitNic);
    program.name = name;
    return program;
  }
  if (name == kSites) {
    // Refused (InputError) when the ranks form one site.
    const FlowNetwork network(platform.graph(), processor_of_rank);
    auto program = program_of_site_plan(plan_site_collective(platform.graph(), processor_of_rank, network,
                                                             call.operation, call.root, call.count, call.element_bytes));
    program.name = name;
    return program;
  }
  throw InputError("algorithm", fmt::format("unknown candidate \"{}\" ({})", name, kCandidateNames));
}

namespace {

double predict(const CommProgram& program, const std::string& name, const FlowNetwork& network,
               const CallShape& call, const sim::FlowModelOptions& flow) {
  check_program(program, call_data_elements(call, program.ranks), name);
  const auto timing = sim::predict_program(program, network, call.element_bytes, flow);
  return timing.completed() ? timing.makespan : std::numeric_limits<double>::infinity();
}

}  // namespace

double predict_candidate(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                         const FlowNetwork& network, const CallShape& call, const std::string& name,
                         const sim::FlowModelOptions& flow) {
  return predict(candidate_program(platform, processor_of_rank, call, name), name, network, call, flow);
}

ProgramChoice choose_program(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                             const CallShape& call, const ChooserOptions& options) {
  if (!chooser_applies(platform)) {
    throw InputError("platform", fmt::format("{}: the chooser needs a platform graph with latencies and bandwidths",
                                             platform.source_name));
  }
  check_call(call, processor_of_rank.size());
  const FlowNetwork network(platform.graph(), processor_of_rank);
  const double infinity = std::numeric_limits<double>::infinity();
  ProgramChoice choice;
  std::shared_ptr<const CommProgram> fastest_program;
  std::string fastest_name;
  double fastest_program_seconds = infinity;
  auto consider = [&](const std::string& name) {
    ProgramCandidate candidate;
    candidate.name = name;
    candidate.predicted_seconds = infinity;
    candidate.refused = candidate_refusal(static_cast<int>(processor_of_rank.size()), call, name);
    if (!candidate.refused.empty()) {
      choice.candidates.push_back(std::move(candidate));
      return;
    }
    try {
      auto program = std::make_shared<CommProgram>(candidate_program(platform, processor_of_rank, call, name));
      candidate.predicted_seconds = predict(*program, name, network, call, options.flow);
      if (candidate.predicted_seconds == infinity) candidate.refused = "the program does not complete in the model";
      // Only the fastest program can run (or none: the library's default).
      if (candidate.predicted_seconds < fastest_program_seconds) {
        fastest_program_seconds = candidate.predicted_seconds;
        fastest_program = std::move(program);
        fastest_name = name;
      }
    } catch (const InputError& error) {
      candidate.refused = error.what();
    }
    choice.candidates.push_back(std::move(candidate));
  };
  for (const auto& algorithm : mpi_algorithms()) {
    if (algorithm.operation != call.operation) continue;
    if (algorithm.name == "default" && options.library != MpiLibrary::smpi) continue;
    consider(fmt::format("{}{}", kMpiPrefix, algorithm.name));
  }
  for (const auto& candidate : kHetcollCandidates) consider(std::string(candidate.name));
  consider(std::string(kSplit));
  consider(std::string(kSplitNic));
  consider(std::string(kSites));
  // Open MPI's default: the prediction of the program its fixed decision runs.
  bool default_modelled = options.library == MpiLibrary::smpi;
  if (options.library == MpiLibrary::openmpi && call.operation != Operation::allgather) {
    const auto program = openmpi_default_program(call.operation, static_cast<int>(processor_of_rank.size()),
                                                 call.count, call.element_bytes, call.commutative);
    for (std::size_t i = 0; !program.empty() && i < choice.candidates.size(); ++i) {
      if (choice.candidates[i].name != fmt::format("{}{}", kMpiPrefix, program)) continue;
      if (!choice.candidates[i].refused.empty()) break;
      ProgramCandidate library_default = choice.candidates[i];
      library_default.name = std::string(kDefault);
      choice.candidates.push_back(std::move(library_default));
      default_modelled = true;
      break;
    }
  }
  std::stable_sort(choice.candidates.begin(), choice.candidates.end(),
                   [](const ProgramCandidate& a, const ProgramCandidate& b) {
                     return a.predicted_seconds < b.predicted_seconds;
                   });

  auto prediction_of = [&](std::string_view name) {
    for (const auto& candidate : choice.candidates) {
      if (candidate.name == name) return candidate.predicted_seconds;
    }
    return infinity;
  };
  const ProgramCandidate& best = choice.candidates.front();
  // The program predicted for `name` (the fastest's, kept above).
  auto program_of = [&](const std::string& name) -> std::shared_ptr<const CommProgram> {
    if (fastest_program && fastest_name == name) return fastest_program;
    return std::make_shared<const CommProgram>(candidate_program(platform, processor_of_rank, call, name));
  };
  choice.default_seconds = default_modelled ? prediction_of(kDefault) : std::nan("");
  choice.chosen = std::string(kDefault);
  choice.chosen_seconds = choice.default_seconds;
  if (!call.commutative && call.operation != Operation::broadcast) {
    choice.reason = "non-commutative operation: the library's own algorithm";
    return choice;
  }
  if (default_modelled) {
    if (best.predicted_seconds < choice.default_seconds / (1 + options.margin)) {
      choice.chosen = best.name;
      choice.chosen_seconds = best.predicted_seconds;
      choice.program = program_of(best.name);
      choice.reason = fmt::format("{} predicted {:.4g} s, the library's default {:.4g} s", best.name,
                                  best.predicted_seconds, choice.default_seconds);
    } else {
      choice.reason = fmt::format("the library's default is within {:.0f} % of the fastest prediction ({})",
                                  100 * options.margin, best.name);
    }
    return choice;
  }
  // The library's default is not modelled: replace it only by a hetcoll
  // plan faster than every MPI algorithm.
  double fastest_mpi = infinity;
  for (const auto& candidate : choice.candidates) {
    if (candidate.name.starts_with(kMpiPrefix)) fastest_mpi = std::min(fastest_mpi, candidate.predicted_seconds);
  }
  if (!best.name.starts_with(kMpiPrefix) && best.predicted_seconds < fastest_mpi / (1 + options.margin)) {
    choice.chosen = best.name;
    choice.chosen_seconds = best.predicted_seconds;
    choice.program = program_of(best.name);
    choice.reason = fmt::format("{} predicted {:.4g} s, every MPI algorithm {:.4g} s or more", best.name,
                                best.predicted_seconds, fastest_mpi);
  } else {
    // The library's own selection is not modelled: it takes at least its
    // fastest algorithm's time.
    choice.chosen_seconds = fastest_mpi;
    choice.reason = "no hetcoll plan is predicted faster than every MPI algorithm: the library's default";
  }
  return choice;
}

}  // namespace hetcoll
