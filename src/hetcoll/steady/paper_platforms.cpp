#include "hetcoll/steady/paper_platforms.h"

#include <vector>

#include <fmt/format.h>

namespace hetcoll {

Platform legrand_marchal_robert_figure6_platform() {
  std::vector<PlatformNode> nodes;
  for (int i = 0; i < 3; ++i) {
    PlatformNode node;
    node.id = fmt::format("P{}", i);
    node.speed = i == 0 ? 2.0 : 1.0;
    nodes.push_back(node);
  }
  std::vector<PlatformEdge> edges;
  for (ProcessorIndex i = 0; i < 3; ++i) {
    for (ProcessorIndex j = 0; j < 3; ++j) {
      if (i == j) continue;
      PlatformEdge edge;
      edge.from = i;
      edge.to = j;
      edge.cost = 1;
      edges.push_back(edge);
    }
  }
  return Platform(nodes, edges, "Fig. 6");
}

}  // namespace hetcoll
