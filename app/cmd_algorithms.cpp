// algorithms: list the registry.
#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli_common.h"
#include "option_table.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "experiments/experiment.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/plan/plan_json.h"

namespace hetcoll::cli {
namespace {

const char* kind_name(Guarantee::Kind kind) {
  switch (kind) {
    case Guarantee::Kind::exact: return "exact";
    case Guarantee::Kind::ratio: return "ratio";
    case Guarantee::Kind::heuristic: return "heuristic";
  }
  return "?";
}

// {"kind": "ratio", "ratio": 2} (no ratio for exact and heuristic claims;
// "ratio_from_eps": true when it is (1+eps)(1+eps')(1+3eps')).
std::string claim_json(Guarantee::Kind kind, double ratio, bool from_eps = false) {
  if (kind != Guarantee::Kind::ratio) return fmt::format("\"kind\": \"{}\"", kind_name(kind));
  if (from_eps && ratio == 0) return "\"kind\": \"ratio\", \"ratio_from_eps\": true";
  return fmt::format("\"kind\": \"ratio\", \"ratio\": {}", ratio);
}

std::string claim_text(const ClaimCondition& c) {
  if (c.kind == Guarantee::Kind::exact) return "optimal";
  if (c.ratio_from_eps) return "<= (1+eps)(1+eps')(1+3eps') x optimal";
  return fmt::format("<= {:g} x optimal", c.ratio);
}

std::string guarantee_json(const AlgorithmGuarantee& g) {
  std::string conditions;
  for (const auto& c : g.stronger) {
    conditions += fmt::format("{}{{{}, \"condition\": {}, \"reference\": {}}}", conditions.empty() ? "" : ", ",
                              claim_json(c.kind, c.ratio, c.ratio_from_eps), json_quote(c.condition),
                              json_quote(c.reference));
  }
  return fmt::format("{{{}, {}\"when_stopped\": {{{}}}, \"stronger\": [{}], \"text\": {}}}",
                     claim_json(g.kind, g.ratio), g.ratio_from_eps ? "\"ratio_from_eps\": true, " : "",
                     claim_json(g.stopped_kind, g.stopped_ratio), conditions, json_quote(g.text));
}

std::string capabilities_json(const PlannerCapabilities& can) {
  return fmt::format("{{\"eps\": {}, \"order\": {}, \"threads\": {}, \"limits\": {}, \"auto_budget\": {}, "
                     "\"splits_messages\": {}, \"needs_message_size\": {}, \"exact_search\": {}, \"baseline\": {}}}",
                     can.eps, can.order, can.threads, can.limits, can.auto_budget, can.splits_messages,
                     can.needs_message_size, can.exact_search, can.baseline);
}

void print_json() {
  std::cout << "[";
  bool first = true;
  for (const auto& a : planners()) {
    std::cout << (first ? "\n " : ",\n ")
              << fmt::format("{{\"name\": {}, \"operation\": \"{}\", \"model\": \"{}\", \"guarantee\": {}, "
                             "\"guarantee_spec\": {}, \"complexity\": {}, \"reference\": {}, \"default\": {}, "
                             "\"summary\": {}, \"baseline\": {}, \"exact_search\": {}, \"selector\": {}, "
                             "\"capabilities\": {}}}",
                             json_quote(a.name), to_string(a.operation), to_string(a.model),
                             json_quote(a.guarantee.text), guarantee_json(a.guarantee), json_quote(a.complexity),
                             json_quote(a.reference), a.is_default, json_quote(a.summary), a.capabilities.baseline,
                             a.capabilities.exact_search, a.is_selector, capabilities_json(a.capabilities));
    first = false;
  }
  std::cout << "\n]\n";
}

// One row: name, summary, guarantee and its stronger claims, time, reference.
// A name longer than the column ("recursive-doubling") starts its summary on
// the next line, so the columns stay aligned.
void print_row(const PlannerEntry& a) {
  if (a.name.size() > 12) std::cout << fmt::format("  {}\n", a.name);
  std::cout << fmt::format("  {:<12} {}{}\n  {:<12} guarantee: {}\n", a.name.size() > 12 ? "" : a.name,
                           a.is_default ? "[default] " : "", a.summary, "", a.guarantee.text);
  for (const auto& c : a.guarantee.stronger) {
    std::cout << fmt::format("  {:<12}   {} when {} ({})\n", "", claim_text(c), c.condition, c.reference);
  }
  std::cout << fmt::format("  {:<12} time: {}\n  {:<12} reference: {}\n", "", a.complexity, "", a.reference);
}

// The rows of one model, under `title`, grouped by operation (`by_operation`)
// or each planner once (graph planners plan every operation alike).
void print_model(CommunicationModel model, const std::string& title, bool by_operation) {
  bool any = false;
  for (const auto& a : planners()) any = any || a.model == model;
  if (!any) return;
  std::cout << "\n" << title << "\n";
  if (!by_operation) {
    for (const auto& a : planners()) {
      if (a.model == model && a.operation == Operation::broadcast) print_row(a);
    }
    return;
  }
  for (auto operation : {Operation::broadcast, Operation::multicast, Operation::reduce, Operation::allreduce,
                          Operation::scatter, Operation::gossip}) {
    bool header = false;
    for (const auto& a : planners()) {
      if (a.operation != operation || a.model != model) continue;
      if (!header) std::cout << fmt::format("\n{}\n", to_string(operation));
      header = true;
      print_row(a);
    }
  }
}

int run_algorithms(bool json) {
  if (json) {
    print_json();
    return 0;
  }
  std::cout << "Every planner of the registry, by the model it plans in (its claims hold in that model).\n";
  print_model(CommunicationModel::sender_speed, "Makespan algorithms (sender-speed cluster model):", true);
  print_model(CommunicationModel::platform_graph,
              "Makespan planners on platform graphs (every operation; --view graph, the default there):", false);
  for (auto operation : {Operation::broadcast, Operation::reduce}) {
    std::cout << (operation == Operation::broadcast
                      ? "\nBroadcast planners in the eager model (hetcoll broadcast --view eager; a platform graph):\n"
                      : "\nReduce planners in the eager model (hetcoll reduce --view eager; a platform graph):\n");
    for (const auto& a : planners()) {
      if (a.model == CommunicationModel::eager && a.operation == operation) print_row(a);
    }
  }
  print_model(CommunicationModel::split,
              "Split plans, eager model with affine costs (the MPI runtime and benchmark run them):", true);
  print_model(CommunicationModel::fluid, "Split plans, NIC fluid model (the MPI runtime and benchmark run them):", true);
  print_model(CommunicationModel::steady_state, "Steady-state planners (hetcoll steady OPERATION):", true);
  print_model(CommunicationModel::pipelined,
              "Pipelined broadcast along one tree (hetcoll tree --heuristic NAME):", true);
  if (!experiments().empty()) {
    std::cout << "\nExperiments (hetcoll experiment NAME):\n";
    for (const auto& e : experiments()) std::cout << fmt::format("  {:<16}{} ({})\n", e.name, e.description, e.reference);
  }
  return 0;
}

}  // namespace

void add_algorithms_command(CLI::App& app, int& result) {
  auto json = std::make_shared<bool>(false);
  CLI::App* algorithms = app.add_subcommand("algorithms", "List the algorithms with their guarantees and references");
  add_table_flag(algorithms, "--json", *json);
  algorithms->callback([&result, json] { result = run_algorithms(*json); });
}

}  // namespace hetcoll::cli
