// algorithms: list the registry.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

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

int run_algorithms(bool json) {
  if (json) {
    std::cout << "[";
    bool first = true;
    for (const auto& a : makespan_algorithms()) {
      std::cout << (first ? "\n " : ",\n ")
                << fmt::format("{{\"name\": {}, \"operation\": \"{}\", \"model\": \"cluster\", \"guarantee\": {}, "
                               "\"complexity\": {}, \"reference\": {}, \"default\": {}, \"summary\": {}}}",
                               json_quote(a.name), to_string(a.operation), json_quote(a.guarantee),
                               json_quote(a.complexity), json_quote(a.reference), a.is_default ? "true" : "false",
                               json_quote(a.summary));
      first = false;
    }
    // Graph planners handle every operation: one entry per operation.
    for (const auto& a : graph_makespan_algorithms()) {
      for (auto operation : {Operation::broadcast, Operation::multicast, Operation::reduce, Operation::allreduce}) {
        std::cout << fmt::format(",\n {{\"name\": {}, \"operation\": \"{}\", \"model\": \"graph\", \"guarantee\": {}, "
                                 "\"complexity\": {}, \"reference\": {}, \"default\": {}, \"summary\": {}}}",
                                 json_quote(a.name), to_string(operation), json_quote(a.guarantee.text),
                                 json_quote(a.complexity), json_quote(a.reference), a.is_default ? "true" : "false",
                                 json_quote(a.summary));
      }
    }
    std::cout << "\n]\n";
    return 0;
  }
  std::cout << "Makespan algorithms (sender-speed cluster model):\n";
  for (auto operation : {Operation::broadcast, Operation::multicast, Operation::reduce, Operation::allreduce}) {
    std::cout << fmt::format("\n{}\n", to_string(operation));
    for (const auto& a : makespan_algorithms()) {
      if (a.operation != operation) continue;
      std::cout << fmt::format("  {:<12}{}{}\n  {:<12}guarantee: {}\n  {:<12}time: {}\n  {:<12}reference: {}\n",
                               a.name, a.is_default ? "[default] " : "", a.summary, "", a.guarantee, "",
                               a.complexity, "", a.reference);
    }
  }
  std::cout << "\nMakespan planners on platform graphs (every operation; --view graph, the default there):\n";
  for (const auto& a : graph_makespan_algorithms()) {
    std::cout << fmt::format("  {:<12}{}{}\n  {:<12}guarantee: {}\n  {:<12}time: {}\n  {:<12}reference: {}\n", a.name,
                             a.is_default ? "[default] " : "", a.summary, "", a.guarantee.text, "", a.complexity, "",
                             a.reference);
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
