#include "hetcoll/steady/edge_colouring.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <stdexcept>

namespace hetcoll {

namespace {

// The regularised multigraph: real edges first (same indices as the input),
// then dummy edges.
struct RegularGraph {
  int side = 0;  // vertices per side
  std::vector<int> left;
  std::vector<int> right;
  std::vector<BigInteger> weight;
  std::size_t real_edges = 0;
  std::vector<std::vector<int>> left_edges;  // edge indices per left vertex, in order
};

class PerfectMatching {
 public:
  explicit PerfectMatching(const RegularGraph& graph)
      : graph_(graph),
        edge_of_left_(static_cast<std::size_t>(graph.side), -1),
        left_of_right_(static_cast<std::size_t>(graph.side), -1),
        seen_(static_cast<std::size_t>(graph.side), 0) {}

  bool alive(int edge) const { return graph_.weight[static_cast<std::size_t>(edge)] > 0; }

  // Hopcroft-Karp would be asymptotically faster for the first matching;
  // repeated augmentation is simple and the graphs are small (N = nodes).
  void augment_all() {
    for (int u = 0; u < graph_.side; ++u) {
      if (edge_of_left_[static_cast<std::size_t>(u)] < 0) augment(u);
    }
  }

  void release(int edge) {
    const int u = graph_.left[static_cast<std::size_t>(edge)];
    const int v = graph_.right[static_cast<std::size_t>(edge)];
    if (edge_of_left_[static_cast<std::size_t>(u)] == edge) {
      edge_of_left_[static_cast<std::size_t>(u)] = -1;
      left_of_right_[static_cast<std::size_t>(v)] = -1;
    }
  }

  const std::vector<int>& edges() const { return edge_of_left_; }

 private:
  // Kuhn's augmenting path from a free left vertex, iterative (no deep
  // recursion). In a regular bipartite multigraph one always exists.
  void augment(int start) {
    ++stamp_;
    if (stamp_ == std::numeric_limits<int>::max()) {
      std::fill(seen_.begin(), seen_.end(), 0);
      stamp_ = 1;
    }
    struct Frame {
      int left;
      std::size_t next;
      int via_edge;  // the edge that reached this left vertex's right partner
    };
    std::vector<Frame> stack{{start, 0, -1}};
    while (!stack.empty()) {
      Frame& frame = stack.back();
      const auto& candidates = graph_.left_edges[static_cast<std::size_t>(frame.left)];
      bool descended = false;
      while (frame.next < candidates.size()) {
        const int edge = candidates[frame.next++];
        if (!alive(edge)) continue;
        const int v = graph_.right[static_cast<std::size_t>(edge)];
        if (seen_[static_cast<std::size_t>(v)] == stamp_) continue;
        seen_[static_cast<std::size_t>(v)] = stamp_;
        const int partner = left_of_right_[static_cast<std::size_t>(v)];
        if (partner < 0) {
          // Flip the path: each left vertex on the stack takes the edge it tried.
          int chosen = edge;
          for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
            const int u = it->left;
            const int w = graph_.right[static_cast<std::size_t>(chosen)];
            edge_of_left_[static_cast<std::size_t>(u)] = chosen;
            left_of_right_[static_cast<std::size_t>(w)] = u;
            chosen = it->via_edge;
          }
          return;
        }
        stack.push_back({partner, 0, edge});
        descended = true;
        break;
      }
      if (!descended && stack.back().next >= graph_.left_edges[static_cast<std::size_t>(stack.back().left)].size()) {
        stack.pop_back();
      }
    }
    throw std::logic_error("weighted_edge_colouring: no perfect matching in a regular bipartite graph");
  }

  const RegularGraph& graph_;
  std::vector<int> edge_of_left_;
  std::vector<int> left_of_right_;
  std::vector<int> seen_;
  int stamp_ = 0;
};

}  // namespace

EdgeColouring weighted_edge_colouring(int left_count, int right_count, const std::vector<ColouringEdge>& edges) {
  EdgeColouring result;
  result.max_degree = 0;
  result.idle = 0;
  if (left_count < 0 || right_count < 0) throw std::invalid_argument("weighted_edge_colouring: negative side");
  std::vector<BigInteger> left_degree(static_cast<std::size_t>(left_count));
  std::vector<BigInteger> right_degree(static_cast<std::size_t>(right_count));
  for (const auto& edge : edges) {
    if (edge.left < 0 || edge.left >= left_count || edge.right < 0 || edge.right >= right_count) {
      throw std::invalid_argument("weighted_edge_colouring: edge end out of range");
    }
    if (edge.weight <= 0) throw std::invalid_argument("weighted_edge_colouring: weights must be positive");
    left_degree[static_cast<std::size_t>(edge.left)] += edge.weight;
    right_degree[static_cast<std::size_t>(edge.right)] += edge.weight;
  }
  for (const auto& d : left_degree) result.max_degree = std::max(result.max_degree, d);
  for (const auto& d : right_degree) result.max_degree = std::max(result.max_degree, d);
  if (edges.empty()) return result;
  const BigInteger& delta = result.max_degree;

  // Compact the vertices that have edges; pad the smaller side.
  std::vector<int> left_id(static_cast<std::size_t>(left_count), -1);
  std::vector<int> right_id(static_cast<std::size_t>(right_count), -1);
  int left_used = 0;
  int right_used = 0;
  for (const auto& edge : edges) {
    if (left_id[static_cast<std::size_t>(edge.left)] < 0) left_id[static_cast<std::size_t>(edge.left)] = left_used++;
    if (right_id[static_cast<std::size_t>(edge.right)] < 0) right_id[static_cast<std::size_t>(edge.right)] = right_used++;
  }
  RegularGraph graph;
  graph.side = std::max(left_used, right_used);
  const auto side = static_cast<std::size_t>(graph.side);
  std::vector<BigInteger> left_deficit(side, delta);
  std::vector<BigInteger> right_deficit(side, delta);
  for (const auto& edge : edges) {
    const int u = left_id[static_cast<std::size_t>(edge.left)];
    const int v = right_id[static_cast<std::size_t>(edge.right)];
    graph.left.push_back(u);
    graph.right.push_back(v);
    graph.weight.push_back(edge.weight);
    left_deficit[static_cast<std::size_t>(u)] -= edge.weight;
    right_deficit[static_cast<std::size_t>(v)] -= edge.weight;
  }
  graph.real_edges = edges.size();
  // North-west corner: walk both deficit lists once.
  std::size_t a = 0;
  std::size_t b = 0;
  while (true) {
    while (a < side && left_deficit[a] == 0) ++a;
    while (b < side && right_deficit[b] == 0) ++b;
    if (a == side || b == side) break;
    const BigInteger amount = std::min(left_deficit[a], right_deficit[b]);
    graph.left.push_back(static_cast<int>(a));
    graph.right.push_back(static_cast<int>(b));
    graph.weight.push_back(amount);
    left_deficit[a] -= amount;
    right_deficit[b] -= amount;
  }
  graph.left_edges.assign(side, {});
  for (std::size_t e = 0; e < graph.weight.size(); ++e) {
    graph.left_edges[static_cast<std::size_t>(graph.left[e])].push_back(static_cast<int>(e));
  }

  PerfectMatching matching(graph);
  std::map<std::vector<int>, std::size_t> position_of;  // real edge set -> matching
  BigInteger remaining = delta;
  while (remaining > 0) {
    matching.augment_all();
    const auto& chosen = matching.edges();
    BigInteger length = remaining;
    for (int edge : chosen) length = std::min(length, graph.weight[static_cast<std::size_t>(edge)]);
    std::vector<int> real;
    for (int edge : chosen) {
      if (static_cast<std::size_t>(edge) < graph.real_edges) real.push_back(edge);
    }
    std::sort(real.begin(), real.end());
    std::vector<int> used_up;
    for (int edge : chosen) {
      auto& weight = graph.weight[static_cast<std::size_t>(edge)];
      weight -= length;
      if (weight == 0) used_up.push_back(edge);
    }
    for (int edge : used_up) matching.release(edge);
    remaining -= length;
    if (real.empty()) {
      result.idle += length;
      continue;
    }
    auto [it, inserted] = position_of.try_emplace(real, result.matchings.size());
    if (inserted) {
      result.matchings.push_back({length, std::move(real)});
    } else {
      result.matchings[it->second].length += length;
    }
  }
  // Real vertex ids were compacted; the edge indices are the input's.
  return result;
}

RationalEdgeColouring weighted_edge_colouring(int left_count, int right_count,
                                              const std::vector<RationalColouringEdge>& edges) {
  std::vector<Rational> weights;
  weights.reserve(edges.size());
  for (const auto& edge : edges) weights.push_back(edge.weight);
  const BigInteger scale = lcm_of_denominators(weights);
  std::vector<ColouringEdge> scaled;
  scaled.reserve(edges.size());
  for (const auto& edge : edges) {
    if (edge.weight <= 0) throw std::invalid_argument("weighted_edge_colouring: weights must be positive");
    const Rational value = edge.weight * Rational(scale);
    scaled.push_back({edge.left, edge.right, value.get_num()});
  }
  const auto integer = weighted_edge_colouring(left_count, right_count, scaled);
  RationalEdgeColouring result;
  const Rational divisor(scale);
  result.max_degree = Rational(integer.max_degree) / divisor;
  result.idle = Rational(integer.idle) / divisor;
  for (const auto& m : integer.matchings) result.matchings.push_back({Rational(m.length) / divisor, m.edges});
  return result;
}

}  // namespace hetcoll
