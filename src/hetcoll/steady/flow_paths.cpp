#include "hetcoll/steady/flow_paths.h"

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace hetcoll {

std::size_t cancel_cycles(const Platform& platform, std::vector<Rational>& rate) {
  const auto& edges = platform.edges();
  const auto n = static_cast<std::size_t>(platform.size());
  std::size_t cancelled = 0;
  // Iterative DFS with colours; on a back edge, walk the stack to get the
  // cycle, cancel it and restart the search (rates only go down).
  while (true) {
    std::vector<char> colour(n, 0);  // 0 new, 1 on stack, 2 done
    std::vector<std::size_t> parent_edge(n, static_cast<std::size_t>(-1));
    bool found = false;
    for (std::size_t root = 0; root < n && !found; ++root) {
      if (colour[root]) continue;
      struct Frame {
        ProcessorIndex node;
        std::size_t next;
      };
      std::vector<Frame> stack{{static_cast<ProcessorIndex>(root), 0}};
      colour[root] = 1;
      while (!stack.empty() && !found) {
        auto& frame = stack.back();
        const auto& out = platform.out_edges(frame.node);
        if (frame.next == out.size()) {
          colour[static_cast<std::size_t>(frame.node)] = 2;
          stack.pop_back();
          continue;
        }
        const auto e = out[frame.next++];
        if (rate[e] <= 0) continue;
        const auto w = static_cast<std::size_t>(edges[e].to);
        if (colour[w] == 0) {
          colour[w] = 1;
          parent_edge[w] = e;
          stack.push_back({edges[e].to, 0});
        } else if (colour[w] == 1) {
          // Cycle: w -> ... -> frame.node -> w.
          std::vector<std::size_t> cycle{e};
          for (auto v = static_cast<std::size_t>(frame.node); v != w;) {
            const auto pe = parent_edge[v];
            cycle.push_back(pe);
            v = static_cast<std::size_t>(edges[pe].from);
          }
          Rational smallest = rate[cycle.front()];
          for (auto c : cycle) smallest = std::min(smallest, rate[c]);
          for (auto c : cycle) rate[c] -= smallest;
          ++cancelled;
          found = true;
        }
      }
    }
    if (!found) return cancelled;
  }
}

std::vector<WeightedPath> decompose_flow(const Platform& platform, ProcessorIndex source,
                                         const std::vector<std::pair<std::size_t, Rational>>& flow,
                                         const std::vector<std::pair<ProcessorIndex, Rational>>& demands) {
  const auto& edges = platform.edges();
  const auto n = static_cast<std::size_t>(platform.size());
  std::vector<Rational> rate(edges.size());
  for (const auto& [e, value] : flow) rate[e] += value;
  cancel_cycles(platform, rate);

  std::vector<WeightedPath> paths;
  for (const auto& [target, demand] : demands) {
    Rational left = demand;
    while (left > 0) {
      // Fewest-hops path in the remaining support.
      std::vector<std::size_t> via(n, static_cast<std::size_t>(-1));
      std::vector<char> seen(n, 0);
      std::deque<ProcessorIndex> queue{source};
      seen[static_cast<std::size_t>(source)] = 1;
      while (!queue.empty() && !seen[static_cast<std::size_t>(target)]) {
        const auto v = queue.front();
        queue.pop_front();
        for (auto e : platform.out_edges(v)) {
          if (rate[e] <= 0) continue;
          const auto w = static_cast<std::size_t>(edges[e].to);
          if (seen[w]) continue;
          seen[w] = 1;
          via[w] = e;
          queue.push_back(edges[e].to);
        }
      }
      if (!seen[static_cast<std::size_t>(target)]) {
        throw std::logic_error("decompose_flow: demand left at " + platform.id(target) + " but no path carries it");
      }
      WeightedPath path;
      path.target = target;
      for (auto v = static_cast<std::size_t>(target); v != static_cast<std::size_t>(source);) {
        path.edges.push_back(via[v]);
        v = static_cast<std::size_t>(edges[via[v]].from);
      }
      std::reverse(path.edges.begin(), path.edges.end());
      path.weight = left;
      for (auto e : path.edges) path.weight = std::min(path.weight, rate[e]);
      for (auto e : path.edges) rate[e] -= path.weight;
      left -= path.weight;
      paths.push_back(std::move(path));
    }
  }
  for (std::size_t e = 0; e < edges.size(); ++e) {
    if (rate[e] != 0) throw std::logic_error("decompose_flow: flow left on an edge after every demand was met");
  }
  return paths;
}

}  // namespace hetcoll
