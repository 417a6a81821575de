// Cluster and platform models, inline --times lists, plan JSON round trips.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <span>
#include <sstream>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/sender_speed/allreduce/reduce_broadcast.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/model/shortest_paths.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/verify/verify.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

template <typename F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Cluster, IdTableFindsEveryIdAndEveryDuplicate) {
  // The constructor fills the id table hashing ids ahead of their insertion
  // (cluster.cpp): every id is found, indices too, and a duplicate anywhere
  // (before, at and past the look-ahead) names both positions.
  std::vector<std::string> ids;
  for (int p = 0; p < 5000; ++p) ids.push_back("node-" + std::to_string(p * 7919 % 5000));
  const Cluster cluster(ids, std::vector<double>(ids.size(), 1.0), "c.json");
  for (std::size_t p = 0; p < ids.size(); ++p) ASSERT_EQ(cluster.find(ids[p]), static_cast<ProcessorIndex>(p));
  EXPECT_FALSE(cluster.find("node-5000").has_value());
  for (std::size_t at : {1u, 15u, 16u, 17u, 4999u}) {
    std::vector<std::string> twice = ids;
    twice[at] = twice[at / 2];
    const std::string message = input_error_of([&] { Cluster(twice, std::vector<double>(twice.size(), 1.0), "c.json"); });
    EXPECT_NE(message.find("processors[" + std::to_string(at) + "].id: duplicate id \"" + twice[at] +
                           "\" (also processors[" + std::to_string(at / 2) + "])"),
              std::string::npos)
        << message;
  }
}

TEST(Cluster, RejectsBadProcessors) {
  EXPECT_NE(input_error_of([] { Cluster({"a", "a"}, {1, 2}, "c.json"); }).find("duplicate id \"a\""),
            std::string::npos);
  EXPECT_NE(input_error_of([] { Cluster({"a", "b"}, {1, -2}, "c.json"); }).find("processors[1].t"), std::string::npos);
  EXPECT_NE(input_error_of([] { Cluster({"a"}, {0}, "c.json"); }).find("positive"), std::string::npos);
  EXPECT_NE(input_error_of([] { Cluster({}, {}, "c.json"); }).find("no processors"), std::string::npos);
  EXPECT_NE(input_error_of([] { Cluster({""}, {1}, "c.json"); }).find("processors[0].id"), std::string::npos);
  EXPECT_NE(input_error_of([] { Cluster({"a"}, {std::numeric_limits<double>::infinity()}, "c.json"); }).find("finite"),
            std::string::npos);
  EXPECT_NE(input_error_of([] { Cluster({"a", "b"}, {1e308, 1e308}, "c.json"); }).find("overflows"), std::string::npos);
  // Subnormal times (issue 7: 3e-310 etc. claimed a wrong optimum) and times
  // whose tolerance would be subnormal are rejected by name.
  EXPECT_NE(input_error_of([] { Cluster({"a", "b"}, {3e-310, 1}, "c.json"); }).find("processors[0].t: 3e-310 is too small"),
            std::string::npos);
  EXPECT_NE(input_error_of([] { parse_times_list("3e-310,3e-310,7e-310"); }).find("too small"), std::string::npos);
  EXPECT_NE(input_error_of([] { Cluster({"a"}, {1e-300}, "c.json"); }).find("too small"), std::string::npos);
  EXPECT_NO_THROW(Cluster({"a"}, {1e-290}, "c.json"));
  // The option is named as given.
  EXPECT_NE(input_error_of([] { parse_times_list("1,-1", "class_times"); }).find("class_times: item 2"),
            std::string::npos);
}

// sort_by_time_class: the plain (time, index) order cut into tolerance
// classes, whether the input is in index order or shuffled, for few and
// many distinct times, fastest or slowest class first.
TEST(Cluster, SortByTimeClassMatchesThePlainSort) {
  std::mt19937 random(7);
  for (int round = 0; round < 60; ++round) {
    const int n = 1 + static_cast<int>(random() % 300);
    const int distinct = round % 3 == 0 ? 100 : 1 + static_cast<int>(random() % 8);
    std::vector<double> times;
    for (int i = 0; i < n; ++i) times.push_back(1.0 + static_cast<double>(random() % distinct) * 0.5);
    Cluster cluster = Cluster::from_times(times);
    std::vector<ProcessorIndex> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    if (round % 2 == 1) std::shuffle(order.begin(), order.end(), random);
    std::vector<ProcessorIndex> expected = order;
    std::sort(expected.begin(), expected.end(), [&](ProcessorIndex a, ProcessorIndex b) {
      const double ta = cluster.transmission_time(a), tb = cluster.transmission_time(b);
      return ta != tb ? ta < tb : a < b;
    });
    for (bool slowest_first : {false, true}) {
      std::vector<ProcessorIndex> got = order;
      sort_by_time_class(cluster, got, slowest_first);
      std::vector<ProcessorIndex> want = expected;
      if (slowest_first) {
        // Classes here are exact times (0.5 apart), so slowest first is
        // the classes reversed, each still by index.
        std::stable_sort(want.begin(), want.end(), [&](ProcessorIndex a, ProcessorIndex b) {
          return cluster.transmission_time(a) > cluster.transmission_time(b);
        });
      }
      EXPECT_EQ(got, want) << "round " << round << (slowest_first ? " slowest first" : "");
    }
  }
}

// Near-ties (times within the tolerance but not equal) and many distinct
// times take the sorting path, few exact times the bucket path: both give
// the tolerance rule's order (classes fastest or slowest first, by index).
TEST(Cluster, SortByTimeClassBucketsOnlyExactClasses) {
  const double tiny = 1e-12;  // far below the tolerance 1e-9 x 1
  Cluster near = Cluster::from_times({2.0, 1.0 + tiny, 1.0, 2.0, 1.0 + tiny});
  std::vector<ProcessorIndex> order{4, 3, 2, 1, 0};
  sort_by_time_class(near, order);
  EXPECT_EQ(order, (std::vector<ProcessorIndex>{1, 2, 4, 0, 3}));  // 1, 1+tiny, 1+tiny one class, by index
  sort_by_time_class(near, order, /*slowest_first=*/true);
  EXPECT_EQ(order, (std::vector<ProcessorIndex>{0, 3, 1, 2, 4}));
  Cluster exact = Cluster::from_times({3.0, 1.0, 2.0, 1.0, 3.0, 2.0});
  std::vector<ProcessorIndex> shuffled{5, 0, 3, 4, 1, 2};
  sort_by_time_class(exact, shuffled);
  EXPECT_EQ(shuffled, (std::vector<ProcessorIndex>{1, 3, 2, 5, 0, 4}));
  sort_by_time_class(exact, shuffled, /*slowest_first=*/true);
  EXPECT_EQ(shuffled, (std::vector<ProcessorIndex>{0, 4, 2, 5, 1, 3}));
}

// plan/transfer_route.h: one pointer, and the vector calls plans make.
TEST(TransferRoute, BehavesLikeTheVectorItReplaces) {
  static_assert(sizeof(TransferRoute) == sizeof(void*));
  TransferRoute route;
  EXPECT_TRUE(route.empty());
  EXPECT_EQ(route.size(), 0u);
  EXPECT_EQ(route.begin(), route.end());
  Route grown;
  for (std::size_t e = 0; e < 40; ++e) {
    route.push_back(e * 3);
    grown.push_back(e * 3);
    ASSERT_EQ(route, grown) << e;
    ASSERT_EQ(route.back(), e * 3);
  }
  EXPECT_EQ(route.front(), 0u);
  EXPECT_EQ(route[7], 21u);
  TransferRoute copy = route;
  EXPECT_EQ(copy, route);
  copy.push_back(1);
  EXPECT_NE(copy, route);  // a deep copy
  EXPECT_EQ(route.size(), 40u);
  route.assign(grown.begin(), grown.begin() + 2);  // shrinks in place
  EXPECT_EQ(route, (Route{0, 3}));
  route = {5, 6, 7};
  EXPECT_EQ(static_cast<Route>(route), (Route{5, 6, 7}));
  std::span<const std::size_t> view = route;
  EXPECT_EQ(view.size(), 3u);
  TransferRoute moved = std::move(route);
  EXPECT_EQ(moved, (Route{5, 6, 7}));
  moved.clear();
  EXPECT_TRUE(moved.empty());
  EXPECT_EQ(moved, TransferRoute());
  Transfer a{0, 1, 0.0, 1.0, Payload::broadcast_value};
  Transfer b = a;
  b.route = {2};
  EXPECT_NE(a, b);  // the route takes part in equality
  EXPECT_EQ(sizeof(Transfer), 40u);
}

TEST(Cluster, FindsByIdOrIndex) {
  Cluster cluster({"fast", "slow", "3"}, {1, 2, 3});
  EXPECT_EQ(cluster.find("slow"), 1);
  EXPECT_EQ(cluster.find("0"), 0);
  EXPECT_EQ(cluster.find("3"), 2);  // an id wins over an index
  EXPECT_FALSE(cluster.find("7").has_value());
  EXPECT_FALSE(cluster.find("-1").has_value());
  EXPECT_FALSE(cluster.find("1x").has_value());
  EXPECT_EQ(cluster.fastest_processor(), 0);
  EXPECT_EQ(cluster.distinct_times().size(), 3u);
}

TEST(TimesList, ParsesAndRejects) {
  Cluster cluster = parse_times_list("1, 1,2.5 ,4");
  ASSERT_EQ(cluster.size(), 4);
  EXPECT_EQ(cluster.id(3), "p3");
  EXPECT_DOUBLE_EQ(cluster.transmission_time(2), 2.5);
  EXPECT_NE(input_error_of([] { parse_times_list("1,,2"); }).find("item 2"), std::string::npos);
  EXPECT_NE(input_error_of([] { parse_times_list("1,abc"); }).find("not a number"), std::string::npos);
  EXPECT_NE(input_error_of([] { parse_times_list("1,-3"); }).find("positive"), std::string::npos);
  EXPECT_NE(input_error_of([] { parse_times_list(""); }).find("item 1"), std::string::npos);
  EXPECT_NE(input_error_of([] { parse_times_list("1,inf"); }).find("positive finite"), std::string::npos);
}

TEST(PlatformJson, ClusterAndGraph) {
  auto cluster = parse_platform_json(
      R"({"model": "cluster", "processors": [{"id": "fast0", "t": 1.0}, {"id": "slow0", "t": 2.5}]})", "c.json");
  ASSERT_TRUE(cluster.is_cluster());
  EXPECT_EQ(cluster.cluster().id(1), "slow0");
  auto graph = parse_platform_json(R"({"model": "graph", "symmetric": true,
      "nodes": [{"id": "A", "speed": 1.0}, {"id": "B", "speed": 2.0}, {"id": "C"}],
      "edges": [{"from": "A", "to": "B", "cost": 2.0}, {"from": "B", "to": "C", "latency": 0.001, "bandwidth": 1e6}]})",
                                   "g.json");
  ASSERT_FALSE(graph.is_cluster());
  EXPECT_EQ(graph.graph().edges().size(), 4u);
  EXPECT_EQ(graph.graph().out_edges(1).size(), 2u);
  EXPECT_THROW(graph.graph().edge_costs(), InputError);  // latency/bandwidth needs a size
  auto costs = graph.graph().edge_costs(1000.0);
  EXPECT_DOUBLE_EQ(costs[1], 0.001 + 1000.0 / 1e6);
}

TEST(PlatformJson, RoutersAreReadWrittenAndChecked) {
  auto loaded = parse_platform_json(R"({"model": "graph", "symmetric": true,
      "nodes": [{"id": "A"}, {"id": "R", "router": true}, {"id": "B"}],
      "edges": [{"from": "A", "to": "R", "cost": 1}, {"from": "R", "to": "B", "cost": 1}]})",
                                    "r.json");
  const Platform& platform = loaded.graph();
  EXPECT_TRUE(platform.node(1).router);
  EXPECT_EQ(platform.participants(), (std::vector<ProcessorIndex>{0, 2}));
  std::ostringstream written;
  write_platform_json(written, platform);
  EXPECT_NE(written.str().find("\"router\":true"), std::string::npos) << written.str();
  EXPECT_TRUE(parse_platform_json(written.str(), "w.json").graph().node(1).router);
  EXPECT_NE(input_error_of([] {
              parse_platform_json(R"({"model": "graph", "nodes": [{"id": "A", "router": 1}]})", "bad.json");
            }).find("nodes[0].router: must be true or false"),
            std::string::npos);
}

TEST(ShortestPaths, RoutesAroundAndThroughRouters) {
  // A -> B directly costs 5; A -> R -> B costs 2; A -> C -> B costs 3.
  Platform platform({{"A"}, {"B"}, {"R", {}, {}, true}, {"C"}},
                    {{0, 1, 5.0}, {0, 2, 1.0}, {2, 1, 1.0}, {0, 3, 1.0}, {3, 1, 2.0}});
  auto costs = platform.edge_costs();
  auto from_a = shortest_paths_from(platform, 0, costs);
  EXPECT_DOUBLE_EQ(from_a.distance[1], 2.0);
  EXPECT_EQ(from_a.path(platform, 1), (std::vector<std::size_t>{1, 2}));
  auto avoiding = shortest_paths_from(platform, 0, costs, /*through_routers=*/false);
  EXPECT_DOUBLE_EQ(avoiding.distance[1], 3.0);
  EXPECT_EQ(avoiding.path(platform, 1), (std::vector<std::size_t>{3, 4}));
  EXPECT_DOUBLE_EQ(avoiding.distance[2], 1.0);  // a router may end a path
  auto to_b = shortest_paths_to(platform, 1, costs);
  EXPECT_DOUBLE_EQ(to_b.distance[0], 2.0);
  EXPECT_EQ(to_b.path(platform, 0), (std::vector<std::size_t>{1, 2}));
  EXPECT_FALSE(shortest_paths_from(platform, 1, costs).reaches(0));
  EXPECT_TRUE(to_b.path(platform, 1).empty());
}

TEST(PlatformJson, GraphToClusterNeedsEveryPair) {
  auto graph = parse_platform_json(R"({"model": "graph", "symmetric": true, "nodes": [{"id": "A"}, {"id": "B"},
      {"id": "C"}], "edges": [{"from": "A", "to": "B", "cost": 2}, {"from": "B", "to": "C", "cost": 1},
      {"from": "A", "to": "C", "cost": 3}]})",
                                   "g.json");
  Cluster cluster = cluster_from_platform(graph.graph(), std::nullopt, "g.json");
  EXPECT_DOUBLE_EQ(cluster.transmission_time(0), 3);  // A's slowest route
  EXPECT_DOUBLE_EQ(cluster.transmission_time(1), 2);
  auto partial = parse_platform_json(
      R"({"model": "graph", "nodes": [{"id": "A"}, {"id": "B"}], "edges": [{"from": "A", "to": "B", "cost": 2}]})",
      "g.json");
  // A valid platform whose sender-speed view does not exist: no solution (exit code 3).
  try {
    cluster_from_platform(partial.graph(), std::nullopt, "g.json");
    FAIL() << "expected NoSolutionError";
  } catch (const NoSolutionError& error) {
    EXPECT_NE(std::string(error.what()).find("from \"B\" to \"A\""), std::string::npos) << error.what();
  }
}

TEST(PlatformJson, DuplicatesAreRejectedByName) {
  // A second "model" key used to be kept silently (and then blamed "processors").
  EXPECT_NE(input_error_of([&] {
              parse_platform_json(R"({"model": "graph", "model": "cluster", "processors": [{"id": "a", "t": 1}]})",
                                  "d.json");
            }).find("d.json: model: the key appears twice"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] {
              parse_platform_json(R"({"model": "cluster", "processors": [{"id": "a", "t": 1, "t": 2}]})", "d.json");
            }).find("t: the key appears twice"),
            std::string::npos);
  // Duplicate graph edges (the larger cost used to win silently).
  EXPECT_NE(input_error_of([&] {
              parse_platform_json(R"({"model": "graph", "nodes": [{"id": "A"}, {"id": "B"}], "edges": [
                  {"from": "A", "to": "B", "cost": 2}, {"from": "A", "to": "B", "cost": 5}]})",
                                  "d.json");
            }).find("edges[1]: duplicate edge \"A\" -> \"B\" (also edges[0])"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] {
              parse_platform_json(R"({"model": "graph", "symmetric": true, "nodes": [{"id": "A"}, {"id": "B"}],
                  "edges": [{"from": "A", "to": "B", "cost": 2}, {"from": "B", "to": "A", "cost": 2}]})",
                                  "d.json");
            }).find("symmetric"),
            std::string::npos);
  // A directory given as a platform file.
  EXPECT_NE(input_error_of([&] { load_platform_file(testing::source_path("examples")); }).find("is a directory"),
            std::string::npos);
}

TEST(PlatformJson, ClusterJsonRoundTrip) {
  Cluster cluster({"a b", "c\"d", "e"}, {0.1, 1.0 / 3.0, 7});
  std::ostringstream out;
  write_cluster_json(out, cluster);
  auto back = parse_platform_json(out.str(), "round.json");
  ASSERT_TRUE(back.is_cluster());
  EXPECT_EQ(back.cluster().ids(), cluster.ids());
  EXPECT_EQ(back.cluster().transmission_times(), cluster.transmission_times());  // exact
}

TEST(PlanJson, RoundTripKeepsEveryTransferAndVerifies) {
  Cluster cluster = Cluster::from_times({1, 1.5, 2, 0.1, 0.3, 3});
  for (auto plan : {plan_broadcast_fnf(cluster, 2), plan_reduce_snf(cluster, 1),
                    plan_allreduce_snf_fnf(cluster, kNoProcessor)}) {
    std::ostringstream out;
    write_plan_json(out, plan, cluster, {true, true});
    MakespanPlan back = parse_plan_json(out.str(), cluster, "plan.json");
    EXPECT_EQ(back.operation, plan.operation);
    EXPECT_EQ(back.root, plan.root);
    EXPECT_EQ(back.transfers, plan.transfers);  // exact doubles
    EXPECT_EQ(back.makespan, plan.makespan);
    EXPECT_EQ(back.optimal, plan.optimal);
    EXPECT_TRUE(verify(cluster, back).valid);
  }
}

TEST(PlanJson, BadPlansNameTheField) {
  Cluster cluster = Cluster::from_times({1, 2});
  EXPECT_NE(input_error_of([&] { parse_plan_json("{", cluster, "p.json"); }).find("p.json: malformed JSON"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] { parse_plan_json(R"({"operation": "scatter", "transfers": []})", cluster, "p.json"); })
                .find("unknown operation"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] {
              parse_plan_json(R"({"operation": "broadcast", "source": "p0", "makespan": 1, "transfers": [{"from": "p0",
                  "to": "zz", "start": 0, "end": 1}]})",
                              cluster, "p.json");
            }).find("transfers[0].to: unknown processor \"zz\""),
            std::string::npos);
  EXPECT_NE(input_error_of([&] {
              parse_plan_json(R"({"operation": "broadcast", "source": "p0", "makespan": 1, "transfers": [{"from": "p0",
                  "to": "p1", "end": 1}]})",
                              cluster, "p.json");
            }).find("transfers[0].start: missing"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] {
              parse_plan_json(R"({"operation": "broadcast", "makespan": 0, "transfers": []})", cluster, "p.json");
            }).find("source: missing"),
            std::string::npos);
  // A plan states its makespan (it was read as NaN and the check skipped).
  EXPECT_NE(input_error_of([&] {
              parse_plan_json(R"({"operation": "broadcast", "source": "p0", "transfers": []})", cluster, "p.json");
            }).find("p.json: makespan: missing"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] {
              parse_plan_json(R"({"operation": "broadcast", "source": "p0", "makespan": "4", "transfers": []})", cluster,
                              "p.json");
            }).find("makespan: must be a number"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] {
              parse_plan_json(R"({"operation": "broadcast", "source": "p0", "makespan": 0, "optimal": "yes",
                  "transfers": []})",
                              cluster, "p.json");
            }).find("optimal: must be true or false"),
            std::string::npos);
  EXPECT_NE(input_error_of([&] {
              parse_plan_json(R"({"operation": "broadcast", "source": "p0", "makespan": 0, "status": "done",
                  "transfers": []})",
                              cluster, "p.json");
            }).find("status: must be"),
            std::string::npos);
  // Found by fuzz_plan_json: a number beyond a double escaped as a JSON library error.
  EXPECT_NE(input_error_of([&] {
              parse_plan_json(R"({"operation": "broadcast", "source": "p0", "makespan": 1e400, "transfers": []})",
                              cluster, "p.json");
            }).find("p.json"),
            std::string::npos);
}

}  // namespace
}  // namespace hetcoll
