#include "support/test_support.h"

#include <algorithm>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/sender_speed/auto_select.h"

namespace hetcoll::testing {

Cluster random_cluster(std::mt19937_64& rng, int n, int classes, double max_ratio) {
  std::vector<double> times(static_cast<size_t>(n));
  if (classes > 0) {
    std::vector<double> values;
    std::uniform_int_distribution<int> halves(2, static_cast<int>(2 * max_ratio));
    while (static_cast<int>(values.size()) < classes) {
      double value = halves(rng) / 2.0;
      if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
      if (values.size() >= static_cast<size_t>(2 * max_ratio - 1)) break;
    }
    std::uniform_int_distribution<size_t> pick(0, values.size() - 1);
    for (auto& t : times) t = values[pick(rng)];
  } else {
    std::uniform_real_distribution<double> uniform(1.0, max_ratio);
    for (auto& t : times) t = uniform(rng);
  }
  return Cluster::from_times(std::move(times));
}

MakespanRequest random_request(Operation operation, ProcessorIndex n, std::mt19937_64& rng) {
  MakespanRequest request;
  request.operation = operation;
  request.root = static_cast<ProcessorIndex>(rng() % static_cast<std::uint64_t>(n));
  if (operation == Operation::multicast) {
    for (ProcessorIndex p = 0; p < n; ++p) {
      if (p != request.root && rng() % 2) request.targets.push_back(p);
    }
    if (request.targets.empty()) request.targets.push_back(request.root == 0 ? 1 : 0);
  }
  std::vector<ProcessorIndex> order;
  for (ProcessorIndex p = 0; p < n; ++p) {
    if (p != request.root) order.push_back(p);
  }
  std::shuffle(order.begin(), order.end(), rng);
  request.order = order;
  // `auto`: a node budget, so that a loaded machine never changes the plan.
  request.auto_budget.nodes = kAutoSearchNodeBudget;
  return request;
}

std::string source_path(const std::string& relative) { return std::string(HETCOLL_SOURCE_DIR) + "/" + relative; }

std::vector<ProcessorIndex> everyone_but(const Cluster& cluster, ProcessorIndex source) {
  std::vector<ProcessorIndex> receivers;
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != source) receivers.push_back(p);
  }
  return receivers;
}

std::string input_error_message(const std::function<void()>& call) {
  try {
    call();
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace hetcoll::testing
