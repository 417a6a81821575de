// algorithms: list the registry.
#include <iostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli_common.h"
#include "commands.h"
#include "hetcoll/core/error.h"
#include "hetcoll/experiments/experiment.h"
#include "hetcoll/makespan/graph/graph_registry.h"
#include "hetcoll/makespan/registry.h"
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

struct EagerPlanner {
  std::string name, summary, guarantee, complexity, reference;
  bool is_default = false;
  Operation operation = Operation::broadcast;
};

// makespan/graph/eager_broadcast.h's heuristics, as --view eager --algo takes them.
const std::vector<EagerPlanner>& eager_planners() {
  static const std::vector<EagerPlanner> planners = {
      {"auto",
       "the best in the eager model of the flat, shortest-path, greedy earliest-arrival and k-ary trees, each node's "
       "sends in Jackson's order",
       "none (heuristic); optimal when the makespan meets the lower bound", "O(k^3 log k) up to 64 participants, "
       "else O(k^2 log k) + about 1,600 trees of O(k log k); at most 4096 participants",
       "Bar-Noy, Kipnis 1994 (postal model); Jackson 1955 (send order)", true},
      {"flat", "the source sends to every other participant", "none (heuristic)", "O(k log k) after the "
       "eager matrix (k route searches)", "the flat tree of MPI's linear broadcast", false},
      // makespan/graph/eager_reduce.h: the broadcast planners on the transposed costs, reversed in time.
      {"auto",
       "the eager broadcast's auto tree from the root on the transposed costs, reversed in time (each node sends "
       "once; its link receives one message at a time)",
       "none (heuristic); optimal when the makespan meets the lower bound (the broadcast's, through the reversal)",
       "that of the eager broadcast's auto, plus O(k^2) for the transposed matrix; at most 4096 participants",
       "Bar-Noy, Kipnis 1994 (postal model); Jackson 1955 (receive order, reversed)", true, Operation::reduce},
      {"flat", "every other participant sends to the root, paced so that the root's link receives one at a time",
       "none (heuristic)", "O(k log k) after the eager matrix (k route searches)",
       "the flat tree of MPI's linear reduce", false, Operation::reduce},
  };
  return planners;
}

int run_algorithms(bool json) {
  if (json) {
    std::cout << "[";
    bool first = true;
    for (const auto& a : makespan_algorithms()) {
      std::cout << (first ? "\n " : ",\n ")
                << fmt::format("{{\"name\": {}, \"operation\": \"{}\", \"model\": \"{}\", \"guarantee\": {}, "
                               "\"guarantee_spec\": {}, \"complexity\": {}, \"reference\": {}, \"default\": {}, "
                               "\"summary\": {}}}",
                               json_quote(a.name), to_string(a.operation), to_string(a.model),
                               json_quote(a.guarantee.text), guarantee_json(a.guarantee), json_quote(a.complexity),
                               json_quote(a.reference), a.is_default ? "true" : "false", json_quote(a.summary));
      first = false;
    }
    // Graph planners handle every operation: one entry per operation, with
    // the same fields as above plus what only they have.
    for (const auto& a : graph_makespan_algorithms()) {
      for (auto operation : {Operation::broadcast, Operation::multicast, Operation::reduce, Operation::allreduce}) {
        std::cout << fmt::format(",\n {{\"name\": {}, \"operation\": \"{}\", \"model\": \"{}\", \"guarantee\": {}, "
                                 "\"guarantee_spec\": {}, \"complexity\": {}, \"reference\": {}, \"default\": {}, "
                                 "\"summary\": {}, \"baseline\": {}, \"exact_search\": {}}}",
                                 json_quote(a.name), to_string(operation),
                                 to_string(CommunicationModel::platform_graph), json_quote(a.guarantee.text),
                                 guarantee_json(a.spec_for(operation)), json_quote(a.complexity), json_quote(a.reference),
                                 a.is_default ? "true" : "false", json_quote(a.summary),
                                 a.is_baseline ? "true" : "false", a.exact ? "true" : "false");
      }
    }
    for (const auto& a : eager_planners()) {
      std::cout << fmt::format(",\n {{\"name\": {}, \"operation\": \"{}\", \"model\": \"eager\", \"guarantee\": {}, "
                               "\"complexity\": {}, \"reference\": {}, \"default\": {}, \"summary\": {}}}",
                               json_quote(a.name), to_string(a.operation), json_quote(a.guarantee), json_quote(a.complexity),
                               json_quote(a.reference), a.is_default ? "true" : "false", json_quote(a.summary));
    }
    std::cout << "\n]\n";
    return 0;
  }
  for (auto model : {CommunicationModel::sender_speed, CommunicationModel::platform_graph}) {
    bool any = false;
    for (const auto& a : makespan_algorithms()) any = any || a.model == model;
    if (!any) continue;
    std::cout << (model == CommunicationModel::sender_speed ? "Makespan algorithms (sender-speed cluster model):\n"
                                                            : "\nMakespan algorithms (platform graph model):\n");
    for (auto operation : {Operation::broadcast, Operation::multicast, Operation::reduce, Operation::allreduce}) {
      bool header = false;
      for (const auto& a : makespan_algorithms()) {
        if (a.operation != operation || a.model != model) continue;
        if (!header) std::cout << fmt::format("\n{}\n", to_string(operation));
        header = true;
        // A name as long as the column ("recursive-doubling") starts its
        // summary on the next line, so the columns stay aligned.
        if (a.name.size() >= 12) std::cout << fmt::format("  {}\n", a.name);
        std::cout << fmt::format("  {:<12}{}{}\n  {:<12}guarantee: {}\n", a.name.size() >= 12 ? "" : a.name,
                                 a.is_default ? "[default] " : "", a.summary, "", a.guarantee.text);
        for (const auto& c : a.guarantee.stronger) {
          std::cout << fmt::format("  {:<12}  {} when {} ({})\n", "", claim_text(c), c.condition, c.reference);
        }
        std::cout << fmt::format("  {:<12}time: {}\n  {:<12}reference: {}\n", "", a.complexity, "", a.reference);
      }
    }
  }
  std::cout << "\nMakespan planners on platform graphs (every operation; --view graph, the default there):\n";
  for (const auto& a : graph_makespan_algorithms()) {
    // Names as long as the column ("hierarchical") keep a space after them.
    std::cout << fmt::format("  {:<12} {}{}\n  {:<12} guarantee: {}\n", a.name, a.is_default ? "[default] " : "",
                             a.summary, "", a.spec.text);
    for (const auto& c : a.spec.stronger) {
      std::cout << fmt::format("  {:<12}   {} when {} ({})\n", "", claim_text(c), c.condition, c.reference);
    }
    std::cout << fmt::format("  {:<12} time: {}\n  {:<12} reference: {}\n", "", a.complexity, "", a.reference);
  }
  for (auto operation : {Operation::broadcast, Operation::reduce}) {
    std::cout << (operation == Operation::broadcast
                      ? "\nBroadcast planners in the eager model (hetcoll broadcast --view eager; a platform graph):\n"
                      : "\nReduce planners in the eager model (hetcoll reduce --view eager; a platform graph):\n");
    for (const auto& a : eager_planners()) {
      if (a.operation != operation) continue;
      std::cout << fmt::format("  {:<12}{}{}\n  {:<12}guarantee: {}\n  {:<12}time: {}\n  {:<12}reference: {}\n", a.name,
                             a.is_default ? "[default] " : "", a.summary, "", a.guarantee, "", a.complexity, "",
                             a.reference);
    }
  }
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
  algorithms->add_flag("--json", *json, "Print as JSON");
  algorithms->callback([&result, json] { result = run_algorithms(*json); });
}

}  // namespace hetcoll::cli
