#include "hetcoll/steady/reduction_trees.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "hetcoll/steady/flow_paths.h"

namespace hetcoll {

std::vector<WeightedTree> extract_reduction_trees(const SteadyPlatform& platform, const ReduceProblem& problem,
                                                  const ReduceLpResult& rates) {
  const auto& graph = *platform.platform;
  const auto& edges = graph.edges();
  const int count = static_cast<int>(problem.participants.size());
  const auto n = static_cast<std::size_t>(graph.size());
  std::vector<int> position(n, -1);
  for (int r = 0; r < count; ++r) position[static_cast<std::size_t>(problem.participants[static_cast<std::size_t>(r)])] = r;

  // Send rates per type (dense over edges, only for types that are sent),
  // circulations removed.
  std::map<int, std::vector<Rational>> send_rate;
  for (const auto& send : rates.sends) {
    auto& rate = send_rate[partial_index(count, send.first, send.last)];
    if (rate.empty()) rate.assign(edges.size(), Rational(0));
    rate[send.edge] += send.rate;
  }
  for (auto& [type, rate] : send_rate) cancel_cycles(graph, rate);

  // Tasks per (node, k, m): (split, rate), split ascending.
  std::map<std::tuple<ProcessorIndex, int, int>, std::map<int, Rational>> task_rate;
  for (const auto& task : rates.tasks) task_rate[{task.node, task.first, task.last}][task.split] += task.rate;

  std::vector<WeightedTree> trees;
  Rational left = rates.throughput;
  struct Need {
    int first;
    int last;
    ProcessorIndex node;
  };
  while (left > 0) {
    WeightedTree tree;
    // The rates this tree uses, to take the minimum and subtract.
    std::vector<Rational*> used;
    std::vector<Need> needs{{0, count - 1, problem.root}};
    while (!needs.empty()) {
      const Need need = needs.back();
      needs.pop_back();
      if (need.first == need.last && position[static_cast<std::size_t>(need.node)] == need.first) continue;  // a leaf
      bool produced = false;
      if (auto it = task_rate.find({need.node, need.first, need.last}); it != task_rate.end()) {
        for (auto& [split, rate] : it->second) {
          if (rate <= 0) continue;
          tree.computations.push_back({need.node, need.first, split, need.last});
          used.push_back(&rate);
          needs.push_back({split + 1, need.last, need.node});
          needs.push_back({need.first, split, need.node});
          produced = true;
          break;
        }
      }
      if (produced) continue;
      if (auto it = send_rate.find(partial_index(count, need.first, need.last)); it != send_rate.end()) {
        for (auto e : graph.in_edges(need.node)) {
          auto& rate = it->second[e];
          if (rate <= 0) continue;
          tree.edges.push_back({edges[e].from, need.node, MessageType::partial(need.first, need.last)});
          used.push_back(&rate);
          needs.push_back({need.first, need.last, edges[e].from});
          produced = true;
          break;
        }
      }
      if (!produced) {
        throw std::logic_error("reduction-tree extraction: nothing produces v[" + std::to_string(need.first) + "," +
                               std::to_string(need.last) + "] on " + graph.id(need.node));
      }
    }
    if (used.empty()) throw std::logic_error("reduction-tree extraction: an empty tree");
    Rational weight = left;
    for (auto* rate : used) weight = std::min(weight, *rate);
    for (auto* rate : used) *rate -= weight;
    left -= weight;
    tree.weight = weight;
    trees.push_back(std::move(tree));
  }
  for (const auto& [type, rate] : send_rate) {
    for (const auto& value : rate) {
      if (value != 0) throw std::logic_error("reduction-tree extraction: sends left after the throughput was used up");
    }
  }
  for (const auto& [key, splits] : task_rate) {
    for (const auto& [split, value] : splits) {
      if (value != 0) throw std::logic_error("reduction-tree extraction: tasks left after the throughput was used up");
    }
  }
  return trees;
}

}  // namespace hetcoll
