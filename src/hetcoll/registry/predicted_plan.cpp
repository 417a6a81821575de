#include "hetcoll/registry/predicted_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/eager/eager_broadcast.h"
#include "hetcoll/makespan/eager/eager_reduce.h"
#include "hetcoll/makespan/graph/graph_planner.h"
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/plan/plan_program.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/sim/program_simulation.h"

namespace hetcoll {
namespace {

constexpr const char* kGraphCandidates[] = {"auto", "hierarchical", "lookahead", "ecef", "binomial"};

// The plan on ranks (participant i = rank i), routes left to the network.
MakespanPlan on_ranks(const GraphNetwork& network, MakespanPlan plan) {
  const auto& members = network.participants();
  std::vector<ProcessorIndex> rank_of(static_cast<std::size_t>(network.node_count()), kNoProcessor);
  for (std::size_t r = 0; r < members.size(); ++r) rank_of[static_cast<std::size_t>(members[r])] = static_cast<ProcessorIndex>(r);
  auto to_rank = [&](ProcessorIndex node) { return node == kNoProcessor ? kNoProcessor : rank_of[static_cast<std::size_t>(node)]; };
  plan.root = to_rank(plan.root);
  for (auto& transfer : plan.transfers) {
    transfer.from = to_rank(transfer.from);
    transfer.to = to_rank(transfer.to);
    transfer.route.clear();
  }
  for (auto& target : plan.targets) target = to_rank(target);
  for (auto& helper : plan.helpers) helper = to_rank(helper);
  return plan;
}

// SMPI's sends: what every prediction here assumes.
sim::FlowModelOptions smpi_send_options() {
  sim::FlowModelOptions options;
  options.envelope_bytes = sim::kSmpiEnvelopeBytes;
  return options;
}

double predict(const GraphNetwork& network, const FlowNetwork& flow, const MakespanPlan& plan, double message_bytes) {
  const auto count = static_cast<std::size_t>(std::max(1.0, std::ceil(message_bytes)));
  const auto program = program_of_plan(on_ranks(network, plan), static_cast<int>(flow.size()), count);
  check_program(program, count, plan.algorithm);
  const auto timing = sim::predict_program(program, flow, 1, smpi_send_options());
  return timing.completed() ? timing.makespan : std::numeric_limits<double>::infinity();
}

std::string seconds_text(double value) { return fmt::format("{:.6g} s", value); }

// The fastest of MPI libraries' algorithms (makespan/mpi_algorithms/, as
// SimGrid SMPI implements them) for the request, predicted like the
// candidates: its name and time; +inf when none applies.
std::pair<std::string, double> fastest_mpi_algorithm(const GraphNetwork& network, const FlowNetwork& flow,
                                                     const MakespanRequest& request, double message_bytes) {
  const auto count = static_cast<std::size_t>(std::max(1.0, std::ceil(message_bytes)));
  const int ranks = static_cast<int>(flow.size());
  int root = -1;
  if (request.operation != Operation::allreduce) {
    const auto& members = network.participants();
    const auto node = graph_request_root(network, request);
    root = static_cast<int>(std::find(members.begin(), members.end(), node) - members.begin());
  }
  const auto options = smpi_send_options();
  std::pair<std::string, double> fastest{"", std::numeric_limits<double>::infinity()};
  for (const auto& algorithm : mpi_algorithms()) {
    if (algorithm.operation != request.operation || !algorithm.refusal(ranks, count, 1).empty()) continue;
    try {
      const auto timing = sim::predict_program(algorithm.generate(ranks, root, count, 1), flow, 1, options);
      if (timing.completed() && timing.makespan < fastest.second) fastest = {std::string(algorithm.name), timing.makespan};
    } catch (const InputError&) {
      // not modelled for this call
    }
  }
  return fastest;
}

}  // namespace

bool flow_prediction_applies(const GraphNetwork& network, Operation operation) {
  return network.message_size().has_value() && !network.platform().has_fixed_costs() &&
         (operation == Operation::broadcast || operation == Operation::reduce || operation == Operation::allreduce);
}

PredictedPlan plan_by_flow_prediction(const GraphNetwork& network, const MakespanRequest& request) {
  PredictedPlan result;
  auto run_row = [&](const char* name) {
    const PlannerEntry* row = find_planner(request.operation, CommunicationModel::platform_graph, name);
    if (!row) throw InputError("algorithm", fmt::format("no graph planner \"{}\"", name));
    return row->run_on_graph(network, request);
  };
  if (!flow_prediction_applies(network, request.operation)) {
    result.plan = run_row("auto");
    result.plan.notes.push_back(
        request.operation == Operation::multicast
            ? "predicted: multicasts are not predicted in the flow model; the graph planners' auto plan"
            : "predicted: the flow model needs latencies, bandwidths and a message size; the graph planners' auto plan");
    return result;
  }
  const double message_bytes = *network.message_size();
  const FlowNetwork flow(network.platform(), network.participants());
  const double infinity = std::numeric_limits<double>::infinity();
  std::vector<MakespanPlan> plans;
  auto consider = [&](std::string name, auto&& make) {
    PredictedCandidate candidate{std::move(name), infinity, {}};
    try {
      MakespanPlan plan = make();
      candidate.predicted_seconds = predict(network, flow, plan, message_bytes);
      if (!(candidate.predicted_seconds < infinity)) candidate.skipped = "its program does not complete in the flow model";
      plans.push_back(std::move(plan));
    } catch (const InputError& error) {
      candidate.skipped = error.what();
      plans.emplace_back();
    }
    result.candidates.push_back(std::move(candidate));
  };
  for (const char* name : kGraphCandidates) consider(name, [&] { return run_row(name); });
  if (request.operation != Operation::allreduce) {
    const ProcessorIndex root = graph_request_root(network, request);
    for (auto heuristic : {EagerHeuristic::automatic, EagerHeuristic::flat, EagerHeuristic::binomial,
                           EagerHeuristic::knomial4}) {
      consider(fmt::format("eager {}", to_string(heuristic)), [&] {
        return request.operation == Operation::reduce ? plan_eager_reduce(network, root, heuristic)
                                                      : plan_eager_broadcast(network, root, heuristic);
      });
    }
  }
  std::size_t best = 0;
  for (std::size_t i = 1; i < result.candidates.size(); ++i) {
    if (result.candidates[i].predicted_seconds < result.candidates[best].predicted_seconds) best = i;
  }
  if (!(result.candidates[best].predicted_seconds < infinity)) {
    throw InputError("platform", fmt::format("predicted: no candidate plan could be predicted ({}: {})",
                                             result.candidates[best].name, result.candidates[best].skipped));
  }
  result.plan = std::move(plans[best]);
  const PredictedCandidate chosen = result.candidates[best];
  std::stable_sort(result.candidates.begin(), result.candidates.end(),
                   [](const PredictedCandidate& a, const PredictedCandidate& b) {
                     return a.predicted_seconds < b.predicted_seconds;
                   });
  std::string others;
  for (const auto& candidate : result.candidates) {
    if (candidate.name == chosen.name) continue;
    others += fmt::format("{}{} {}", others.empty() ? "" : ", ", candidate.name,
                          candidate.skipped.empty() ? seconds_text(candidate.predicted_seconds) : "skipped");
  }
  auto& notes = result.plan.notes;
  notes.insert(notes.begin(),
               {fmt::format("predicted: {} chosen, predicted {} in the flow model (routes' latencies, links shared "
                            "at their capacity, MPI's eager and rendezvous sends, as SimGrid SMPI runs them); "
                            "others: {}",
                            chosen.name, seconds_text(chosen.predicted_seconds), others),
                fmt::format("predicted: the makespan, bound and claims above are those of the {}; the flow model's "
                            "time is a prediction, not a bound",
                            result.plan.model == PlanModel::eager ? "eager model" : "one-port graph model")});
  // Say so when an MPI algorithm is predicted faster (no tree of whole
  // messages reaches scatter + all-gather or Rabenseifner's on large ones).
  const auto [mpi_name, mpi_seconds] = fastest_mpi_algorithm(network, flow, request, message_bytes);
  if (mpi_seconds < chosen.predicted_seconds / 1.02) {
    notes.push_back(fmt::format(
        "predicted: MPI's {} algorithm (as SimGrid SMPI implements it) is predicted {:.3g}x faster ({}): no "
        "whole-message plan reaches it; hetcoll's MPI library (libhetcoll_pmpi.so) runs it or a faster plan for "
        "this call, `hetcoll choose` compares them",
        mpi_name, chosen.predicted_seconds / mpi_seconds, seconds_text(mpi_seconds)));
  }
  return result;
}

}  // namespace hetcoll
