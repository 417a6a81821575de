// The broadcast PTAS (Khuller, Kim, Woeginger 2003 sec. 3): every plan is valid, within its
// printed guarantee of the brute-force optimum, and its lower bound is a
// true lower bound; bad parameters are refused.
#include <gtest/gtest.h>

#include <chrono>

#include <random>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/broadcast/ptas.h"
#include "hetcoll/makespan/sender_speed/multicast/multicast.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/verify/verify.h"
#include "support/brute_force.h"
#include "support/exact_subset_broadcast.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

using testing::broadcast_by_sequences;
using testing::random_cluster;

// A random cluster whose processor 0 is a fastest one.
Cluster fastest_first(std::mt19937_64& rng, int n, int classes, double max_ratio) {
  Cluster cluster = random_cluster(rng, n, classes, max_ratio);
  std::vector<double> times = cluster.transmission_times();
  std::swap(times[0], times[static_cast<size_t>(cluster.fastest_processor())]);
  return Cluster::from_times(times);
}

void expect_valid(const Cluster& cluster, const MakespanPlan& plan) {
  VerifyReport report = verify(cluster, plan);
  EXPECT_TRUE(report.valid) << report.summary();
  EXPECT_NEAR(report.measured_makespan, plan.makespan, 1e-9 * std::max(1.0, plan.makespan));
}

TEST(PtasTest, WithinItsGuaranteeOfTheBruteForceOptimum) {
  std::mt19937_64 rng(2024);
  const double epsilons[] = {0.1, 0.2, 0.5, 1.0};
  int instances = 0, runs = 0, strictly_better_than_fnf = 0;
  for (int trial = 0; trial < 2500; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 8);  // 2..9
    const int classes = static_cast<int>(rng() % 5);  // 0 = continuous-ish times
    const double max_ratio = (rng() % 2) ? 4.0 : 12.0;
    Cluster cluster = fastest_first(rng, n, classes, max_ratio);
    const double optimum = broadcast_by_sequences(cluster, 0);
    ++instances;
    for (double eps : epsilons) {
      PtasParameters parameters;
      parameters.eps = eps;
      if (trial % 3 == 1) parameters.eps_prime = eps / 2;
      MakespanPlan plan = plan_broadcast_ptas(cluster, 0, parameters);
      ++runs;
      expect_valid(cluster, plan);
      const double ratio = ptas_ratio(eps, parameters.eps_prime.value_or(eps));
      const double tolerance = 1e-9 * optimum;
      EXPECT_LE(plan.makespan, ratio * optimum + tolerance) << "n = " << n << " eps = " << eps;
      EXPECT_GE(plan.makespan, optimum - tolerance);
      EXPECT_LE(plan.lower_bound, optimum + tolerance) << "the claimed lower bound is not one";
      if (plan.optimal) {
        EXPECT_NEAR(plan.makespan, optimum, tolerance);
      } else {
        EXPECT_EQ(plan.guarantee.kind, Guarantee::Kind::ratio);
        EXPECT_NEAR(plan.guarantee.ratio, ratio, 1e-12);
        EXPECT_NE(plan.guarantee.text.find("(1+eps)(1+eps')(1+3eps')"), std::string::npos);
      }
      EXPECT_FALSE(plan.notes.empty());
      EXPECT_NE(plan.notes.front().find("PTAS work"), std::string::npos);
      MakespanPlan fnf = plan_makespan(cluster, {}, "fnf");
      if (plan.makespan < fnf.makespan - 1e-9) ++strictly_better_than_fnf;
    }
  }
  RecordProperty("instances", instances);
  RecordProperty("runs", runs);
  RecordProperty("better_than_fnf", strictly_better_than_fnf);
}

TEST(PtasTest, ExactSubsetSearchMatchesBruteForce) {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 600; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 8);
    Cluster cluster = random_cluster(rng, n, static_cast<int>(rng() % 4), 6.0);
    const ProcessorIndex source = static_cast<ProcessorIndex>(rng() % static_cast<unsigned>(n));
    std::vector<ProcessorIndex> receivers;
    for (ProcessorIndex p = 0; p < n; ++p) {
      if (p != source) receivers.push_back(p);
    }
    testing::SubsetSearchResult found =
        testing::exact_subset_broadcast(cluster, source, receivers, std::numeric_limits<double>::infinity());
    const double optimum = broadcast_by_sequences(cluster, source);
    EXPECT_NEAR(n == 1 ? 0.0 : found.makespan, optimum, 1e-9 * std::max(1.0, optimum));
    MakespanPlan plan;
    plan.operation = Operation::broadcast;
    plan.root = source;
    plan.transfers = found.transfers;
    plan.makespan = last_completion(found.transfers);
    expect_valid(cluster, plan);
  }
}

TEST(PtasTest, SlowerSourceKeepsTheBetterOfSchemeAndFnf) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 3 + static_cast<int>(rng() % 6);
    Cluster cluster = random_cluster(rng, n, 3, 6.0);
    ProcessorIndex source = 0;
    for (ProcessorIndex p = 0; p < n; ++p) {
      if (cluster.transmission_time(p) > cluster.transmission_time(source)) source = p;
    }
    if (cluster.transmission_time(source) <= cluster.fastest_time()) continue;
    PtasParameters parameters;
    parameters.eps = 0.5;
    MakespanPlan plan = plan_broadcast_ptas(cluster, source, parameters);
    expect_valid(cluster, plan);
    const double optimum = broadcast_by_sequences(cluster, source);
    EXPECT_LE(plan.makespan, 2 * optimum + 1e-9);
    EXPECT_LE(plan.lower_bound, optimum + 1e-9);
    MakespanRequest fnf_request;
    fnf_request.root = source;
    EXPECT_LE(plan.makespan, plan_makespan(cluster, fnf_request, "fnf").makespan + 1e-9);
    if (!plan.optimal) {
      EXPECT_NEAR(plan.guarantee.ratio, 2.0, 0);
      bool explained = false;
      for (const auto& note : plan.notes) explained |= note.find("not a fastest processor") != std::string::npos;
      EXPECT_TRUE(explained);
    }
  }
}

TEST(PtasTest, EdgeCases) {
  PtasParameters parameters;
  parameters.eps = 0.1;
  // One processor: nothing to send.
  MakespanPlan alone = plan_broadcast_ptas(Cluster::from_times({2.0}), 0, parameters);
  EXPECT_TRUE(alone.transfers.empty());
  EXPECT_EQ(alone.makespan, 0);
  // Identical processors: for small guesses nobody is fast (F empty), the
  // source is the only fast sender and the whole tree is slow.
  Cluster identical = Cluster::from_times(std::vector<double>(8, 1.0));
  MakespanPlan plan = plan_broadcast_ptas(identical, 0, parameters);
  expect_valid(identical, plan);
  // The optimum is ceil(log2 8) = 3; the scheme accepts any tree within
  // its deadline (1+eps')(1+3eps')T, so it may return a slower one.
  EXPECT_LE(plan.makespan, ptas_ratio(0.1, 0.1) * 3.0 + 1e-9);
  EXPECT_LE(plan.lower_bound, 3.0);
  EXPECT_GE(plan.lower_bound, 3.0 / 1.1 - 1e-9);
  // Only fast processors once T is large (S empty), and a very slow one
  // that can only be a leaf.
  Cluster lopsided = Cluster::from_times({1, 1, 1, 1, 1, 1, 100});
  plan = plan_broadcast_ptas(lopsided, 0, parameters);
  expect_valid(lopsided, plan);
  EXPECT_LE(plan.makespan, ptas_ratio(0.1, 0.1) * broadcast_by_sequences(lopsided, 0) + 1e-9);
  // Through the registry, with ε' given.
  MakespanRequest request;
  request.eps = 0.3;
  request.eps_prime = 0.6;
  plan = plan_makespan(Cluster::from_times({1, 2, 2, 3, 5, 5, 8}), request, "ptas");
  EXPECT_EQ(plan.algorithm, "ptas");
  expect_valid(Cluster::from_times({1, 2, 2, 3, 5, 5, 8}), plan);
}

TEST(PtasTest, BadParametersAreRefused) {
  Cluster cluster = Cluster::from_times({1, 2, 3});
  PtasParameters parameters;
  parameters.eps = 0;
  EXPECT_THROW(plan_broadcast_ptas(cluster, 0, parameters), InputError);
  parameters.eps = -1;
  EXPECT_THROW(plan_broadcast_ptas(cluster, 0, parameters), InputError);
  parameters.eps = 0.5;
  parameters.eps_prime = 0;
  EXPECT_THROW(plan_broadcast_ptas(cluster, 0, parameters), InputError);
  MakespanRequest request;
  request.eps = -0.5;
  EXPECT_THROW(plan_makespan(cluster, request, "ptas"), InputError);
}

TEST(PtasTest, RefusesWorkBeyondTheTimeLimitAndSaysWhatFits) {
  std::mt19937_64 rng(11);
  std::vector<double> times;
  for (int i = 0; i < 60; ++i) times.push_back(1 + static_cast<double>(rng() % 40) / 4);
  times[0] = 1;
  Cluster cluster = Cluster::from_times(times);
  PtasParameters parameters;
  parameters.eps = 0.5;
  parameters.eps_prime = 0.05;
  parameters.limits.time_limit_seconds = 1;
  const auto started = std::chrono::steady_clock::now();
  MakespanPlan refused = plan_broadcast_ptas(cluster, 0, parameters);
  // Decided in time proportional to the limit (the prediction stops early).
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 5.0);
  EXPECT_EQ(refused.status, SearchStatus::refused);
  EXPECT_EQ(refused.algorithm, "ptas");
  EXPECT_FALSE(refused.optimal && refused.lower_bound < refused.makespan);
  expect_valid(cluster, refused);
  ASSERT_FALSE(refused.notes.empty());
  const std::string message = refused.notes.back();
  EXPECT_NE(message.find("eps_prime"), std::string::npos) << message;
  EXPECT_NE(message.find("the time limit"), std::string::npos) << message;
  EXPECT_NE(message.find("fits"), std::string::npos) << message;
  EXPECT_DOUBLE_EQ(refused.makespan, last_completion(fnf_transfers(cluster, 0, [&] {
                     std::vector<ProcessorIndex> all;
                     for (ProcessorIndex p = 1; p < cluster.size(); ++p) all.push_back(p);
                     return all;
                   }())));
  auto fitting = finest_fitting_eps_prime(cluster, 0, {}, 0.5, 0.05, 1.0);
  // Receivers empty: nothing to do, so everything fits.
  ASSERT_TRUE(fitting.has_value());
  EXPECT_DOUBLE_EQ(*fitting, 0.05);
  PtasWorkEstimate work = estimate_broadcast_ptas(cluster, 0, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.5, 0.5);
  EXPECT_GT(work.guesses, 0);
  EXPECT_NE(work.describe().find("count vectors"), std::string::npos);
}

}  // namespace
}  // namespace hetcoll
