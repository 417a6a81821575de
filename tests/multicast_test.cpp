// Multicast with helpers (Khuller, Kim, Woeginger 2003 sec. 4): plans are valid, helpers never
// hurt, `optimal` matches a brute force written here (every subset of
// non-members as helpers, each broadcast by brute force — so it also checks
// the "k fastest helpers" theorem and the k <= |targets| - 1 bound), and the
// seed's example holds.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/sender_speed/multicast/multicast.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/verify/verify.h"
#include "support/brute_force.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

using testing::broadcast_by_sequences;
using testing::random_cluster;

// min over every set H of non-members of the optimal broadcast over
// source ∪ targets ∪ H.
double multicast_brute_force(const Cluster& cluster, ProcessorIndex source, const std::vector<ProcessorIndex>& targets) {
  std::vector<ProcessorIndex> others;
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != source && std::find(targets.begin(), targets.end(), p) == targets.end()) others.push_back(p);
  }
  double best = std::numeric_limits<double>::infinity();
  for (unsigned mask = 0; mask < (1u << others.size()); ++mask) {
    std::vector<double> times{cluster.transmission_time(source)};
    for (ProcessorIndex target : targets) times.push_back(cluster.transmission_time(target));
    for (size_t i = 0; i < others.size(); ++i) {
      if (mask & (1u << i)) times.push_back(cluster.transmission_time(others[i]));
    }
    best = std::min(best, broadcast_by_sequences(Cluster::from_times(times), 0));
  }
  return best;
}

void expect_valid(const Cluster& cluster, const MakespanPlan& plan) {
  VerifyReport report = verify(cluster, plan);
  EXPECT_TRUE(report.valid) << report.summary();
  EXPECT_NEAR(report.measured_makespan, plan.makespan, 1e-9 * std::max(1.0, plan.makespan));
  // Helpers are exactly the receivers that are not targets, and each forwards.
  for (ProcessorIndex helper : plan.helpers) {
    EXPECT_EQ(std::find(plan.targets.begin(), plan.targets.end(), helper), plan.targets.end());
    bool forwards = false;
    for (const auto& transfer : plan.transfers) forwards |= transfer.from == helper;
    EXPECT_TRUE(forwards) << "an idle helper was left in the plan";
  }
}

TEST(MulticastTest, MatchesBruteForceAndHelpersNeverHurt) {
  std::mt19937_64 rng(31);
  int with_helpers = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const int n = 3 + static_cast<int>(rng() % 6);  // 3..8
    Cluster cluster = random_cluster(rng, n, static_cast<int>(rng() % 4), (rng() % 2) ? 4.0 : 16.0);
    const auto source = static_cast<ProcessorIndex>(rng() % static_cast<unsigned>(n));
    std::vector<ProcessorIndex> targets;
    for (ProcessorIndex p = 0; p < n; ++p) {
      if (p != source && rng() % 2) targets.push_back(p);
    }
    if (targets.empty()) targets.push_back(source == 0 ? 1 : 0);
    const double optimum = multicast_brute_force(cluster, source, targets);
    const double tolerance = 1e-9 * optimum;

    MakespanPlan exact = plan_multicast_exact(cluster, source, targets);
    expect_valid(cluster, exact);
    EXPECT_TRUE(exact.optimal);
    EXPECT_NEAR(exact.makespan, optimum, tolerance) << "trial " << trial;
    if (!exact.helpers.empty()) ++with_helpers;

    MakespanPlan fnf = plan_multicast_fnf(cluster, source, targets);
    expect_valid(cluster, fnf);
    EXPECT_GE(fnf.makespan, optimum - tolerance);
    EXPECT_LE(fnf.lower_bound, optimum + tolerance);
    EXPECT_LE(fnf.makespan, fnf.guarantee.ratio * optimum + tolerance) << fnf.guarantee.text;

    PtasParameters parameters;
    parameters.eps = (trial % 2) ? 0.5 : 0.25;
    MakespanPlan ptas = plan_multicast_ptas(cluster, source, targets, parameters);
    expect_valid(cluster, ptas);
    EXPECT_GE(ptas.makespan, optimum - tolerance);
    EXPECT_LE(ptas.lower_bound, optimum + tolerance) << "trial " << trial;
    if (ptas.guarantee.kind != Guarantee::Kind::heuristic) {
      EXPECT_LE(ptas.makespan, ptas.guarantee.ratio * optimum + tolerance) << ptas.guarantee.text;
    }

    // Helpers never hurt.
    EXPECT_LE(fnf.makespan, plan_multicast_fnf(cluster, source, targets, 0).makespan + tolerance);
    EXPECT_LE(ptas.makespan, plan_multicast_ptas(cluster, source, targets, parameters, 0).makespan + tolerance);
    MakespanPlan exact_alone = plan_multicast_exact(cluster, source, targets, {}, 0);
    expect_valid(cluster, exact_alone);
    EXPECT_TRUE(exact_alone.helpers.empty());
    EXPECT_LE(exact.makespan, exact_alone.makespan + tolerance);
  }
  EXPECT_GT(with_helpers, 50) << "too few instances where helpers matter";
  RecordProperty("instances_with_helpers", with_helpers);
}

// Khuller, Kim, Woeginger 2003 sec. 4: m processors of time t1, m of time t2 > t1, multicast to
// the slow ones. Within the slow group alone it takes t2 log m; from a fast
// source with the fast processors helping, t1 (log m + 1).
TEST(MulticastTest, SeedExampleFastHelpersForASlowGroup) {
  for (int m : {2, 4, 8}) {
    const double t1 = 1, t2 = 10;
    int log_m = 0;
    while ((1 << log_m) < m) ++log_m;
    std::vector<double> times(static_cast<size_t>(m), t1);
    times.insert(times.end(), static_cast<size_t>(m), t2);
    Cluster cluster = Cluster::from_times(times);
    std::vector<ProcessorIndex> slow;
    for (int i = m; i < 2 * m; ++i) slow.push_back(i);

    // The slow group on its own: a slow source and the other slow ones.
    std::vector<ProcessorIndex> others(slow.begin() + 1, slow.end());
    MakespanPlan alone = plan_multicast_fnf(cluster, slow[0], others, 0);
    EXPECT_DOUBLE_EQ(alone.makespan, t2 * log_m);
    MakespanPlan alone_exact = plan_multicast_exact(cluster, slow[0], others, {}, 0);
    EXPECT_DOUBLE_EQ(alone_exact.makespan, t2 * log_m);

    // From a fast source, with the other fast processors as helpers.
    for (const char* algorithm : {"fnf", "ptas", "optimal"}) {
      MakespanRequest request;
      request.operation = Operation::multicast;
      request.root = 0;
      request.targets = slow;
      request.eps = 0.5;
      MakespanPlan plan = plan_makespan(cluster, request, algorithm);
      expect_valid(cluster, plan);
      EXPECT_DOUBLE_EQ(plan.makespan, t1 * (log_m + 1)) << algorithm << " m = " << m;
      if (m >= 4) {
        EXPECT_FALSE(plan.helpers.empty()) << algorithm;
      }
      if (std::string(algorithm) == "optimal") {
        EXPECT_TRUE(plan.optimal);
      }
    }
    // Without helpers the fast source must feed the slow group itself.
    MakespanPlan no_helpers = plan_multicast_exact(cluster, 0, slow, {}, 0);
    EXPECT_GT(no_helpers.makespan, t1 * (log_m + 1) - 1e-9);
  }
}

TEST(MulticastTest, PlanJsonListsHelpers) {
  Cluster cluster = Cluster::from_times({1, 1, 1, 10, 10, 10, 10});
  MakespanPlan plan = plan_multicast_fnf(cluster, 0, {3, 4, 5, 6});
  ASSERT_FALSE(plan.helpers.empty());
  std::ostringstream out;
  write_plan_json(out, plan, cluster);
  EXPECT_NE(out.str().find("\"helpers\": [\"p1\"]"), std::string::npos) << out.str();
  MakespanPlan parsed = parse_plan_json(out.str(), cluster, "plan.json");
  EXPECT_EQ(parsed.helpers, plan.helpers);
  EXPECT_TRUE(verify(cluster, parsed).valid);
}

TEST(MulticastTest, BadInputIsRefused) {
  Cluster cluster = Cluster::from_times({1, 2, 3});
  EXPECT_THROW(plan_multicast_fnf(cluster, 0, {}), InputError);
  EXPECT_THROW(plan_multicast_fnf(cluster, 0, {0}), InputError);  // only the source
  EXPECT_THROW(plan_multicast_fnf(cluster, 0, {7}), InputError);
  PtasParameters parameters;
  parameters.eps = 0;
  EXPECT_THROW(plan_multicast_ptas(cluster, 0, {1, 2}, parameters), InputError);
  std::vector<double> many(40, 1.0);
  std::vector<ProcessorIndex> targets;
  for (int i = 1; i < 30; ++i) targets.push_back(i);
  // Too big for the exact search: refused, the FNF multicast returned (exit code 4).
  Cluster big = Cluster::from_times(many);
  MakespanPlan refused = plan_multicast_exact(big, 0, targets);
  EXPECT_EQ(refused.status, SearchStatus::refused);
  EXPECT_EQ(refused.algorithm, "optimal");
  EXPECT_TRUE(verify(big, refused).valid) << verify(big, refused).summary();
}

}  // namespace
}  // namespace hetcoll
