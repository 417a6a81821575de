#include "hetcoll/plan/plan_header.h"

namespace hetcoll {

const char* to_string(Operation operation) {
  switch (operation) {
    case Operation::broadcast: return "broadcast";
    case Operation::multicast: return "multicast";
    case Operation::reduce: return "reduce";
    case Operation::allreduce: return "allreduce";
    case Operation::scatter: return "scatter";
    case Operation::gossip: return "gossip";
    case Operation::allgather: return "allgather";
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

}  // namespace hetcoll
