// The public one-shot API (hetcoll/hetcoll.h): every plan it returns is
// verified and its claims hold; errors name the parameter; files and
// in-code platforms both work.
#include <gtest/gtest.h>

#include <random>

#include "hetcoll/hetcoll.h"
#include "hetcoll/verify/verify.h"
#include "support/brute_force.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

constexpr double kSlack = 1e-9;

// The parameter an InputError names, or "(no error)".
template <typename Call>
std::string failing_parameter(Call call) {
  try {
    call();
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()).rfind(error.parameter() + ": ", 0), 0u) << error.what();
    // Library messages speak of parameters; the command line maps them to its flags.
    EXPECT_EQ(std::string(error.what()).find("--"), std::string::npos) << error.what();
    return error.parameter();
  }
  return "(no error)";
}

TEST(HetcollApi, EveryAlgorithmOfEveryOperationReturnsAVerifiedPlanWhoseClaimsHold) {
  std::mt19937_64 rng(12);
  for (int trial = 0; trial < 60; ++trial) {
    int n = std::uniform_int_distribution<int>(2, 7)(rng);
    Cluster cluster = testing::random_cluster(rng, n, trial % 4, 4.0);
    ProcessorIndex root = std::uniform_int_distribution<ProcessorIndex>(0, n - 1)(rng);
    for (Operation operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
      for (const std::string& name : algorithm_names(operation)) {
        PlanOptions options;
        options.algorithm = name;
        if (name == "ep") {
          for (ProcessorIndex p = 0; p < n; ++p) {
            if (p != root) options.order.emplace_back(cluster.id(p));
          }
        }
        MakespanPlan plan = operation == Operation::broadcast ? plan_broadcast(cluster, root, options)
                            : operation == Operation::reduce  ? plan_reduce(cluster, root, options)
                                                              : plan_allreduce(cluster, {}, options);
        SCOPED_TRACE(std::string(to_string(operation)) + " " + name);
        EXPECT_EQ(plan.operation, operation);
        EXPECT_TRUE(verify(cluster, plan).valid);
        EXPECT_LE(plan.lower_bound, plan.makespan + kSlack);
        double optimum = operation == Operation::broadcast ? testing::broadcast_by_sequences(cluster, root)
                         : operation == Operation::reduce  ? testing::reduce_by_ep_orders(cluster, root)
                                                           : 0;
        if (operation != Operation::allreduce) {
          EXPECT_LE(plan.lower_bound, optimum + kSlack);
          if (plan.optimal) {
            EXPECT_NEAR(plan.makespan, optimum, kSlack);
          }
        }
        if (plan.guarantee.kind == Guarantee::Kind::ratio && operation != Operation::allreduce) {
          EXPECT_LE(plan.makespan, plan.guarantee.ratio * optimum + kSlack);
        }
      }
    }
  }
}

TEST(HetcollApi, MulticastReachesEveryTarget) {
  Cluster cluster = Cluster::from_times({1, 1, 1, 1, 8, 8, 8, 8});
  MakespanPlan plan = plan_multicast(cluster, "p4", {"p5", "p6", 7});
  EXPECT_TRUE(verify(cluster, plan).valid);
  EXPECT_EQ(plan.root, 4);
  EXPECT_EQ(plan.targets, (std::vector<ProcessorIndex>{5, 6, 7}));
  EXPECT_LE(plan.lower_bound, plan.makespan + kSlack);
}

TEST(HetcollApi, ProcessorsByIdOrIndexAndDefaults) {
  Cluster cluster({"a", "b", "c"}, {2, 1, 1});
  EXPECT_EQ(plan_broadcast(cluster, "b").root, 1);
  EXPECT_EQ(plan_broadcast(cluster, 2).root, 2);
  EXPECT_EQ(plan_broadcast(cluster, std::string("1")).root, 1);  // an index given as text, as on the command line
  EXPECT_EQ(plan_broadcast(cluster).root, 0);                     // default source: the first processor
  EXPECT_EQ(plan_allreduce(cluster).root, 1);                     // default root: a fastest processor
}

TEST(HetcollApi, ErrorsNameTheParameter) {
  Cluster cluster = Cluster::from_times({1, 2, 2, 3});
  EXPECT_EQ(failing_parameter([&] { plan_broadcast(cluster, "p9"); }), "source");
  EXPECT_EQ(failing_parameter([&] { plan_broadcast(cluster, 4); }), "source");
  EXPECT_EQ(failing_parameter([&] { plan_reduce(cluster, -1); }), "root");
  EXPECT_EQ(failing_parameter([&] { plan_allreduce(cluster, "nobody"); }), "root");
  EXPECT_EQ(failing_parameter([&] { plan_multicast(cluster, "p0", {}); }), "targets");
  EXPECT_EQ(failing_parameter([&] { plan_multicast(cluster, {}, {"p1"}); }), "source");
  EXPECT_EQ(failing_parameter([&] { plan_multicast(cluster, "p0", {"p1", "x"}); }), "targets");
  PlanOptions options;
  options.order = {"p1", "zz"};
  options.algorithm = "ep";
  EXPECT_EQ(failing_parameter([&] { plan_reduce(cluster, 0, options); }), "order");
  PlanOptions unknown_algorithm;
  unknown_algorithm.algorithm = "fastest";
  EXPECT_EQ(failing_parameter([&] { plan_reduce(cluster, 0, unknown_algorithm); }), "algorithm");
}

TEST(HetcollApi, AlgorithmParameterErrorsNameTheParameterNotAFlag) {
  Cluster cluster = Cluster::from_times({1, 2, 2, 3});
  PlanOptions ep_without_order;
  ep_without_order.algorithm = "ep";
  EXPECT_EQ(failing_parameter([&] { plan_reduce(cluster, 0, ep_without_order); }), "order");
  PlanOptions repeated = ep_without_order;
  repeated.order = {"p1", "p1", "p2"};
  EXPECT_EQ(failing_parameter([&] { plan_reduce(cluster, 0, repeated); }), "order");
  PlanOptions with_root = ep_without_order;
  with_root.order = {"p0", "p1", "p2"};
  EXPECT_EQ(failing_parameter([&] { plan_reduce(cluster, 0, with_root); }), "order");
  PlanOptions ptas;
  ptas.algorithm = "ptas";
  ptas.eps = -1;
  EXPECT_EQ(failing_parameter([&] { plan_broadcast(cluster, 0, ptas); }), "eps");
  ptas.eps = 0.5;
  ptas.eps_prime = 0;
  EXPECT_EQ(failing_parameter([&] { plan_broadcast(cluster, 0, ptas); }), "eps_prime");
  EXPECT_EQ(failing_parameter([&] { plan_multicast(cluster, 0, {"p1"}, ptas); }), "eps_prime");
  EXPECT_EQ(failing_parameter([] { parse_times_list("1,x,3"); }), "times");
  EXPECT_EQ(failing_parameter([] { parse_times_list("1,-2"); }), "times");
}

TEST(HetcollApi, ALimitReturnsTheBestPlanSoFarNotAnError) {
  std::mt19937_64 rng(5);
  Cluster cluster = testing::random_cluster(rng, 60, 5, 4.0);
  PlanOptions options;
  options.algorithm = "optimal";
  options.node_limit = 3;
  MakespanPlan plan = plan_reduce(cluster, 0, options);
  EXPECT_TRUE(verify(cluster, plan).valid);
  // 60 processors in 5 classes: 3 nodes never finish the search.
  EXPECT_EQ(plan.status, SearchStatus::node_limit);
  EXPECT_TRUE(plan.limit_reached());
  EXPECT_EQ(plan.stats.nodes, 3u);
  EXPECT_LE(plan.lower_bound, plan.makespan);
  int calls = 0;
  options.node_limit = std::numeric_limits<std::uint64_t>::max();
  options.progress = [&calls](const SearchStats&, double) { return ++calls < 0; };  // stop at the first report
  EXPECT_TRUE(verify(cluster, plan_broadcast(cluster, 0, options)).valid);
}

TEST(HetcollApi, PlatformsFromFiles) {
  Cluster cluster = read_cluster(testing::source_path("examples/cluster.json"));
  EXPECT_EQ(cluster.size(), 5);
  MakespanPlan plan = plan_reduce(cluster, "slow0");
  EXPECT_EQ(cluster.id(plan.root), "slow0");
  EXPECT_NE(plan_to_json(plan, cluster).find("\"valid\": true"), std::string::npos);
  EXPECT_NE(plan_to_text(plan, cluster).find("makespan"), std::string::npos);

  const std::string graph_file = testing::source_path("examples/two-sites.json");
  try {
    read_cluster(graph_file);
    ADD_FAILURE() << "a graph read as a cluster";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("two-sites.json"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("sender_speed_view"), std::string::npos) << error.what();
  }
  LoadedPlatform graph = read_platform(graph_file);
  ASSERT_FALSE(graph.is_cluster());
  Cluster view = sender_speed_view(graph.graph(), 1e6);
  EXPECT_TRUE(verify(view, plan_broadcast(view)).valid);
}

TEST(HetcollApi, VersionIsTheProjectVersion) {
  EXPECT_FALSE(version().empty());
  EXPECT_EQ(version().find('.') != std::string_view::npos, true);
}

}  // namespace
}  // namespace hetcoll
