#include "hetcoll/report/broadcast_tree_text.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "hetcoll/model/element_names.h"

namespace hetcoll {

namespace {

struct HostEdge {
  ProcessorIndex host;
  std::vector<std::size_t> route;  // platform edges from the parent host
};

}  // namespace

std::string broadcast_tree_hosts_text(const Platform& platform, const BroadcastTree& tree) {
  const auto n = static_cast<std::size_t>(platform.size());
  // Each tree edge as platform edges (its route, or the direct edge).
  auto edges_of = [&](const RoutedTreeEdge& edge) {
    if (!edge.route.empty()) return edge.route;
    for (auto e : platform.out_edges(edge.from)) {
      if (platform.edges()[e].to == edge.to) return std::vector<std::size_t>{e};
    }
    return std::vector<std::size_t>{};
  };
  std::vector<std::vector<std::size_t>> out(n);  // tree edges leaving each node
  for (std::size_t i = 0; i < tree.edges.size(); ++i) out[static_cast<std::size_t>(tree.edges[i].from)].push_back(i);
  // The host tree: from each host, the tree edges through network elements
  // (links, routers) up to the next hosts; a host is placed under the first
  // host that reaches it (breadth first from the source).
  std::vector<std::vector<HostEdge>> children(n);
  std::vector<char> placed(n, 0);
  placed[static_cast<std::size_t>(tree.source)] = 1;
  std::vector<ProcessorIndex> queue{tree.source};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const ProcessorIndex host = queue[head];
    std::vector<char> seen(n, 0);
    std::vector<std::pair<std::size_t, std::vector<std::size_t>>> stack;  // (tree edge, route so far)
    const auto& first = out[static_cast<std::size_t>(host)];
    for (auto it = first.rbegin(); it != first.rend(); ++it) stack.push_back({*it, edges_of(tree.edges[*it])});
    while (!stack.empty()) {
      auto [index, route] = std::move(stack.back());
      stack.pop_back();
      const ProcessorIndex to = tree.edges[index].to;
      if (seen[static_cast<std::size_t>(to)]) continue;
      seen[static_cast<std::size_t>(to)] = 1;
      if (!platform.node(to).router) {
        if (placed[static_cast<std::size_t>(to)]) continue;
        placed[static_cast<std::size_t>(to)] = 1;
        children[static_cast<std::size_t>(host)].push_back({to, std::move(route)});
        queue.push_back(to);
        continue;
      }
      const auto& next = out[static_cast<std::size_t>(to)];
      for (auto it = next.rbegin(); it != next.rend(); ++it) {
        auto longer = route;
        const auto more = edges_of(tree.edges[*it]);
        longer.insert(longer.end(), more.begin(), more.end());
        stack.push_back({*it, std::move(longer)});
      }
    }
  }
  std::string text = platform.id(tree.source) + " — source\n";
  // Depth first, with the prefix of each level ("│   " or "    ").
  struct Frame {
    ProcessorIndex host;
    std::size_t next = 0;
    std::string prefix;
  };
  std::vector<Frame> frames{{tree.source, 0, ""}};
  while (!frames.empty()) {
    Frame& frame = frames.back();
    const auto& list = children[static_cast<std::size_t>(frame.host)];
    if (frame.next == list.size()) {
      frames.pop_back();
      continue;
    }
    const HostEdge& child = list[frame.next++];
    const bool last = frame.next == list.size();
    text += frame.prefix + (last ? "└── " : "├── ") + platform.id(child.host) +
            route_via_text(platform, child.route, /*figures=*/true) + "\n";
    std::string prefix = frame.prefix + (last ? "    " : "│   ");
    frames.push_back({child.host, 0, std::move(prefix)});
  }
  return text;
}

}  // namespace hetcoll
