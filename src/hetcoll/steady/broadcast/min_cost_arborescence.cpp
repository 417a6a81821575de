#include "hetcoll/steady/broadcast/min_cost_arborescence.h"

#include "hetcoll/core/rational.h"

namespace hetcoll {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// One level of the contraction; `arcs[i]` stands for the caller's arc
// `original[i]`. Returns indices into `arcs`.
template <class Number>
std::optional<std::vector<std::size_t>> solve_level(int nodes, int root, const std::vector<CostedArc<Number>>& arcs) {
  const auto n = static_cast<std::size_t>(nodes);
  std::vector<std::size_t> best(n, kNone);
  for (std::size_t a = 0; a < arcs.size(); ++a) {
    const auto& arc = arcs[a];
    if (arc.from == arc.to || arc.to == root) continue;
    auto& chosen = best[static_cast<std::size_t>(arc.to)];
    if (chosen == kNone || arc.cost < arcs[chosen].cost) chosen = a;
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (static_cast<int>(v) != root && best[v] == kNone) return std::nullopt;
  }
  // Cycles among the chosen arcs: walk up from every node; a walk that meets
  // its own trail has closed a cycle.
  std::vector<int> component(n, -1), walked_from(n, -1);
  int components = 0;
  for (std::size_t start = 0; start < n; ++start) {
    auto u = static_cast<int>(start);
    while (u != root && walked_from[static_cast<std::size_t>(u)] != static_cast<int>(start) &&
           component[static_cast<std::size_t>(u)] < 0) {
      walked_from[static_cast<std::size_t>(u)] = static_cast<int>(start);
      u = arcs[best[static_cast<std::size_t>(u)]].from;
    }
    if (u != root && component[static_cast<std::size_t>(u)] < 0) {
      for (int x = arcs[best[static_cast<std::size_t>(u)]].from; x != u; x = arcs[best[static_cast<std::size_t>(x)]].from) {
        component[static_cast<std::size_t>(x)] = components;
      }
      component[static_cast<std::size_t>(u)] = components++;
    }
  }
  if (components == 0) {
    std::vector<std::size_t> tree;
    for (std::size_t v = 0; v < n; ++v) {
      if (static_cast<int>(v) != root) tree.push_back(best[v]);
    }
    return tree;
  }
  std::vector<char> on_cycle(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    if (component[v] >= 0) {
      on_cycle[v] = 1;
    } else {
      component[v] = components++;
    }
  }
  // Lowering every arc into v by the cost of v's chosen arc changes every
  // arborescence's cost by the same amount (each has one arc into v).
  std::vector<CostedArc<Number>> contracted;
  std::vector<std::size_t> origin;
  for (std::size_t a = 0; a < arcs.size(); ++a) {
    const auto& arc = arcs[a];
    const int from = component[static_cast<std::size_t>(arc.from)], to = component[static_cast<std::size_t>(arc.to)];
    if (from == to || arc.to == root) continue;
    contracted.push_back({from, to, Number(arc.cost - arcs[best[static_cast<std::size_t>(arc.to)]].cost)});
    origin.push_back(a);
  }
  auto inner = solve_level(components, component[static_cast<std::size_t>(root)], contracted);
  if (!inner) return std::nullopt;
  std::vector<std::size_t> tree;
  std::vector<char> entered(n, 0);
  for (auto c : *inner) {
    const auto a = origin[c];
    tree.push_back(a);
    entered[static_cast<std::size_t>(arcs[a].to)] = 1;
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (on_cycle[v] && !entered[v]) tree.push_back(best[v]);
  }
  return tree;
}

}  // namespace

template <class Number>
std::optional<std::vector<std::size_t>> min_cost_arborescence(int nodes, int root,
                                                              const std::vector<CostedArc<Number>>& arcs) {
  if (nodes <= 0 || root < 0 || root >= nodes) return std::nullopt;
  return solve_level(nodes, root, arcs);
}

template std::optional<std::vector<std::size_t>> min_cost_arborescence<double>(int, int,
                                                                               const std::vector<CostedArc<double>>&);
template std::optional<std::vector<std::size_t>> min_cost_arborescence<Rational>(
    int, int, const std::vector<CostedArc<Rational>>&);

}  // namespace hetcoll
