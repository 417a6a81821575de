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
  // The tree as platform edges: each node's outgoing edges, deduplicated.
  std::vector<std::vector<std::size_t>> out(n);
  auto add = [&](std::size_t e) {
    auto& list = out[static_cast<std::size_t>(platform.edges()[e].from)];
    if (std::find(list.begin(), list.end(), e) == list.end()) list.push_back(e);
  };
  for (const auto& edge : tree.edges) {
    if (!edge.route.empty()) {
      for (auto e : edge.route) add(e);
      continue;
    }
    for (auto e : platform.out_edges(edge.from)) {
      if (platform.edges()[e].to == edge.to) {
        add(e);
        break;
      }
    }
  }
  // From a host, the hosts its slices reach through network elements only.
  auto host_children = [&](ProcessorIndex host) {
    std::vector<HostEdge> children;
    std::vector<char> seen(n, 0);
    std::vector<std::pair<std::size_t, std::vector<std::size_t>>> stack;  // (edge, route so far)
    for (auto it = out[static_cast<std::size_t>(host)].rbegin(); it != out[static_cast<std::size_t>(host)].rend(); ++it) {
      stack.push_back({*it, {*it}});
    }
    while (!stack.empty()) {
      auto [e, route] = std::move(stack.back());
      stack.pop_back();
      const ProcessorIndex to = platform.edges()[e].to;
      if (seen[static_cast<std::size_t>(to)]) continue;
      seen[static_cast<std::size_t>(to)] = 1;
      if (!platform.node(to).router) {
        children.push_back({to, std::move(route)});
        continue;
      }
      const auto& next = out[static_cast<std::size_t>(to)];
      for (auto it = next.rbegin(); it != next.rend(); ++it) {
        auto longer = route;
        longer.push_back(*it);
        stack.push_back({*it, std::move(longer)});
      }
    }
    return children;
  };
  std::string text = platform.id(tree.source) + " — source\n";
  std::vector<char> listed(n, 0);
  listed[static_cast<std::size_t>(tree.source)] = 1;
  // Depth first, with the prefix of each level ("│   " or "    ").
  struct Frame {
    std::vector<HostEdge> children;
    std::size_t next = 0;
    std::string prefix;
  };
  std::vector<Frame> frames;
  frames.push_back({host_children(tree.source), 0, ""});
  while (!frames.empty()) {
    Frame& frame = frames.back();
    if (frame.next == frame.children.size()) {
      frames.pop_back();
      continue;
    }
    const HostEdge child = frame.children[frame.next++];
    if (listed[static_cast<std::size_t>(child.host)]) continue;
    listed[static_cast<std::size_t>(child.host)] = 1;
    const bool last = frame.next == frame.children.size();
    text += frame.prefix + (last ? "└── " : "├── ") + platform.id(child.host) +
            route_via_text(platform, child.route, /*figures=*/true) + "\n";
    const std::string prefix = frame.prefix + (last ? "    " : "│   ");
    frames.push_back({host_children(child.host), 0, prefix});
  }
  return text;
}

}  // namespace hetcoll
