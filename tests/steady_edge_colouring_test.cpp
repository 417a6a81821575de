// Weighted bipartite edge colouring: exact decomposition into matchings
// whose lengths sum to the largest weighted degree.
#include <random>

#include <gtest/gtest.h>

#include "hetcoll/steady/edge_colouring.h"

namespace hetcoll {
namespace {

// Checks every property the header promises; returns the number of matchings.
std::size_t check_colouring(int left, int right, const std::vector<ColouringEdge>& edges, const EdgeColouring& colouring) {
  std::vector<BigInteger> left_degree(static_cast<std::size_t>(left));
  std::vector<BigInteger> right_degree(static_cast<std::size_t>(right));
  BigInteger delta = 0;
  for (const auto& edge : edges) {
    left_degree[static_cast<std::size_t>(edge.left)] += edge.weight;
    right_degree[static_cast<std::size_t>(edge.right)] += edge.weight;
  }
  for (const auto& d : left_degree) delta = std::max(delta, d);
  for (const auto& d : right_degree) delta = std::max(delta, d);
  EXPECT_EQ(colouring.max_degree, delta);
  std::vector<BigInteger> covered(edges.size());
  BigInteger total = colouring.idle;
  for (const auto& matching : colouring.matchings) {
    EXPECT_GT(matching.length, 0);
    total += matching.length;
    std::vector<char> left_used(static_cast<std::size_t>(left), 0);
    std::vector<char> right_used(static_cast<std::size_t>(right), 0);
    for (int e : matching.edges) {
      const auto& edge = edges[static_cast<std::size_t>(e)];
      EXPECT_FALSE(left_used[static_cast<std::size_t>(edge.left)]) << "sender twice in a matching";
      EXPECT_FALSE(right_used[static_cast<std::size_t>(edge.right)]) << "receiver twice in a matching";
      left_used[static_cast<std::size_t>(edge.left)] = 1;
      right_used[static_cast<std::size_t>(edge.right)] = 1;
      covered[static_cast<std::size_t>(e)] += matching.length;
    }
  }
  EXPECT_EQ(total, delta);
  for (std::size_t e = 0; e < edges.size(); ++e) EXPECT_EQ(covered[e], edges[e].weight) << "edge " << e;
  return colouring.matchings.size();
}

TEST(EdgeColouring, LegrandMarchalRobertToyExample) {
  // Fig. 3 shape: a source feeding two relays that feed two targets. Weights
  // are edge busy times in a period of 12.
  // left (senders): s=0, a=1, b=2; right (receivers): a=0, b=1, t0=2, t1=3.
  std::vector<ColouringEdge> edges = {{0, 0, 6}, {0, 1, 6}, {1, 2, 8}, {2, 2, 2}, {2, 3, 8}};
  const auto colouring = weighted_edge_colouring(3, 4, edges);
  EXPECT_EQ(colouring.max_degree, 12);
  check_colouring(3, 4, edges, colouring);
}

TEST(EdgeColouring, RandomGraphsDecomposeExactly) {
  std::mt19937 random(11);
  for (int trial = 0; trial < 200; ++trial) {
    const int left = 1 + static_cast<int>(random() % 7);
    const int right = 1 + static_cast<int>(random() % 7);
    std::vector<ColouringEdge> edges;
    const int count = 1 + static_cast<int>(random() % 20);
    for (int e = 0; e < count; ++e) {
      edges.push_back({static_cast<int>(random() % static_cast<unsigned>(left)),
                       static_cast<int>(random() % static_cast<unsigned>(right)),
                       BigInteger(static_cast<long>(1 + random() % 50))});
    }
    const auto colouring = weighted_edge_colouring(left, right, edges);
    const auto matchings = check_colouring(left, right, edges, colouring);
    // Each round zeroes a real or a dummy edge: at most |E| + N rounds.
    EXPECT_LE(matchings, edges.size() + static_cast<std::size_t>(std::max(left, right))) << "trial " << trial;
  }
}

TEST(EdgeColouring, HugeWeightsNeverEnumerateTimeSteps) {
  const BigInteger huge("1000000000000000000000000000007");
  std::vector<ColouringEdge> edges;
  for (int u = 0; u < 30; ++u) {
    for (int v = 0; v < 30; ++v) {
      if ((u * 7 + v * 3) % 5 == 0) edges.push_back({u, v, huge * (u + 1) + v});
    }
  }
  const auto colouring = weighted_edge_colouring(30, 30, edges);
  check_colouring(30, 30, edges, colouring);
}

TEST(EdgeColouring, RationalWeights) {
  std::vector<RationalColouringEdge> edges = {{0, 0, Rational(1, 2)}, {0, 1, Rational(1, 3)}, {1, 0, Rational(1, 4)}};
  const auto colouring = weighted_edge_colouring(2, 2, edges);
  EXPECT_EQ(colouring.max_degree, Rational(5, 6));
  Rational total = colouring.idle;
  for (const auto& m : colouring.matchings) total += m.length;
  EXPECT_EQ(total, Rational(5, 6));
}

TEST(EdgeColouring, RejectsNonPositiveWeights) {
  EXPECT_THROW(weighted_edge_colouring(1, 1, std::vector<ColouringEdge>{{0, 0, 0}}), std::invalid_argument);
  EXPECT_THROW(weighted_edge_colouring(1, 1, std::vector<ColouringEdge>{{0, 2, 1}}), std::invalid_argument);
}

}  // namespace
}  // namespace hetcoll
