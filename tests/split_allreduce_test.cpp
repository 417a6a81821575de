// The split all-reduce (makespan/split/split_allreduce.h): every plan
// through verify_split_allreduce on random platforms, a hand-worked
// example, the schedule's rules re-checked here from the routes
// (independent code), and the verifier rejecting broken plans.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <tuple>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/split/split_allreduce.h"
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

TEST(SplitAllreduce, HandWorkedExampleOnTwoMembers) {
  // Two members, 1 s per byte, no latency, two one-byte elements, one piece
  // each: each sends its contribution to the other over [0, 1], then each
  // sends its result over [1, 2].
  Platform platform = homogeneous_complete(2, 0, 1);
  SplitCosts costs = costs_of(platform);
  SplitAllreducePlan plan;
  plan.members = costs.members();
  plan.elements = 2;
  plan.element_bytes = 1;
  plan.chunks = 1;
  plan.pieces = {{0, 0, 1}, {1, 1, 1}};
  schedule_split_allreduce(plan, costs);
  ASSERT_EQ(plan.transfers.size(), 4u);
  EXPECT_NEAR(plan.makespan, 2, 1e-9);
  auto report = verify_split_allreduce(costs, plan);
  EXPECT_TRUE(report.valid) << report.summary();
  // The planner does as well: a single piece takes 1 (contribution) + 2
  // (the result of both bytes) = 3.
  EXPECT_LE(plan_split_allreduce(costs, 2, 1).makespan, 2 + 1e-9);
}

// The schedule's rules, re-checked from the routes: each transfer lasts its
// route's time for its bytes; a result starts once all of its chunk's
// contributions have arrived; a sender's link carries one message at a time.
void recheck(const Platform& platform, const SplitAllreducePlan& plan) {
  const auto& members = platform.participants();
  std::map<std::pair<std::size_t, std::size_t>, double> last_contribution;
  std::map<std::pair<std::size_t, std::size_t>, int> contributions;
  for (const auto& t : plan.transfers) {
    const auto count = split_chunk_range(plan.pieces[t.piece].elements, plan.chunks, t.chunk).second;
    const Pair pair = independent_cost(platform, members[t.from], members[t.to],
                                       static_cast<double>(count) * plan.element_bytes + plan.envelope_bytes);
    EXPECT_NEAR(t.end - t.start, pair.occupancy + pair.delay, 1e-9 * t.end);
    if (t.contribution) {
      auto& last = last_contribution[{t.piece, t.chunk}];
      last = std::max(last, t.end);
      ++contributions[{t.piece, t.chunk}];
    }
  }
  for (const auto& t : plan.transfers) {
    if (t.contribution) continue;
    const auto key = std::make_pair(t.piece, t.chunk);
    EXPECT_EQ(contributions[key], static_cast<int>(members.size()) - 1);
    EXPECT_GE(t.start, last_contribution[key] * (1 - 1e-12));
  }
}

TEST(SplitAllreduce, PlansOnTheSec61ClusterAreValid) {
  Platform platform = liu_kuo_wang_sender_speed_graph();
  SplitCosts costs = costs_of(platform);
  for (std::size_t elements : {1, 4, 7, 64, 1024, 4096}) {
    auto plan = plan_split_allreduce(costs, elements, 4, 16);
    auto report = verify_split_allreduce(costs, plan);
    EXPECT_TRUE(report.valid) << elements << " elements: " << report.summary();
    recheck(platform, plan);
  }
  // 4096 ints: the pieces and chunks make it faster than any single piece
  // (a reduce to one member and its broadcast of the whole vector).
  auto plan = plan_split_allreduce(costs, 4096, 4, 16);
  SplitAllreducePlan single = plan;
  single.chunks = 1;
  single.pieces = {{0, 0, 4096}};
  schedule_split_allreduce(single, costs);
  EXPECT_TRUE(verify_split_allreduce(costs, single).valid);
  EXPECT_LT(plan.makespan, 0.5 * single.makespan);
  EXPECT_GT(plan.pieces.size(), 1u);
}

// A cap on the plan's messages limits the chunks (one chunk always), and the
// capped plan is valid and no faster than the uncapped one.
TEST(SplitAllreduce, MaxMessagesCapsTheChunks) {
  Platform platform = liu_kuo_wang_sender_speed_graph();
  SplitCosts costs = costs_of(platform);
  const std::size_t k = costs.size();
  const auto free = plan_split_allreduce(costs, 1 << 20, 4, 16);
  ASSERT_GT(free.chunks, 2u);
  for (std::size_t cap : {std::size_t{1}, 2 * 2 * k * (k - 1)}) {
    const auto capped = plan_split_allreduce(costs, 1 << 20, 4, 16, cap);
    EXPECT_LE(capped.transfers.size(), std::max(cap, 2 * k * (k - 1))) << cap;
    EXPECT_LE(capped.chunks, std::max<std::size_t>(1, cap / (2 * k * (k - 1)))) << cap;
    EXPECT_TRUE(verify_split_allreduce(costs, capped).valid);
    EXPECT_GE(capped.makespan, free.makespan * (1 - 1e-12));
  }
}

TEST(SplitAllreduce, EveryPlanOnRandomPlatformsPassesTheVerifier) {
  std::mt19937_64 rng(13);
  for (int instance = 0; instance < 60; ++instance) {
    Platform platform = random_eager_platform(rng, 2 + instance % 9, instance % 4, instance % 3 == 0);
    SplitCosts costs = costs_of(platform);
    const std::size_t elements = 1 + static_cast<std::size_t>(rng() % 3000);
    auto plan = plan_split_allreduce(costs, elements, 8, static_cast<double>(rng() % 3) * 16);
    auto report = verify_split_allreduce(costs, plan);
    EXPECT_TRUE(report.valid) << "instance " << instance << ": " << report.summary();
    EXPECT_TRUE(std::isfinite(plan.makespan));
    // Hand-picked pieces and chunk counts schedule validly too.
    SplitAllreducePlan other = plan;
    other.chunks = 1 + rng() % 5;
    schedule_split_allreduce(other, costs);
    EXPECT_TRUE(verify_split_allreduce(costs, other).valid) << "instance " << instance << ", " << other.chunks
                                                            << " chunks: " << verify_split_allreduce(costs, other).summary();
  }
}

TEST(SplitAllreduce, TheVerifierRejectsBrokenPlans) {
  Platform platform = liu_kuo_wang_sender_speed_graph();
  SplitCosts costs = costs_of(platform);
  const auto good = plan_split_allreduce(costs, 4096, 4, 16);
  ASSERT_TRUE(verify_split_allreduce(costs, good).valid);
  std::size_t result = 0;
  while (good.transfers[result].contribution) ++result;
  auto expect_rejected = [&](SplitAllreducePlan plan, const char* what) {
    EXPECT_FALSE(verify_split_allreduce(costs, plan).valid) << what;
  };
  {
    auto plan = good;
    plan.transfers.erase(plan.transfers.begin());
    expect_rejected(plan, "a missing contribution");
  }
  {
    auto plan = good;
    plan.transfers.erase(plan.transfers.begin() + static_cast<std::ptrdiff_t>(result));
    expect_rejected(plan, "a missing result");
  }
  {
    auto plan = good;
    plan.transfers.push_back(plan.transfers.front());
    expect_rejected(plan, "a contribution sent twice");
  }
  {
    auto plan = good;
    // The first result, moved before its chunk's contributions arrive.
    const double shift = plan.transfers[result].start;
    plan.transfers[result].start -= shift;
    plan.transfers[result].end -= shift;
    expect_rejected(plan, "a result before its contributions");
  }
  {
    auto plan = good;
    // The same sender's next message, moved onto the first one.
    std::size_t next = 1;
    while (plan.transfers[next].from != plan.transfers[0].from) ++next;
    plan.transfers[next].start = plan.transfers[0].start;
    plan.transfers[next].end = plan.transfers[0].start + (good.transfers[next].end - good.transfers[next].start);
    expect_rejected(plan, "two messages on one link at once");
  }
  {
    auto plan = good;
    plan.transfers[result].to = plan.pieces[plan.transfers[result].piece].spreader == 0 ? 1 : 0;
    plan.transfers[result].from = plan.pieces[plan.transfers[result].piece].spreader == 0 ? 2 : 3;
    expect_rejected(plan, "a result from a member that does not aggregate the piece");
  }
  {
    auto plan = good;
    plan.makespan *= 0.99;
    expect_rejected(plan, "a claimed makespan below the last result");
  }
  {
    auto plan = good;
    plan.pieces.back().elements += 1;
    expect_rejected(plan, "pieces that overrun the vector");
  }
}

TEST(SplitAllreduce, BadArgumentsNameTheParameter) {
  Platform platform = homogeneous_complete(4, 1e-5, 1e7);
  SplitCosts costs = costs_of(platform);
  EXPECT_NE(testing::input_error_message([&] { plan_split_allreduce(costs, 0, 4); }).find("elements"), std::string::npos);
  EXPECT_NE(testing::input_error_message([&] { plan_split_allreduce(costs, 10, -1); }).find("element_bytes"), std::string::npos);
  EXPECT_NE(testing::input_error_message([&] { plan_split_allreduce(costs, 10, 4, NAN); }).find("envelope_bytes"), std::string::npos);
}

}  // namespace
}  // namespace hetcoll
