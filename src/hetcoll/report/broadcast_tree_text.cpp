#include "hetcoll/report/broadcast_tree_text.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hetcoll/model/element_names.h"

namespace hetcoll {

namespace {

struct HostEdge {
  ProcessorIndex host;
  std::vector<std::size_t> route;  // platform edges from the parent host
};

// The host tree: children[host] = the hosts it sends to, each with the
// platform edges its slices take (through links and routers).
std::vector<std::vector<HostEdge>> host_tree(const Platform& platform, const BroadcastTree& tree) {
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
  return children;
}

// Inside a DOT double-quoted string: backslashes and quotes escaped, line
// breaks as DOT's \n.
std::string dot_text(std::string_view text) {
  std::string escaped;
  for (char c : text) {
    if (c == '\\' || c == '"') escaped += '\\';
    if (c == '\n') {
      escaped += "\\n";
      continue;
    }
    escaped += c;
  }
  return escaped;
}

}  // namespace

std::string broadcast_tree_hosts_text(const Platform& platform, const BroadcastTree& tree) {
  const auto children = host_tree(platform, tree);
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

std::string broadcast_tree_hosts_dot(const Platform& platform, const BroadcastTree& tree, const std::string& title) {
  const auto children = host_tree(platform, tree);
  // A host with many children makes a wide drawing whose edge labels run
  // into each other: then left to right, children one under another.
  std::size_t widest = 0;
  for (const auto& list : children) widest = std::max(widest, list.size());
  const char* direction = widest > 6 ? "LR" : "TB";
  std::string dot = "// A pipelined broadcast tree of hetcoll. Render: dot -Tsvg tree.dot -o tree.svg\n";
  dot += "digraph hetcoll_tree {\n";
  dot += "  graph [label=\"" + dot_text(title) +
         "\", labelloc=t, labeljust=l, fontname=\"Helvetica\", fontsize=13, rankdir=" + direction +
         ", nodesep=0.25, ranksep=0.45];\n";
  dot += "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=11, color=\"#0072B2\", "
         "fillcolor=\"#FFFFFF\"];\n";
  dot += "  edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.7, color=\"#0072B2\", fontcolor=\"#333333\"];\n";
  dot += "  h" + std::to_string(tree.source) + " [label=\"" + dot_text(platform.id(tree.source)) +
         "\\nsource\", penwidth=2.5, fillcolor=\"#DCEBF6\"];\n";
  // Breadth first from the source: every host the tree reaches, once.
  std::vector<ProcessorIndex> queue{tree.source};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const ProcessorIndex host = queue[head];
    for (const HostEdge& child : children[static_cast<std::size_t>(host)]) {
      dot += "  h" + std::to_string(child.host) + " [label=\"" + dot_text(platform.id(child.host)) + "\"];\n";
      std::string label = route_links_label(platform, child.route);
      const std::string via = route_via_text(platform, child.route, /*figures=*/true);
      dot += "  h" + std::to_string(host) + " -> h" + std::to_string(child.host) + " [label=\"" +
             (label.empty() ? std::string() : " " + dot_text(label)) + "\", tooltip=\"" + dot_text(via) + "\"];\n";
      queue.push_back(child.host);
    }
  }
  dot += "}\n";
  return dot;
}

}  // namespace hetcoll
