// The split reduce (makespan/split/split_reduce.h): its replay in the NIC
// fluid model on hand-computed cases, its plans through
// verify_split_reduce on seeded random networks (with the lower bound and
// the one-piece plan as bounds on the prediction), and the checker
// catching broken plans.
#include <gtest/gtest.h>

#include <random>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/split/split_reduce.h"
#include "hetcoll/verify/verify_split_reduce.h"
#include "support/nic_cluster.h"

namespace hetcoll {
namespace {

using testing::network_of;
using testing::random_network;

TEST(SplitReduce, OneMessageTakesLatencyPlusBytesAtTheNarrowerLink) {
  // Root 0 (down 2 MB/s), processor 1 (latency 100 us, up 1 MB/s): one piece
  // at the root, 1000 ints + 16 bytes: 100 us + 4016 B / 1 MB/s.
  auto network = network_of({5e-5, 1e-4}, {1e7, 1e6}, {2e6, 1e7}, 16);
  auto plan = make_split_reduce(network, 0, 4, {1000}, {0});
  EXPECT_NEAR(plan.predicted_seconds, 1e-4 + 4016 / 1e6, 1e-12);
  EXPECT_TRUE(verify_split_reduce(network, plan).valid) << verify_split_reduce(network, plan).summary();
}

TEST(SplitReduce, ConcurrentFlowsShareTheDownLinkAndPaceTheUpLink) {
  // Root 0 with a 1 MB/s down link; processors 1 and 2 (latency 100 us,
  // up 10 MB/s) send 1000 bytes each to the root: the down link is work
  // conserving once both flow, so the last arrives at 100 us + 2000 B / 1 MB/s.
  auto network = network_of({1e-4, 1e-4, 1e-4}, {1e7, 1e7, 1e7}, {1e6, 1e7, 1e7});
  auto plan = make_split_reduce(network, 0, 1, {1000}, {0});
  EXPECT_NEAR(plan.predicted_seconds, 1e-4 + 2000 / 1e6, 1e-12);
  // Two pieces: piece 0 (600 B) at processor 1, piece 1 (400 B) at the root.
  // Processor 2 sends piece 1 at 0 (rotation: its index 2 mod 2 = 0 -> piece
  // 0 first): piece 0 to processor 1 posted at 0 (600 B at 10 MB/s: ends at
  // 160 us), piece 1 to the root posted at 60 us (its up link free then).
  // Processor 1 sends piece 1 to the root at 0; its forward of piece 0 is
  // posted at 160 us. Down link of the root: processor 1's 400 B flow from
  // 100 us alone at 1 MB/s until processor 2's joins at 160 us (60 B sent),
  // then 0.5 MB/s each: ... The last arrival at the root is bounded below by
  // 100 us + (400 + 400 + 600) B / 1 MB/s = 1.5 ms, which the root's link
  // reaches when it never idles after 100 us: it does here.
  auto two = make_split_reduce(network, 0, 1, {600, 400}, {1, 0});
  EXPECT_NEAR(two.piece_ready[0], 1.6e-4, 1e-12);
  EXPECT_NEAR(two.predicted_seconds, 1e-4 + 1400 / 1e6, 1e-12);
  EXPECT_TRUE(verify_split_reduce(network, two).valid) << verify_split_reduce(network, two).summary();
}

TEST(SplitReduce, RandomPlansPassTheCheckerAndRespectTheBounds) {
  std::mt19937_64 rng(20261127);
  SplitReduceOptions quick;
  quick.max_work = 200'000;
  for (int instance = 0; instance < 150; ++instance) {
    const auto n = std::uniform_int_distribution<std::size_t>(1, 10)(rng);
    auto network = random_network(rng, n);
    const auto root = static_cast<ProcessorIndex>(std::uniform_int_distribution<std::size_t>(0, n - 1)(rng));
    const auto count = std::uniform_int_distribution<std::size_t>(1, 3000)(rng);
    const double element_bytes = std::vector<double>{1, 4, 8}[instance % 3];
    quick.max_pieces = std::uniform_int_distribution<std::size_t>(1, 12)(rng);
    auto plan = plan_split_reduce(network, root, count, element_bytes, quick);
    auto report = verify_split_reduce(network, plan);
    ASSERT_TRUE(report.valid) << "instance " << instance << ":\n" << report.summary();
    EXPECT_LE(plan.pieces.size(), std::min({quick.max_pieces, n, count}));
    EXPECT_GE(plan.predicted_seconds, split_reduce_lower_bound(network, root, count, element_bytes) * (1 - 1e-9))
        << "instance " << instance;
    // Never worse than one piece at the root (the flat tree), which it tries.
    auto flat = make_split_reduce(network, root, element_bytes, {count}, {root});
    EXPECT_LE(plan.predicted_seconds, flat.predicted_seconds * (1 + 1e-9)) << "instance " << instance;
    // Any split (random sizes, aggregators, repeats allowed) is a valid plan too.
    const auto k = std::uniform_int_distribution<std::size_t>(1, 6)(rng);
    std::vector<std::size_t> counts(k);
    std::vector<ProcessorIndex> aggregators(k);
    for (std::size_t j = 0; j < k; ++j) {
      counts[j] = std::uniform_int_distribution<std::size_t>(0, 400)(rng);
      aggregators[j] = static_cast<ProcessorIndex>(std::uniform_int_distribution<std::size_t>(0, n - 1)(rng));
    }
    auto any = make_split_reduce(network, root, element_bytes, counts, aggregators);
    auto any_report = verify_split_reduce(network, any);
    ASSERT_TRUE(any_report.valid) << "instance " << instance << " (random split):\n" << any_report.summary();
  }
}

TEST(SplitReduce, TheCheckerCatchesBrokenPlans) {
  auto network = network_of({5e-5, 5e-5, 8e-5, 8e-5}, {1.25e7, 1.25e7, 7.8e6, 7.8e6}, {1.25e7, 1.25e7, 1.25e7, 1.25e7}, 16);
  auto good = plan_split_reduce(network, 0, 1000, 4);
  ASSERT_TRUE(verify_split_reduce(network, good).valid);
  ASSERT_GE(good.pieces.size(), 2u);
  auto expect_broken = [&](const char* what, auto mutate) {
    auto plan = good;
    mutate(plan);
    EXPECT_FALSE(verify_split_reduce(network, plan).valid) << what;
  };
  expect_broken("a contribution dropped", [](SplitReducePlan& p) {
    p.contributions[1].pop_back();
    p.post_times[1].pop_back();
  });
  expect_broken("a contribution sent twice", [](SplitReducePlan& p) {
    p.contributions[2].push_back(p.contributions[2].front());
    p.post_times[2].push_back(p.post_times[2].front());
  });
  expect_broken("the root contributes", [](SplitReducePlan& p) {
    p.contributions[0].push_back(0);
    p.post_times[0].push_back(0);
  });
  expect_broken("overlapping pieces", [](SplitReducePlan& p) { p.pieces[1].first -= 1; });
  expect_broken("pieces short of count", [](SplitReducePlan& p) { p.count += 1; });
  expect_broken("a piece complete before its contribution can arrive",
                [](SplitReducePlan& p) { p.post_times[3].back() = p.piece_ready[p.contributions[3].back()]; });
  expect_broken("a forward faster than its link", [](SplitReducePlan& p) {
    for (std::size_t j = 0; j < p.pieces.size(); ++j) {
      if (p.pieces[j].aggregator != p.root) p.piece_at_root[j] = p.piece_ready[j];
    }
  });
  expect_broken("a wrong prediction", [](SplitReducePlan& p) { p.predicted_seconds *= 0.9; });
}

TEST(SplitReduce, BadInputNamesTheParameter) {
  auto network = network_of({1e-4, 1e-4}, {1e7, 1e7}, {1e7, 1e7});
  EXPECT_THROW(plan_split_reduce(network, 2, 10, 4), InputError);
  EXPECT_THROW(plan_split_reduce(network, 0, 0, 4), InputError);
  EXPECT_THROW(plan_split_reduce(network, 0, 10, 0), InputError);
  network.up_bandwidth[1] = 0;
  try {
    plan_split_reduce(network, 0, 10, 4);
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.parameter(), "network");
  }
}

}  // namespace
}  // namespace hetcoll
