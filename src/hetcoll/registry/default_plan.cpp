#include "hetcoll/registry/default_plan.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/graph/graph_planner.h"
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/plan/plan_program.h"
#include "hetcoll/registry/plans_on_ranks.h"
#include "hetcoll/registry/program_plan_check.h"
#include "hetcoll/sim/program_simulation.h"

namespace hetcoll {
namespace {

// The chooser's candidates that are not whole-message plans the predicted
// row already weighs (hetcoll:graph and hetcoll:eager are its auto and
// eager auto; mpi:default is one of the named algorithms).
constexpr const char* kHetcollPrograms[] = {"hetcoll:split", "hetcoll:split-nic", "hetcoll:sites", "hetcoll:eager-paced",
                                           "hetcoll:sender-speed"};

sim::FlowModelOptions smpi_sends() {
  sim::FlowModelOptions options;
  options.envelope_bytes = sim::kSmpiEnvelopeBytes;
  return options;
}

std::string seconds(double value) { return fmt::format("{:.6g} s", value); }

// Beyond this many messages a hetcoll program is not a default candidate:
// building, predicting and checking it takes seconds per thousand ranks x
// messages, and SMPI's time to simulate it grows faster than the program.
constexpr std::size_t kMaxHetcollProgramMessages = 20'000;
// Nor beyond this many ranks (their planners grow faster than the ranks).
constexpr std::size_t kMaxHetcollProgramRanks = 256;

struct ProgramCandidates {
  std::vector<ProgramCandidate> candidates;  // fastest first
  std::shared_ptr<const CommProgram> fastest_mpi, fastest_hetcoll;
  double fastest_mpi_seconds = std::numeric_limits<double>::infinity();
  double fastest_hetcoll_seconds = std::numeric_limits<double>::infinity();
};

// Every program candidate for the call, predicted; the fastest MPI
// algorithm's and the fastest hetcoll program's programs kept.
ProgramCandidates predict_program_candidates(const LoadedPlatform& platform,
                                             const std::vector<ProcessorIndex>& processor_of_rank,
                                             const FlowNetwork& flow, const CallShape& call) {
  std::vector<std::string> names;
  for (const auto& algorithm : mpi_algorithms()) {
    if (algorithm.operation == call.operation && algorithm.name != "default") {
      names.push_back(fmt::format("mpi:{}", algorithm.name));
    }
  }
  for (const char* name : kHetcollPrograms) names.emplace_back(name);
  const double infinity = std::numeric_limits<double>::infinity();
  const auto options = smpi_sends();
  ProgramCandidates result;
  for (const auto& name : names) {
    ProgramCandidate candidate{name, infinity, {}};
    const bool is_mpi = name.starts_with("mpi:");
    if (!is_mpi && processor_of_rank.size() > kMaxHetcollProgramRanks) {
      candidate.refused = fmt::format("{} ranks, more than the {} a default hetcoll program may have",
                                      processor_of_rank.size(), kMaxHetcollProgramRanks);
      result.candidates.push_back(std::move(candidate));
      continue;
    }
    try {
      auto program = std::make_shared<CommProgram>(candidate_program(platform, processor_of_rank, call, name));
      check_program(*program, call.count, name);
      if (!is_mpi && program->message_count() > kMaxHetcollProgramMessages) {
        candidate.refused = fmt::format("{} messages, more than the {} a default program may have",
                                        program->message_count(), kMaxHetcollProgramMessages);
        result.candidates.push_back(std::move(candidate));
        continue;
      }
      const auto timing = sim::predict_program(*program, flow, call.element_bytes, options);
      if (timing.completed()) {
        candidate.predicted_seconds = timing.makespan;
        auto& fastest = is_mpi ? result.fastest_mpi_seconds : result.fastest_hetcoll_seconds;
        if (timing.makespan < fastest) {
          fastest = timing.makespan;
          (is_mpi ? result.fastest_mpi : result.fastest_hetcoll) = std::move(program);
        }
      } else {
        candidate.refused = "the program does not complete in the flow model";
      }
    } catch (const InputError& error) {
      candidate.refused = error.what();
    }
    result.candidates.push_back(std::move(candidate));
  }
  std::stable_sort(result.candidates.begin(), result.candidates.end(),
                   [](const ProgramCandidate& a, const ProgramCandidate& b) {
                     return a.predicted_seconds < b.predicted_seconds;
                   });
  return result;
}

// The program that runs instead of a whole-message plan of
// `whole_message_seconds`, or none: the fastest program when it beats the
// whole-message plan by more than the margin; MPI's own algorithm (its
// predictions hold within 0.5 % of SMPI) unless a hetcoll program beats it
// by more than the margin too.
struct WinningProgram {
  std::shared_ptr<const CommProgram> program;
  std::string name;
  double predicted_seconds = 0;
};
std::optional<WinningProgram> winning_program(const ProgramCandidates& programs, double whole_message_seconds) {
  const bool hetcoll_first = programs.fastest_hetcoll_seconds < programs.fastest_mpi_seconds / (1 + kDefaultPlanMargin);
  const double seconds = hetcoll_first ? programs.fastest_hetcoll_seconds : programs.fastest_mpi_seconds;
  if (!(seconds < whole_message_seconds / (1 + kDefaultPlanMargin))) return std::nullopt;
  for (const auto& candidate : programs.candidates) {
    if (candidate.predicted_seconds == seconds && candidate.name.starts_with("mpi:") != hetcoll_first) {
      return WinningProgram{hetcoll_first ? programs.fastest_hetcoll : programs.fastest_mpi, candidate.name, seconds};
    }
  }
  return std::nullopt;
}

void check_call_bytes(double message_bytes, std::size_t element_bytes) {
  if (element_bytes == 0) throw InputError("element_bytes", "must be at least 1");
  const double elements = message_bytes / static_cast<double>(element_bytes);
  if (!(message_bytes >= 1) || elements != std::floor(elements) || elements > std::numeric_limits<int>::max()) {
    throw InputError("element_bytes", fmt::format("the message of {} bytes is not a whole number (1 to {}) of {}-byte "
                                                  "elements",
                                                  message_bytes, std::numeric_limits<int>::max(), element_bytes));
  }
}

}  // namespace

std::string program_candidate_description(const std::string& name, Operation operation) {
  if (name.starts_with("mpi:")) {
    const auto algorithm = std::string_view(name).substr(4);
    std::string what;
    try {
      what = std::string(find_mpi_algorithm(operation, algorithm).description);
    } catch (const InputError&) {
    }
    return fmt::format("MPI's {} {}{}, as SimGrid SMPI implements it", algorithm, to_string(operation),
                       what.empty() ? "" : " (" + what + ")");
  }
  if (name == "hetcoll:split") return fmt::format("hetcoll's split {}: the message cut into pieces sent along several trees at once", to_string(operation));
  if (name == "hetcoll:split-nic") return "hetcoll's split all-reduce planned in the NIC fluid model";
  if (name == "hetcoll:sites") return fmt::format("hetcoll's site {}: the WAN crossed once per site in segments, each site's best MPI algorithm inside", to_string(operation));
  if (name == "hetcoll:eager-paced") return "hetcoll's eager broadcast tree, each send posted at its planned time";
  if (name == "hetcoll:sender-speed") return fmt::format("hetcoll's sender-speed {} plan (one time per host)", to_string(operation));
  return name;
}

DefaultPlan plan_default(const GraphNetwork& network, const MakespanRequest& request, std::size_t element_bytes) {
  const auto started = std::chrono::steady_clock::now();
  DefaultPlan result;
  result.whole_message = plan_by_flow_prediction(network, request);
  if (result.whole_message.candidates.empty()) return result;  // the flow model does not apply
  result.predicted_seconds = result.whole_message.candidates.front().predicted_seconds;
  const double message_bytes = *network.message_size();
  // A message of a fractional number of bytes (a model's size, not an MPI
  // call's) has no program: the whole-message plan stays.
  if (element_bytes == 1 && message_bytes != std::floor(message_bytes)) return result;
  check_call_bytes(message_bytes, element_bytes);
  const std::vector<ProcessorIndex> ranks = network.participants();
  CallShape call;
  call.operation = request.operation;
  call.count = static_cast<std::size_t>(message_bytes) / element_bytes;
  call.element_bytes = element_bytes;
  if (request.operation != Operation::allreduce) {
    const auto root = graph_request_root(network, request);
    call.root = static_cast<int>(std::find(ranks.begin(), ranks.end(), root) - ranks.begin());
  }
  const LoadedPlatform loaded{network.platform(), network.platform().id(ranks.front())};
  const FlowNetwork flow(network.platform(), ranks);
  auto programs = predict_program_candidates(loaded, ranks, flow, call);
  result.program_candidates = programs.candidates;
  const auto winner = winning_program(programs, result.predicted_seconds);
  if (!winner) return result;

  const ProgramCandidate best{winner->name, winner->predicted_seconds, {}};
  result.predicted_seconds = best.predicted_seconds;
  ProgramPlan plan;
  plan.operation = call.operation;
  plan.root = call.operation == Operation::allreduce ? -1 : call.root;
  plan.element_count = call.count;
  plan.element_bytes = element_bytes;
  plan.participants = ranks;
  plan.algorithm = best.name;
  plan.description = program_candidate_description(best.name, call.operation);
  plan.predicted_seconds = best.predicted_seconds;
  const auto options = smpi_sends();
  plan.flow.envelope_bytes = options.envelope_bytes;
  plan.flow.detached_below_bytes = options.detached_below_bytes;
  plan.flow.seconds_per_combined_byte = options.seconds_per_combined_byte;
  plan.program = *winner->program;
  plan.program.name = plan.description;
  const auto& whole = result.whole_message.candidates.front();
  std::string others;
  for (std::size_t i = 0, shown = 0; i < programs.candidates.size() && shown < 4; ++i) {
    const auto& candidate = programs.candidates[i];
    if (!candidate.refused.empty()) break;
    if (candidate.name == best.name) continue;
    ++shown;
    others += fmt::format("{}{} {}", others.empty() ? " " : ", ", candidate.name, seconds(candidate.predicted_seconds));
  }
  plan.notes.push_back(fmt::format(
      "predicted: {} chosen, predicted {} in the flow model (routes' latencies, links shared at their capacity, MPI's "
      "eager and rendezvous sends, as SimGrid SMPI runs them); the fastest whole-message plan ({}) {}{}",
      best.name, seconds(best.predicted_seconds), whole.name, seconds(whole.predicted_seconds),
      others.empty() ? "" : "; next programs:" + others));
  plan.notes.push_back("predicted: the time is a prediction in the flow model, not a bound; no optimality is claimed");
  // Every message's predicted start and arrival, for the file's "transfers".
  const auto timing = predict_program_plan(network.platform(), plan);
  for (const auto& message : timing.message_times) {
    plan.transfers.push_back({message.from, message.to, message.start, message.end});
  }
  plan.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  result.program = std::move(plan);
  return result;
}

DefaultProgram default_plan_program(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                                    const CallShape& call) {
  if (platform.is_cluster() || platform.graph().has_fixed_costs()) {
    throw InputError("platform", fmt::format("{}: the default plan's prediction needs a platform graph with latencies "
                                             "and bandwidths",
                                             platform.source_name));
  }
  if (!call.commutative && call.operation != Operation::broadcast) {
    throw InputError("algorithm", "hetcoll:predicted: combines in arrival order: commutative operations only");
  }
  const int ranks = static_cast<int>(processor_of_rank.size());
  const int root = call.operation == Operation::allreduce ? -1 : call.root;
  const double message_bytes = static_cast<double>(call.count * call.element_bytes);
  const auto whole_plan = plan_for_ranks(platform, processor_of_rank, call.operation, root, message_bytes, "predicted",
                                         PlanModel::platform_graph);
  DefaultProgram result;
  result.program = program_of_plan(whole_plan, ranks, call.count);
  result.program.name = "hetcoll:predicted";
  result.name = fmt::format("predicted ({})", whole_plan.algorithm);
  const FlowNetwork flow(platform.graph(), processor_of_rank);
  check_program(result.program, call.count, "hetcoll:predicted");
  const auto timing = sim::predict_program(result.program, flow, call.element_bytes, smpi_sends());
  result.predicted_seconds = timing.completed() ? timing.makespan : std::numeric_limits<double>::infinity();
  auto programs = predict_program_candidates(platform, processor_of_rank, flow, call);
  if (const auto winner = winning_program(programs, result.predicted_seconds)) {
    result.program = *winner->program;
    result.name = winner->name;
    result.predicted_seconds = winner->predicted_seconds;
  }
  return result;
}

}  // namespace hetcoll
