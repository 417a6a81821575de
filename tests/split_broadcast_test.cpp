// The split broadcast (makespan/split/split_broadcast.h): its affine costs
// against the platform's routes (independent code), every plan through
// verify_split_broadcast on random platforms, its schedule re-evaluated here
// from the routes on complete graphs, a hand-worked example, never slower
// than the flat tree, and the verifier rejecting broken plans.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <tuple>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/split/split_broadcast.h"
#include "hetcoll/verify/verify.h"
#include "support/eager_support.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

using testing::homogeneous_complete;
using testing::independent_cost;
using testing::liu_kuo_wang_sender_speed_graph;
using testing::Pair;
using testing::random_eager_platform;

SplitCosts costs_of(const Platform& platform) { return SplitCosts::of(platform, platform.participants()); }

// The flat tree of the whole message in the eager model: the source's sends
// in member order after it, each arriving after the occupancies so far + its delay.
double flat_tree_time(const Platform& platform, std::size_t source, double bytes) {
  const auto& members = platform.participants();
  const std::size_t k = members.size();
  double occupied = 0, last = 0;
  for (std::size_t step = 1; step < k; ++step) {
    const Pair pair = independent_cost(platform, members[source], members[(source + step) % k], bytes);
    occupied += pair.occupancy;
    last = std::max(last, occupied + pair.delay);
  }
  return last;
}

TEST(SplitBroadcast, ChunkRangesCutAPieceIntoNearEqualConsecutiveParts) {
  for (std::size_t elements : {0, 1, 5, 16, 17, 1000}) {
    for (std::size_t chunks : {1, 2, 3, 7, 16}) {
      std::size_t next = 0, smallest = elements, largest = 0;
      for (std::size_t c = 0; c < chunks; ++c) {
        auto [first, count] = split_chunk_range(elements, chunks, c);
        EXPECT_EQ(first, next) << elements << " elements, " << chunks << " chunks, chunk " << c;
        next = first + count;
        smallest = std::min(smallest, count);
        largest = std::max(largest, count);
      }
      EXPECT_EQ(next, elements);
      EXPECT_LE(largest - smallest, 1u);
    }
  }
}

TEST(SplitBroadcast, AffineCostsMatchTheRoutesBetweenTheReferenceSizes) {
  // The costs are those of each pair's route at 1 KiB and 64 KiB. Route
  // times are affine in the size, so a route fastest at both sizes is
  // fastest at every size between them: there the affine cost is exact.
  // (On complete graphs routes never change: every size.)
  std::mt19937_64 rng(7);
  int compared = 0;
  for (int instance = 0; instance < 24; ++instance) {
    const bool complete = instance % 4 == 0;
    Platform platform = complete ? liu_kuo_wang_sender_speed_graph()
                                 : random_eager_platform(rng, 3 + instance % 5, instance % 3, false);
    SplitCosts costs = costs_of(platform);
    const auto& members = platform.participants();
    for (std::size_t i = 0; i < members.size(); ++i) {
      for (std::size_t j = 0; j < members.size(); ++j) {
        if (i == j) continue;
        auto time_at = [&](double bytes) {
          const Pair pair = independent_cost(platform, members[i], members[j], bytes);
          return pair.occupancy + pair.delay;
        };
        auto model_at = [&](double bytes) { return costs.occupancy(i, j, bytes) + costs.delay(i, j); };
        const bool same_route = std::abs(time_at(1024) - model_at(1024)) <= 1e-9 * time_at(1024) &&
                                std::abs(time_at(65536) - model_at(65536)) <= 1e-9 * time_at(65536);
        EXPECT_TRUE(same_route || !complete) << "instance " << instance << ", " << i << " -> " << j;
        if (!same_route) continue;
        for (double bytes : {1024.0, 4096.0, 20000.0, 65536.0}) {
          EXPECT_NEAR(model_at(bytes), time_at(bytes), 1e-9 * time_at(bytes))
              << "instance " << instance << ", " << i << " -> " << j << ", " << bytes << " bytes";
          ++compared;
        }
        if (complete) {
          EXPECT_NEAR(model_at(16), time_at(16), 1e-9 * time_at(16));
        }
      }
    }
  }
  EXPECT_GT(compared, 1000);
}

TEST(SplitBroadcast, HandWorkedExampleOnThreeMembers) {
  // Three members, 1 s per byte, no latency; two elements of one byte.
  Platform platform = homogeneous_complete(3, 0, 1);
  SplitCosts costs = costs_of(platform);
  SplitBroadcastPlan plan;
  plan.members = costs.members();
  plan.source = 0;
  plan.elements = 2;
  plan.element_bytes = 1;
  plan.chunks = 1;
  plan.pieces = {{1, 0, 1}, {2, 1, 1}};
  schedule_split_broadcast(plan, costs);
  // 0 hands element 0 to 1 over [0, 1] and element 1 to 2 over [1, 2];
  // 1 sends element 0 to 2 over [1, 2]; 2 sends element 1 to 1 over [2, 3].
  EXPECT_NEAR(plan.makespan, 3, 1e-9);
  ASSERT_EQ(plan.transfers.size(), 4u);
  EXPECT_TRUE(verify_split_broadcast(costs, plan).valid) << verify_split_broadcast(costs, plan).summary();
  // The planner does at least as well; the flat tree takes 4.
  auto planned = plan_split_broadcast(costs, 0, 2, 1);
  EXPECT_LE(planned.makespan, 3 + 1e-9);
  EXPECT_NEAR(flat_tree_time(platform, 0, 2), 4, 1e-9);
}

// Re-evaluates the schedule from the routes (complete graphs: one route per
// pair whatever the size), with the rules of the header, independently.
double reevaluate(const Platform& platform, const SplitBroadcastPlan& plan) {
  const auto& members = platform.participants();
  std::map<std::tuple<std::size_t, std::size_t, std::size_t>, double> holds;  // (piece, chunk, member)
  std::map<std::size_t, double> link_free;
  double last = 0;
  for (const auto& t : plan.transfers) {
    const auto count = split_chunk_range(plan.pieces[t.piece].elements, plan.chunks, t.chunk).second;
    const double bytes = static_cast<double>(count) * plan.element_bytes + plan.envelope_bytes;
    const Pair pair = independent_cost(platform, members[t.from], members[t.to], bytes);
    double ready = link_free[t.from];
    if (t.from != plan.source) ready = std::max(ready, holds.at({t.piece, t.chunk, t.from}));
    EXPECT_NEAR(t.start, ready, 1e-9 * std::max(1.0, ready));
    link_free[t.from] = ready + pair.occupancy;
    holds[{t.piece, t.chunk, t.to}] = ready + pair.occupancy + pair.delay;
    last = std::max(last, ready + pair.occupancy + pair.delay);
  }
  return last;
}

TEST(SplitBroadcast, PlansOnTheSec61ClusterAreValidFasterThanTheFlatTreeAndReevaluate) {
  Platform platform = liu_kuo_wang_sender_speed_graph();
  SplitCosts costs = costs_of(platform);
  for (std::size_t elements : {1, 4, 64, 1024, 4096}) {
    for (std::size_t source : {0, 5}) {
      auto plan = plan_split_broadcast(costs, source, elements, 4, 16);
      auto report = verify_split_broadcast(costs, plan);
      EXPECT_TRUE(report.valid) << elements << " elements: " << report.summary();
      EXPECT_NEAR(reevaluate(platform, plan), plan.makespan, 1e-9 * plan.makespan);
      EXPECT_LE(plan.makespan, flat_tree_time(platform, source, static_cast<double>(elements) * 4 + 16) * (1 + 1e-12));
    }
  }
  // 4096 ints: the pieces make it far faster than sending whole messages
  // (the flat tree takes 7 whole messages on the source's link).
  auto plan = plan_split_broadcast(costs, 0, 4096, 4, 16);
  EXPECT_LT(plan.makespan, 0.5 * flat_tree_time(platform, 0, 4096 * 4 + 16));
  EXPECT_GT(plan.pieces.size(), 1u);
}

TEST(SplitBroadcast, EveryPlanOnRandomPlatformsPassesTheVerifier) {
  std::mt19937_64 rng(11);
  for (int instance = 0; instance < 60; ++instance) {
    Platform platform = random_eager_platform(rng, 2 + instance % 9, instance % 4, instance % 3 == 0);
    SplitCosts costs = costs_of(platform);
    const std::size_t k = costs.size();
    const std::size_t source = static_cast<std::size_t>(rng() % k);
    const std::size_t elements = 1 + static_cast<std::size_t>(rng() % 3000);
    auto plan = plan_split_broadcast(costs, source, elements, 8, static_cast<double>(rng() % 3) * 16);
    auto report = verify_split_broadcast(costs, plan);
    EXPECT_TRUE(report.valid) << "instance " << instance << ": " << report.summary();
    EXPECT_TRUE(std::isfinite(plan.makespan));
  }
}

TEST(SplitBroadcast, TheVerifierRejectsBrokenPlans) {
  Platform platform = liu_kuo_wang_sender_speed_graph();
  SplitCosts costs = costs_of(platform);
  const auto good = plan_split_broadcast(costs, 0, 4096, 4, 16);
  ASSERT_TRUE(verify_split_broadcast(costs, good).valid);
  ASSERT_GT(good.chunks, 1u);
  // The first transfer of a spreader other than the source.
  std::size_t spread = 0;
  while (good.transfers[spread].from == good.source) ++spread;
  auto expect_rejected = [&](SplitBroadcastPlan plan, const char* what) {
    EXPECT_FALSE(verify_split_broadcast(costs, plan).valid) << what;
  };
  {
    auto plan = good;
    plan.transfers.pop_back();
    expect_rejected(plan, "a member misses a chunk");
  }
  {
    auto plan = good;
    plan.transfers.push_back(plan.transfers.back());
    expect_rejected(plan, "a chunk received twice");
  }
  {
    auto plan = good;
    plan.transfers[spread].start -= 1e-4;
    plan.transfers[spread].end -= 1e-4;
    expect_rejected(plan, "a spreader sends a chunk before it holds it");
  }
  {
    auto plan = good;
    plan.transfers[1].start = plan.transfers[0].start;
    plan.transfers[1].end = plan.transfers[0].start + (good.transfers[1].end - good.transfers[1].start);
    expect_rejected(plan, "two sends on the source's link at once");
  }
  {
    auto plan = good;
    plan.transfers[0].end += 1e-6;
    expect_rejected(plan, "a transfer that lasts longer than its bytes take");
  }
  {
    auto plan = good;
    plan.pieces[0].elements -= 1;
    expect_rejected(plan, "pieces that do not cover the message");
  }
  {
    auto plan = good;
    plan.makespan *= 0.99;
    expect_rejected(plan, "a claimed makespan below the last arrival");
  }
  {
    auto plan = good;
    // A member forwarding a piece it does not spread.
    auto& t = plan.transfers[spread];
    t.piece = (t.piece + 1) % plan.pieces.size();
    expect_rejected(plan, "a member sends a piece it does not spread");
  }
}

TEST(SplitBroadcast, BadArgumentsNameTheParameter) {
  Platform platform = homogeneous_complete(4, 1e-5, 1e7);
  SplitCosts costs = costs_of(platform);
  EXPECT_NE(testing::input_error_message([&] { plan_split_broadcast(costs, 4, 10, 4); }).find("source"), std::string::npos);
  EXPECT_NE(testing::input_error_message([&] { plan_split_broadcast(costs, 0, 0, 4); }).find("elements"), std::string::npos);
  EXPECT_NE(testing::input_error_message([&] { plan_split_broadcast(costs, 0, 10, 0); }).find("element_bytes"), std::string::npos);
  EXPECT_NE(testing::input_error_message([&] { plan_split_broadcast(costs, 0, 10, 4, -1); }).find("envelope_bytes"), std::string::npos);
}

}  // namespace
}  // namespace hetcoll
