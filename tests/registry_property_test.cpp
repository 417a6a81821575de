// ONE property test over every registered makespan algorithm of the
// sender-speed model (graph algorithms bring their own suite): a new
// registration is covered without editing this file.
//
// On seeded random clusters of 1..8 processors, for every algorithm:
//  * every plan passes verify/ and finishes (no limit is given);
//  * its own guarantee is never weaker than the registry's structured one;
//  * against a brute-force optimum (tests/support/brute_force.h; for
//    all-reduce the optimum over reduce-then-broadcast compositions, the
//    model its claims are made in): the printed guarantee holds (exact:
//    equal; ratio r: makespan <= r x optimum), `optimal: true` means the
//    makespan is the optimum and the bound equals it, the lower bound never
//    exceeds the optimum, and no plan beats the optimum;
//  * a registry-exact algorithm on exactly representable times finishes
//    optimal;
//  * with node limits 0..3 (searches, and `auto`): the node count never
//    exceeds the limit, a stop is reported as node_limit with exactly that
//    many nodes, and the stopped guarantee of the registry still holds.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "hetcoll/registry/registry.h"
#include "hetcoll/verify/verify.h"
#include "support/brute_force.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

struct Instance {
  Cluster cluster;
  MakespanRequest request;  // operation, root, targets, order
  double optimum = 0;
};

// The factor a guarantee promises (1 exact, infinity heuristic).
double promised_ratio(const Guarantee& guarantee) {
  switch (guarantee.kind) {
    case Guarantee::Kind::exact: return 1.0;
    case Guarantee::Kind::ratio: return guarantee.ratio;
    case Guarantee::Kind::heuristic: return std::numeric_limits<double>::infinity();
  }
  return std::numeric_limits<double>::infinity();
}

double registry_ratio(Guarantee::Kind kind, double ratio) {
  return kind == Guarantee::Kind::exact ? 1.0
         : kind == Guarantee::Kind::ratio ? ratio
                                          : std::numeric_limits<double>::infinity();
}

double optimum_of(const Cluster& cluster, const MakespanRequest& request) {
  switch (request.operation) {
    case Operation::broadcast: return testing::broadcast_by_sequences(cluster, request.root);
    case Operation::multicast: return testing::multicast_by_helper_sets(cluster, request.root, request.targets);
    case Operation::reduce: return testing::reduce_by_ep_orders(cluster, request.root);
    case Operation::allreduce: return testing::allreduce_by_compositions(cluster);
  }
  return 0;
}

// Seeded instances per operation, shared by that operation's algorithms so
// each brute force runs once. Times are small integers and halves (exact in
// binary, ties exact), from 1 to 4 distinct values; every fifth instance
// has decimal times (0.1, 0.3, ...: rounding noise in every sum).
const std::vector<Instance>& instances(Operation operation) {
  static std::map<Operation, std::vector<Instance>> cache;
  auto [it, inserted] = cache.try_emplace(operation);
  if (!inserted) return it->second;
  std::mt19937_64 rng(20260 + static_cast<int>(operation));
  constexpr int kInstances = 120;
  for (int i = 0; i < kInstances; ++i) {
    const int n = operation == Operation::multicast ? std::uniform_int_distribution<int>(2, 8)(rng)
                                                    : std::uniform_int_distribution<int>(1, 8)(rng);
    Cluster cluster = testing::random_cluster(rng, n, 1 + i % 4, 4.0);
    if (i % 5 == 4) {
      std::vector<double> times;
      for (ProcessorIndex p = 0; p < n; ++p) times.push_back(0.1 * static_cast<double>(1 + rng() % 7) + 0.1 * (p % 2));
      cluster = Cluster::from_times(times);
    }
    Instance instance{cluster, testing::random_request(operation, n, rng), 0};
    MakespanRequest& request = instance.request;
    if (operation == Operation::allreduce && i % 2 == 0) request.root = kNoProcessor;  // a fastest one
    request.eps = i % 3 == 0 ? 0.3 : 0.5;
    instance.optimum = optimum_of(instance.cluster, request);
    it->second.push_back(std::move(instance));
  }
  return it->second;
}

std::vector<const MakespanAlgorithm*> cluster_algorithms() {
  std::vector<const MakespanAlgorithm*> list;
  for (const auto& algorithm : makespan_algorithms()) {
    if (algorithm.model == CommunicationModel::sender_speed) list.push_back(&algorithm);
  }
  return list;
}

class EveryAlgorithm : public ::testing::TestWithParam<const MakespanAlgorithm*> {};

// Claims against the optimum; `stopped` = a limit may have stopped the run.
void check_claims(const MakespanAlgorithm& algorithm, const Instance& instance, const MakespanPlan& plan,
                  bool stopped_allowed, const std::string& context) {
  const Cluster& cluster = instance.cluster;
  const double optimum = instance.optimum;
  const double slack = 1e-9 * std::max(1.0, optimum);
  VerifyReport report = verify(cluster, plan);
  ASSERT_TRUE(report.valid) << context << report.summary();
  if (!stopped_allowed) {
    EXPECT_EQ(plan.status, SearchStatus::finished) << context;
  }
  // The plan's own guarantee is never weaker than the registry's.
  const double registry = plan.status == SearchStatus::finished
                              ? algorithm.guarantee.worst_ratio(instance.request)
                              : registry_ratio(algorithm.guarantee.stopped_kind, algorithm.guarantee.stopped_ratio);
  EXPECT_LE(promised_ratio(plan.guarantee), registry + 1e-12)
      << context << "plan guarantee \"" << plan.guarantee.text << "\" vs registry \"" << algorithm.guarantee.text << "\"";
  // The printed guarantee holds against the optimum.
  EXPECT_GE(plan.makespan, optimum - slack) << context << "beats the optimum";
  if (plan.guarantee.kind == Guarantee::Kind::exact) {
    EXPECT_NEAR(plan.makespan, optimum, slack) << context << "claims exact";
  } else if (plan.guarantee.kind == Guarantee::Kind::ratio) {
    EXPECT_LE(plan.makespan, plan.guarantee.ratio * optimum + slack) << context << plan.guarantee.text;
  }
  // optimal: true is the optimum, with the bound equal to it.
  if (plan.optimal) {
    EXPECT_NEAR(plan.makespan, optimum, slack) << context << "claims optimal: " << plan.optimality_proof;
    EXPECT_EQ(plan.lower_bound, plan.makespan) << context;
  }
  EXPECT_LE(plan.lower_bound, optimum + slack) << context << "bound above the optimum";
}

TEST_P(EveryAlgorithm, ClaimsHoldAgainstBruteForce) {
  const MakespanAlgorithm& algorithm = *GetParam();
  int runs = 0;
  for (const Instance& instance : instances(algorithm.operation)) {
    const std::string context = fmt::format("{} {} on times {} root {}: ", to_string(algorithm.operation),
                                            algorithm.name, fmt::join(instance.cluster.transmission_times(), ","),
                                            instance.request.root);
    MakespanPlan plan = plan_makespan(instance.cluster, instance.request, algorithm.name);
    check_claims(algorithm, instance, plan, /*stopped_allowed=*/false, context);
    const bool binary_times = std::all_of(instance.cluster.transmission_times().begin(),
                                          instance.cluster.transmission_times().end(),
                                          [](double t) { return t * 2 == std::round(t * 2); });
    if (algorithm.guarantee.kind == Guarantee::Kind::exact && binary_times) {
      EXPECT_TRUE(plan.optimal) << context << "a finished exact algorithm proves its plan optimal";
    }
    ++runs;
  }
  RecordProperty("runs", runs);
}

TEST_P(EveryAlgorithm, NodeLimitsAreExactAndStoppedClaimsHold) {
  const MakespanAlgorithm& algorithm = *GetParam();
  for (const Instance& instance : instances(algorithm.operation)) {
    if (&instance - instances(algorithm.operation).data() >= 40) break;  // the first 40 suffice here
    for (std::uint64_t limit : {0, 1, 2, 3}) {
      MakespanRequest request = instance.request;
      request.limits.node_limit = limit;
      const std::string context =
          fmt::format("{} {} on times {} with --node-limit {}: ", to_string(algorithm.operation), algorithm.name,
                      fmt::join(instance.cluster.transmission_times(), ","), limit);
      MakespanPlan plan = plan_makespan(instance.cluster, request, algorithm.name);
      EXPECT_LE(plan.stats.nodes, limit) << context;
      if (plan.status == SearchStatus::node_limit) {
        EXPECT_EQ(plan.stats.nodes, limit) << context << "a stop at the node limit examines exactly the limit";
      }
      EXPECT_TRUE(plan.status == SearchStatus::finished || plan.status == SearchStatus::node_limit)
          << context << to_string(plan.status);
      check_claims(algorithm, instance, plan, /*stopped_allowed=*/true, context);
    }
  }
}

std::string test_name(const ::testing::TestParamInfo<const MakespanAlgorithm*>& info) {
  std::string name = std::string(to_string(info.param->operation)) + "_" + info.param->name;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Registry, EveryAlgorithm, ::testing::ValuesIn(cluster_algorithms()), test_name);

// The registry itself: names unique per operation and model, one default
// each, structured guarantees consistent with their text.
TEST(Registry, StructuredGuaranteesAreConsistent) {
  std::map<std::pair<int, int>, int> defaults;
  for (const auto& a : makespan_algorithms()) {
    EXPECT_EQ(find_makespan_algorithm(a.operation, a.name, a.model), &a) << a.name << " registered twice";
    if (a.is_default) ++defaults[{static_cast<int>(a.operation), static_cast<int>(a.model)}];
    EXPECT_FALSE(a.guarantee.text.empty()) << a.name;
    EXPECT_FALSE(a.reference.empty()) << a.name;
    if (a.model == CommunicationModel::sender_speed) {
      EXPECT_TRUE(static_cast<bool>(a.run)) << a.name;
    } else {
      EXPECT_TRUE(static_cast<bool>(a.run_on_graph)) << a.name;
    }
    if (a.guarantee.kind == Guarantee::Kind::ratio) {
      EXPECT_GE(a.guarantee.ratio, 1.0) << a.name;
    }
    // A stopped run never promises more than a finished one.
    EXPECT_GE(registry_ratio(a.guarantee.stopped_kind, a.guarantee.stopped_ratio),
              registry_ratio(a.guarantee.kind, a.guarantee.ratio))
        << a.name;
    for (const auto& c : a.guarantee.stronger) {
      EXPECT_FALSE(c.condition.empty()) << a.name;
      EXPECT_FALSE(c.reference.empty()) << a.name;
    }
  }
  for (auto operation : {Operation::broadcast, Operation::multicast, Operation::reduce, Operation::allreduce}) {
    EXPECT_EQ((defaults[{static_cast<int>(operation), static_cast<int>(CommunicationModel::sender_speed)}]), 1)
        << to_string(operation);
  }
}

}  // namespace
}  // namespace hetcoll
