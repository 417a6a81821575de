#include "hetcoll/plan/plan.h"

#include <algorithm>

#include <fmt/format.h>

namespace hetcoll {

const char* to_string(Operation operation) {
  switch (operation) {
    case Operation::broadcast: return "broadcast";
    case Operation::multicast: return "multicast";
    case Operation::reduce: return "reduce";
    case Operation::allreduce: return "allreduce";
    case Operation::scatter: return "scatter";
    case Operation::gossip: return "gossip";
  }
  return "?";
}

std::optional<Operation> operation_from_string(std::string_view name) {
  for (auto op : {Operation::broadcast, Operation::multicast, Operation::reduce, Operation::allreduce,
                  Operation::scatter, Operation::gossip}) {
    if (name == to_string(op)) return op;
  }
  return std::nullopt;
}

bool is_makespan_operation(Operation operation) {
  return operation == Operation::broadcast || operation == Operation::multicast || operation == Operation::reduce ||
         operation == Operation::allreduce;
}

const char* to_string(PlanModel model) {
  switch (model) {
    case PlanModel::sender_speed: return "sender-speed";
    case PlanModel::platform_graph: return "graph";
    case PlanModel::eager: return "eager";
    case PlanModel::split: return "split";
    case PlanModel::fluid: return "fluid";
    case PlanModel::steady_state: return "steady-state";
    case PlanModel::pipelined: return "pipelined";
  }
  return "?";
}

std::optional<PlanModel> plan_model_from_string(std::string_view name) {
  for (auto model : {PlanModel::sender_speed, PlanModel::platform_graph, PlanModel::eager, PlanModel::split,
                     PlanModel::fluid, PlanModel::steady_state, PlanModel::pipelined}) {
    if (name == to_string(model)) return model;
  }
  return std::nullopt;
}

bool is_makespan_model(PlanModel model) {
  return model == PlanModel::sender_speed || model == PlanModel::platform_graph || model == PlanModel::eager;
}

const char* to_string(Payload payload) {
  switch (payload) {
    case Payload::broadcast_value: return "value";
    case Payload::partial_reduction: return "partial";
  }
  return "?";
}

std::optional<Payload> payload_from_string(std::string_view name) {
  for (auto payload : {Payload::broadcast_value, Payload::partial_reduction}) {
    if (name == to_string(payload)) return payload;
  }
  return std::nullopt;
}

Guarantee Guarantee::exact() { return {Kind::exact, 1.0, "optimal"}; }

Guarantee Guarantee::at_most(double ratio) {
  return {Kind::ratio, ratio, fmt::format("<= {:g} x optimal", ratio)};
}

Guarantee Guarantee::none() { return {Kind::heuristic, 0.0, "none (heuristic)"}; }

double last_completion(const std::vector<Transfer>& transfers) {
  double last = 0;
  for (const auto& transfer : transfers) last = std::max(last, transfer.end);
  return last;
}

bool is_exchange_allreduce(const MakespanPlan& plan) {
  if (plan.operation != Operation::allreduce) return false;
  std::vector<ProcessorIndex> senders;
  for (const auto& transfer : plan.transfers) {
    if (transfer.payload != Payload::partial_reduction) continue;
    if (transfer.from == plan.root) return true;
    senders.push_back(transfer.from);
  }
  std::sort(senders.begin(), senders.end());
  return std::adjacent_find(senders.begin(), senders.end()) != senders.end();
}

std::vector<ProcessorIndex> parents_of(const MakespanPlan& plan, ProcessorIndex processor_count) {
  std::vector<ProcessorIndex> parent(static_cast<size_t>(processor_count), kNoProcessor);
  std::vector<double> first_end(static_cast<size_t>(processor_count), 0);
  for (const auto& transfer : plan.transfers) {
    if (transfer.to < 0 || transfer.to >= processor_count) continue;
    auto to = static_cast<size_t>(transfer.to);
    if (parent[to] == kNoProcessor || transfer.end < first_end[to]) {
      parent[to] = transfer.from;
      first_end[to] = transfer.end;
    }
  }
  return parent;
}

}  // namespace hetcoll
