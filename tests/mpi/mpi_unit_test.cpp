// The MPI runtime's parts that need no running MPI: which plans it accepts
// (every registered algorithm's plans on random clusters, none of the broken
// ones), rank mappings, the slice-to-tree assignment, the pipelined
// broadcast's and segmented reduce's predictions, the communicator's
// sub-cluster and graph plans, and calibration's schedule and fit.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/eager/eager_broadcast.h"
#include "hetcoll/makespan/eager/eager_reduce.h"
#include "hetcoll/registry/graph_registry.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/model/participants.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/mpi/calibrate.h"
#include "hetcoll/mpi/executable_plan.h"
#include "hetcoll/mpi/pipelined_broadcast.h"
#include "hetcoll/mpi/pipelined_reduce.h"
#include "hetcoll/mpi/platform_pipelines.h"
#include "hetcoll/mpi/runtime.h"
#include "hetcoll/plan/plan_program.h"
#include "hetcoll/verify/verify_program.h"

namespace hetcoll::mpi {
namespace {

Cluster random_cluster(std::mt19937& rng, int n) {
  std::uniform_int_distribution<int> cls(1, 4);
  std::vector<double> times;
  for (int i = 0; i < n; ++i) times.push_back(cls(rng) * 0.5);
  return Cluster::from_times(times);
}

TEST(ExecutableStructure, AcceptsEveryRegisteredAlgorithmsPlans) {
  std::mt19937 rng(7);
  int plans = 0;
  for (int trial = 0; trial < 40; ++trial) {
    auto cluster = random_cluster(rng, 2 + trial % 9);
    for (const auto& algorithm : makespan_algorithms()) {
      if (algorithm.operation == Operation::multicast) continue;
      if (algorithm.model != CommunicationModel::sender_speed) continue;
      if (algorithm.name == "ptas" && cluster.size() > 6) continue;
      MakespanRequest request;
      request.operation = algorithm.operation;
      request.root = static_cast<ProcessorIndex>(trial % cluster.size());
      request.limits.node_limit = 20000;
      if (algorithm.name == "ep") {  // EP takes the sender order: every processor but the root
        std::vector<ProcessorIndex> order;
        for (ProcessorIndex p = cluster.size() - 1; p >= 0; --p) {
          if (p != request.root) order.push_back(p);
        }
        request.order = order;
      }
      auto plan = algorithm.run(cluster, request);
      if (is_exchange_allreduce(plan)) {  // recursive doubling: a baseline MPI_Allreduce runs itself
        EXPECT_THROW(check_executable_structure(plan, cluster.size(), algorithm.name), InputError) << algorithm.name;
        continue;
      }
      EXPECT_NO_THROW(check_executable_structure(plan, cluster.size(), algorithm.name)) << algorithm.name;
      ++plans;
    }
  }
  EXPECT_GT(plans, 200);
}

TEST(ExecutableStructure, AcceptsMulticastPlans) {
  MakespanRequest request;
  request.operation = Operation::multicast;
  request.root = 4;
  request.targets = {5, 6, 7};
  auto plan = plan_makespan(Cluster::from_times({1, 1, 1, 1, 8, 8, 8, 8}), request, "");
  EXPECT_NO_THROW(check_executable_structure(plan, 8, "multicast"));
}

MakespanPlan reduce_plan() {
  return plan_for_cluster(Cluster::from_times({1, 1, 2, 2, 3}), Operation::reduce, 0, "snf");
}

TEST(ExecutableStructure, RejectsBrokenReduces) {
  auto twice = reduce_plan();
  auto extra = twice.transfers.back();
  extra.start = extra.end = 1e9;
  twice.transfers.push_back(extra);
  EXPECT_THROW(check_executable_structure(twice, 5, "twice"), InputError);

  auto missing = reduce_plan();
  missing.transfers.pop_back();
  EXPECT_THROW(check_executable_structure(missing, 5, "missing"), InputError);

  auto root_sends = reduce_plan();
  root_sends.transfers.push_back({0, 1, 1e9, 1e9 + 1, Payload::partial_reduction});
  EXPECT_THROW(check_executable_structure(root_sends, 5, "root sends"), InputError);

  auto out_of_range = reduce_plan();
  out_of_range.transfers[0].to = 9;
  EXPECT_THROW(check_executable_structure(out_of_range, 5, "range"), InputError);

  // A processor that sends before it has received what it combines would
  // lose a contribution: rejected.
  auto early = reduce_plan();
  for (auto& t : early.transfers) {
    if (t.to != 0) {
      // find the sender of its receiver and move that send before this one
      for (auto& u : early.transfers) {
        if (u.from == t.to) u.start = t.start - 1;
      }
      break;
    }
  }
  bool has_inner = false;
  for (const auto& t : reduce_plan().transfers) has_inner = has_inner || t.to != 0;
  if (has_inner) {
    EXPECT_THROW(check_executable_structure(early, 5, "early"), InputError);
  }
}

TEST(ExecutableStructure, RejectsBrokenBroadcasts) {
  auto plan = plan_for_cluster(Cluster::from_times({1, 2, 2, 3}), Operation::broadcast, 0, "fnf");
  auto forward_first = plan;
  // Everyone else forwards before receiving: move every non-source send to time -1.
  for (auto& t : forward_first.transfers) {
    if (t.from != 0) t.start = -1;
  }
  bool forwards = false;
  for (const auto& t : plan.transfers) forwards = forwards || t.from != 0;
  if (forwards) {
    EXPECT_THROW(check_executable_structure(forward_first, 4, "forward"), InputError);
  }
  auto missing = plan;
  missing.transfers.pop_back();
  EXPECT_THROW(check_executable_structure(missing, 4, "missing"), InputError);
  auto to_source = plan;
  to_source.transfers.push_back({1, 0, 1e9, 1e9 + 2, Payload::broadcast_value});
  EXPECT_THROW(check_executable_structure(to_source, 4, "source"), InputError);
}

TEST(ExecutableStructure, OrderIsByStartThenPosition) {
  MakespanPlan plan;
  plan.transfers = {{0, 1, 2, 3}, {0, 2, 1, 2}, {1, 3, 2, 4}, {2, 3, 0, 1}};
  EXPECT_EQ(execution_order(plan), (std::vector<std::size_t>{3, 1, 0, 2}));
}

TEST(RankMappingTest, ResolvesEachKind) {
  auto cluster = Cluster(std::vector<std::string>{"a", "b", "c"}, {1, 2, 3});
  auto find = [&](std::string_view text) { return cluster.find(text); };
  EXPECT_EQ(RankMapping::by_order().resolve(3, 3, find, {}, "x"), (std::vector<ProcessorIndex>{0, 1, 2}));
  EXPECT_EQ(RankMapping::parse("c, a,1").resolve(3, 3, find, {}, "x"), (std::vector<ProcessorIndex>{2, 0, 1}));
  EXPECT_EQ(RankMapping::by_processor_name().resolve(2, 3, find, {"b", "c"}, "x"), (std::vector<ProcessorIndex>{1, 2}));
  EXPECT_THROW(RankMapping::parse("a,a,b").resolve(3, 3, find, {}, "x"), InputError);
  EXPECT_THROW(RankMapping::parse("a,zz,b").resolve(3, 3, find, {}, "x"), InputError);
  EXPECT_THROW(RankMapping::parse("a,b").resolve(3, 3, find, {}, "x"), InputError);
  EXPECT_THROW(RankMapping::by_order().resolve(4, 3, find, {}, "x"), InputError);
  EXPECT_THROW(RankMapping::by_processor_name().resolve(2, 3, find, {"b", "b"}, "x"), InputError);
  EXPECT_TRUE(RankMapping::parse("  ").kind() == RankMapping::Kind::by_order);
}

// The InputError's message of `resolve`, or "" when it resolves.
std::string mapping_error(const RankMapping& mapping, const LoadedPlatform& platform, int ranks,
                          const std::vector<std::string>& names = {}) {
  try {
    (void)mapping.resolve_on_platform(platform, ranks, names, "src");
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

// On a platform ranks play hosts only. SimGrid's small_platform.xml has 7
// hosts and links named "0".."9", "145", ...: rank r plays the r-th host,
// "0" is host 0 (an index of a host), a link's id is refused with its kind.
TEST(RankMappingTest, PlaysHostsOfASimGridFile) {
  const auto platform = load_platform_file(std::string(HETCOLL_SOURCE_DIR) + "/examples/small_platform.xml");
  const auto& graph = platform.graph();
  ASSERT_TRUE(graph.find("0") && graph.node(*graph.find("0")).kind == NodeKind::link);
  auto names = [&](const std::vector<ProcessorIndex>& processors) {
    std::vector<std::string> ids;
    for (auto p : processors) ids.push_back(graph.id(p));
    return ids;
  };
  const std::vector<std::string> hosts{"Tremblay", "Jupiter", "Fafard", "Ginette", "Bourassa", "Jacquelin", "Boivin"};
  EXPECT_EQ(names(RankMapping::by_order().resolve_on_platform(platform, 7, {}, "src")), hosts);
  EXPECT_EQ(names(RankMapping::by_order().resolve_on_platform(platform, 3, {}, "src")),
            (std::vector<std::string>{"Tremblay", "Jupiter", "Fafard"}));
  EXPECT_EQ(names(RankMapping::parse("Boivin,0,Fafard").resolve_on_platform(platform, 3, {}, "src")),
            (std::vector<std::string>{"Boivin", "Tremblay", "Fafard"}));
  EXPECT_EQ(names(RankMapping::by_processor_name().resolve_on_platform(platform, 2, {"Ginette", "Jupiter"}, "src")),
            (std::vector<std::string>{"Ginette", "Jupiter"}));
  // "145" is a link (and no index of the 7 hosts).
  EXPECT_EQ(mapping_error(RankMapping::parse("Tremblay,145"), platform, 2),
            "src: rank mapping entry 1 (\"145\"): \"145\" is a network link, not a host; ranks play hosts only "
            "(give host names, or indices of hosts in the file's order 0..6)");
  EXPECT_NE(mapping_error(RankMapping::by_processor_name(), platform, 2, {"Tremblay", "145"}).find("is a network link"),
            std::string::npos);
  EXPECT_NE(mapping_error(RankMapping::parse("Tremblay,nowhere"), platform, 2).find("no such host"), std::string::npos);
  EXPECT_NE(mapping_error(RankMapping::by_order(), platform, 8).find("8 ranks but the platform only 7 hosts"),
            std::string::npos);
  EXPECT_NE(mapping_error(RankMapping::parse("Jupiter,1"), platform, 2).find("both play host Jupiter"),
            std::string::npos);
}

// A JSON graph whose routers come between its hosts: rank r plays the r-th
// host, an index counts hosts, a router's id is refused.
TEST(RankMappingTest, PlaysHostsOfAGraphWithRouters) {
  const auto platform = parse_platform_json(R"({"model": "graph", "nodes": [
      {"id": "a"}, {"id": "sw", "router": true}, {"id": "b"}, {"id": "c"}],
      "edges": [{"from": "a", "to": "sw", "cost": 1}, {"from": "sw", "to": "a", "cost": 1},
                {"from": "b", "to": "sw", "cost": 1}, {"from": "sw", "to": "b", "cost": 1},
                {"from": "c", "to": "sw", "cost": 1}, {"from": "sw", "to": "c", "cost": 1}]})",
                                            "routers.json");
  const auto& graph = platform.graph();
  EXPECT_EQ(RankMapping::by_order().resolve_on_platform(platform, 3, {}, "src"),
            (std::vector<ProcessorIndex>{*graph.find("a"), *graph.find("b"), *graph.find("c")}));
  EXPECT_EQ(RankMapping::parse("2,0").resolve_on_platform(platform, 2, {}, "src"),
            (std::vector<ProcessorIndex>{*graph.find("c"), *graph.find("a")}));
  EXPECT_NE(mapping_error(RankMapping::parse("a,sw"), platform, 2).find("\"sw\" is a router, not a host"),
            std::string::npos);
  EXPECT_NE(mapping_error(RankMapping::by_order(), platform, 4).find("4 ranks but the platform only 3 hosts"),
            std::string::npos);
}


TEST(ExecutableStructure, ReplayWithSenderTimesIsThePlansMakespan) {
  // Every registered broadcast and reduce planner on random clusters: the
  // runtime's one-at-a-time order with cost t(sender) finishes exactly when
  // the plan says (greedy plans start each transfer as early as possible).
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    auto cluster = random_cluster(rng, 2 + trial % 9);
    for (auto operation : {Operation::broadcast, Operation::reduce}) {
      auto plan = plan_for_cluster(cluster, operation, trial % cluster.size(), "");
      double replay = predict_plan_time(plan, 100, [&](ProcessorIndex u, ProcessorIndex, double) {
        return cluster.transmission_time(u);
      });
      EXPECT_LE(replay, plan.makespan * (1 + 1e-12)) << plan.algorithm;
      EXPECT_GE(replay, plan.lower_bound * (1 - 1e-12)) << plan.algorithm;
    }
  }
  // A receiver busy with another message delays the next transfer to it.
  MakespanPlan star;
  star.operation = Operation::reduce;
  star.root = 0;
  star.transfers = {{1, 0, 0, 1, Payload::partial_reduction}, {2, 0, 0, 2, Payload::partial_reduction}};
  double replay = predict_plan_time(star, 1, [](ProcessorIndex u, ProcessorIndex, double) { return u == 1 ? 1.0 : 2.0; });
  EXPECT_DOUBLE_EQ(replay, 3.0);
}

TEST(PipelinedBroadcast, SlicesFollowTheWeights) {
  PipelinedBroadcastPlan plan;
  plan.trees = {{1.0, PipelineTree::chain(0, {1, 2})}, {2.0, PipelineTree::chain(0, {2, 1})},
                {3.0, PipelineTree::binomial(3, 0)}};
  auto tree_of = slice_trees(plan, 600);
  std::vector<int> count(3, 0);
  for (std::size_t j = 0; j < tree_of.size(); ++j) {
    ++count[tree_of[j]];
    // Every prefix is within one slice of its share.
    for (int i = 0; i < 3; ++i) {
      double share = static_cast<double>(j + 1) * plan.trees[static_cast<size_t>(i)].weight / 6.0;
      EXPECT_LE(std::abs(count[static_cast<size_t>(i)] - share), 1.0 + 1e-9);
    }
  }
  EXPECT_EQ(count, (std::vector<int>{100, 200, 300}));
}

TEST(PipelinedBroadcast, BinomialTreeIsMpichs) {
  auto tree = PipelineTree::binomial(8, 0);
  EXPECT_EQ(tree.children[0], (std::vector<ProcessorIndex>{4, 2, 1}));
  EXPECT_EQ(tree.children[4], (std::vector<ProcessorIndex>{6, 5}));
  EXPECT_EQ(tree.children[6], (std::vector<ProcessorIndex>{7}));
  auto rotated = PipelineTree::binomial(5, 3);
  EXPECT_EQ(rotated.children[3], (std::vector<ProcessorIndex>{2, 0, 4}));  // 3+4, 3+2, 3+1 mod 5
  EXPECT_NO_THROW(check_pipelined_plan({{{1.0, rotated}}, 10, "b"}, 5, "x"));
}

TEST(PipelinedBroadcast, PredictionOfAChainIsTheTextbookFormula) {
  // A chain of n nodes, S slices, each hop costs c: (S + n - 2) * c.
  PipelinedBroadcastPlan plan{{{1.0, PipelineTree::chain(0, {1, 2, 3, 4})}}, 100, "chain"};
  auto cost = [](ProcessorIndex, ProcessorIndex, double bytes) { return 0.5 + bytes / 100.0; };
  double predicted = predict_pipelined_broadcast(plan, 1000, 1, cost);  // 10 slices of 100 bytes, 1.5 each
  EXPECT_DOUBLE_EQ(predicted, (10 + 5 - 2) * 1.5);
  // A star: the root sends every slice to 4 children one after the other.
  PipelinedBroadcastPlan star{{{1.0, PipelineTree::from_parents(0, {kNoProcessor, 0, 0, 0, 0})}}, 100, "star"};
  EXPECT_DOUBLE_EQ(predict_pipelined_broadcast(star, 1000, 1, cost), 10 * 4 * 1.5);
}

TEST(PipelinedBroadcast, RejectsTreesThatDoNotSpan) {
  PipelinedBroadcastPlan plan{{{1.0, PipelineTree::from_parents(0, {kNoProcessor, 0, 1, kNoProcessor})}}, 8, "x"};
  EXPECT_THROW(check_pipelined_plan(plan, 4, "x"), InputError);
  PipelinedBroadcastPlan twice{{{1.0, PipelineTree{0, {{1, 2}, {2}, {}}}}}, 8, "x"};
  EXPECT_THROW(check_pipelined_plan(twice, 3, "x"), InputError);
  PipelinedBroadcastPlan zero_weight{{{0.0, PipelineTree::binomial(3, 0)}}, 8, "x"};
  EXPECT_THROW(check_pipelined_plan(zero_weight, 3, "x"), InputError);
}

TEST(RuntimePlanning, SubClusterKeepsTheMappedProcessors) {
  LoadedPlatform platform{Cluster(std::vector<std::string>{"a", "b", "c", "d"}, {1, 2, 3, 4}), "p.json"};
  auto sub = restrict_to_processors(platform, {3, 1}, 100);
  EXPECT_EQ(sub.ids(), (std::vector<std::string>{"d", "b"}));
  EXPECT_EQ(sub.transmission_times(), (std::vector<double>{4, 2}));
  auto graph = load_platform_file(std::string(HETCOLL_SOURCE_DIR) + "/examples/small_platform.xml");
  auto view = restrict_to_processors(graph, {0, 2, 4}, 1e6);
  EXPECT_EQ(view.size(), 3);
  EXPECT_EQ(view.id(1), graph.graph().id(2));
}

#ifdef HETCOLL_WITH_LP
TEST(RuntimePlanning, RankRouteGraphHasEachRoutesLatencyAndBandwidth) {
  // Every host of the SimGrid example with its own route to every other:
  // the edge's time for any size is the platform's route time.
  auto platform = load_platform_file(std::string(HETCOLL_SOURCE_DIR) + "/examples/small_platform.xml").graph();
  std::vector<ProcessorIndex> hosts = platform.participants();
  std::vector<ProcessorIndex> ranks = {hosts[3], hosts[0], hosts[5]};
  auto graph = rank_route_graph(platform, ranks);
  ASSERT_EQ(graph.size(), 3);
  ASSERT_EQ(graph.edges().size(), 6U);
  EXPECT_EQ(graph.id(0), platform.id(hosts[3]));
  auto costs = platform.edge_costs(1.0);
  for (const auto& edge : graph.edges()) {
    auto route = platform.route(ranks[static_cast<size_t>(edge.from)], ranks[static_cast<size_t>(edge.to)], costs);
    ASSERT_TRUE(route);
    for (double bytes : {0.0, 1e3, 4e6}) {
      EXPECT_NEAR(edge.message_time(bytes), platform.route_time(*route, bytes), 1e-12 * (1 + bytes));
    }
  }
  // The pipelined plans bind to the ranks: every rank but the root has one parent.
  std::map<std::string, double> predicted;
  for (std::string method : {"tree", "multi-tree", "auto"}) {
    auto planned = plan_platform_pipeline(platform, ranks, 1, method, 1e6, 4);
    predicted[method] = planned.predicted_seconds;
    if (method == "multi-tree") {
      // Rounds: each tree's weight is its whole number of slices per round.
      for (const auto& weighted : planned.plan.trees) {
        EXPECT_EQ(weighted.weight, std::floor(weighted.weight));
        EXPECT_GE(weighted.weight, 1);
      }
    }
    ASSERT_FALSE(planned.plan.trees.empty()) << method;
    for (const auto& [weight, tree] : planned.plan.trees) {
      EXPECT_EQ(tree.root, 1) << method;
      std::vector<int> parents(3, 0);
      for (const auto& children : tree.children) {
        for (auto child : children) ++parents[static_cast<size_t>(child)];
      }
      EXPECT_EQ(parents, (std::vector<int>{1, 0, 1})) << method;
    }
    EXPECT_GT(planned.predicted_seconds, 0) << method;
  }
  // auto never predicts worse than the single tree it falls back to.
  EXPECT_LE(predicted["auto"], predicted["tree"]);
}
#endif

// Four ranks on hosts 3, 0, 5, 6 of SimGrid's small_platform.xml (a WAN).
struct FourRanksOfSmallPlatform {
  LoadedPlatform loaded = load_platform_file(std::string(HETCOLL_SOURCE_DIR) + "/examples/small_platform.xml");
  std::vector<ProcessorIndex> ranks;
  std::vector<std::string> ids;
  FourRanksOfSmallPlatform() {
    auto hosts = loaded.graph().participants();
    ranks = {hosts[3], hosts[0], hosts[5], hosts[6]};
    for (auto p : ranks) ids.push_back(loaded.graph().id(p));
  }
};

TEST(RuntimePlanning, GraphModelPlansOnTheRanksWithTheGraphPlanners) {
  const FourRanksOfSmallPlatform fixture;
  const LoadedPlatform& loaded = fixture.loaded;
  const Platform& platform = loaded.graph();
  const auto& ranks = fixture.ranks;
  const auto& ids = fixture.ids;
  for (auto operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
    int root = operation == Operation::allreduce ? -1 : 1;
    auto plan = plan_for_ranks(loaded, ranks, operation, root, 16384, "", PlanModel::platform_graph);
    EXPECT_EQ(plan.model, PlanModel::platform_graph);
    if (root >= 0) {
      EXPECT_EQ(plan.root, root);
    }
    EXPECT_NO_THROW(check_executable_structure(plan, 4, "graph plan"));
    // The same transfers as the graph planners' plan on the platform with
    // those hosts taking part, node indices turned into ranks.
    const Platform participating = with_participants(platform, ids);
    GraphNetwork network(participating, 16384.0);
    MakespanRequest request;
    request.operation = operation;
    if (root >= 0) request.root = ranks[static_cast<size_t>(root)];
    auto direct = plan_graph_makespan(network, request);
    EXPECT_EQ(plan.makespan, direct.makespan);
    ASSERT_EQ(plan.transfers.size(), direct.transfers.size());
    for (size_t i = 0; i < plan.transfers.size(); ++i) {
      EXPECT_EQ(ids[static_cast<size_t>(plan.transfers[i].from)], platform.id(direct.transfers[i].from));
      EXPECT_EQ(ids[static_cast<size_t>(plan.transfers[i].to)], platform.id(direct.transfers[i].to));
      EXPECT_EQ(plan.transfers[i].start, direct.transfers[i].start);
      EXPECT_TRUE(plan.transfers[i].route.empty());
    }
  }
  // A sender-speed cluster has no graph to plan on.
  LoadedPlatform cluster{Cluster::from_times({1, 2}), "c.json"};
  EXPECT_THROW(plan_for_ranks(cluster, {0, 1}, Operation::broadcast, 0, 8, "", PlanModel::platform_graph), InputError);
  EXPECT_THROW(parse_plan_model("network", "--plan-model"), InputError);
}

TEST(RuntimePlanning, EagerModelPlansBroadcastsAndReducesOnTheRanks) {
  const FourRanksOfSmallPlatform fixture;
  const LoadedPlatform& loaded = fixture.loaded;
  const Platform& platform = loaded.graph();
  const auto& ranks = fixture.ranks;
  const auto& ids = fixture.ids;
  auto plan = plan_for_ranks(loaded, ranks, Operation::broadcast, 1, 4096, "", PlanModel::eager);
  EXPECT_EQ(plan.model, PlanModel::eager);
  EXPECT_EQ(plan.root, 1);
  EXPECT_EQ(plan.algorithm, "eager-auto");
  EXPECT_NO_THROW(check_executable_structure(plan, 4, "eager plan"));
  const Platform participating = with_participants(platform, ids);
  GraphNetwork network(participating, 4096.0);
  auto direct = plan_eager_broadcast(network, ranks[1]);
  EXPECT_EQ(plan.makespan, direct.makespan);
  ASSERT_EQ(plan.transfers.size(), direct.transfers.size());
  for (size_t i = 0; i < plan.transfers.size(); ++i) {
    EXPECT_EQ(ids[static_cast<size_t>(plan.transfers[i].from)], platform.id(direct.transfers[i].from));
    EXPECT_EQ(plan.transfers[i].start, direct.transfers[i].start);
  }
  EXPECT_EQ(plan_for_ranks(loaded, ranks, Operation::broadcast, 0, 4096, "flat", PlanModel::eager).algorithm,
            "eager-flat");
  EXPECT_THROW(plan_for_ranks(loaded, ranks, Operation::broadcast, 0, 4096, "fnf", PlanModel::eager), InputError);
  // A reduce: the eager reduce planner's plan on the ranks, executable,
  // each rank's one send paced to its planned start (from the call), each
  // receive carrying its planned arrival (the combine order).
  auto reduce = plan_for_ranks(loaded, ranks, Operation::reduce, 2, 4096, "", PlanModel::eager);
  EXPECT_EQ(reduce.model, PlanModel::eager);
  EXPECT_EQ(reduce.operation, Operation::reduce);
  EXPECT_EQ(reduce.root, 2);
  EXPECT_NO_THROW(check_executable_structure(reduce, 4, "eager reduce plan"));
  auto direct_reduce = plan_eager_reduce(network, ranks[2]);
  EXPECT_EQ(reduce.makespan, direct_reduce.makespan);
  ASSERT_EQ(reduce.transfers.size(), 3u);
  for (size_t i = 0; i < reduce.transfers.size(); ++i) {
    EXPECT_EQ(ids[static_cast<size_t>(reduce.transfers[i].from)], platform.id(direct_reduce.transfers[i].from));
    EXPECT_EQ(reduce.transfers[i].start, direct_reduce.transfers[i].start);
  }
  EXPECT_THROW(plan_for_ranks(loaded, ranks, Operation::allreduce, -1, 4096, "", PlanModel::eager), InputError);
  EXPECT_THROW(plan_for_ranks(loaded, ranks, Operation::multicast, 0, 4096, "", PlanModel::eager), InputError);
  LoadedPlatform cluster{Cluster::from_times({1, 2}), "c.json"};
  EXPECT_THROW(plan_for_ranks(cluster, {0, 1}, Operation::broadcast, 0, 8, "", PlanModel::eager), InputError);
  EXPECT_EQ(parse_plan_model("eager", "--plan-model"), PlanModel::eager);
}

TEST(Calibration, RoundsMeetEveryPairOnceAndKeepRanksBusyOnce) {
  for (int n = 2; n <= 17; ++n) {
    auto rounds = calibration_rounds(n);
    EXPECT_EQ(static_cast<int>(rounds.size()), n % 2 ? n : n - 1) << n;
    std::set<std::pair<int, int>> seen;
    for (const auto& round : rounds) {
      std::set<int> busy;
      for (auto [u, v] : round) {
        EXPECT_LT(u, v);
        EXPECT_TRUE(busy.insert(u).second && busy.insert(v).second) << "rank twice in a round, n = " << n;
        EXPECT_TRUE(seen.insert({u, v}).second) << "pair twice, n = " << n;
      }
    }
    EXPECT_EQ(static_cast<int>(seen.size()), n * (n - 1) / 2);
  }
}

TEST(Calibration, FitRecoversAffineTimesExactly) {
  // Per-host latency l and bandwidth b: L_uv = l_u + l_v, B_uv = min(b_u, b_v).
  std::vector<double> l{1e-4, 2e-4, 5e-5}, b{1e8, 2.5e7, 5e7};
  std::vector<double> sizes{1000, 1e6};
  size_t n = l.size();
  std::vector<std::vector<std::vector<double>>> round_trip(2, std::vector<std::vector<double>>(n, std::vector<double>(n, 0)));
  for (size_t s = 0; s < 2; ++s) {
    for (size_t u = 0; u < n; ++u) {
      for (size_t v = 0; v < n; ++v) {
        if (u != v) round_trip[s][u][v] = 2 * (l[u] + l[v]) + sizes[s] / std::min(b[u], b[v]);
      }
    }
  }
  std::vector<std::vector<double>> latency, inverse_bandwidth;
  auto warnings = fit_affine_times(sizes, round_trip, {"a", "b", "c"}, latency, inverse_bandwidth);
  EXPECT_TRUE(warnings.empty());
  for (size_t u = 0; u < n; ++u) {
    for (size_t v = 0; v < n; ++v) {
      if (u == v) continue;
      EXPECT_NEAR(latency[u][v], l[u] + l[v], 1e-15);
      EXPECT_NEAR(1 / inverse_bandwidth[u][v], std::min(b[u], b[v]), 1e-3);
    }
  }
  // Noise that makes the larger message look faster is clamped with a warning.
  round_trip[1][0][1] = round_trip[0][0][1] / 2;
  warnings = fit_affine_times(sizes, round_trip, {"a", "b", "c"}, latency, inverse_bandwidth);
  EXPECT_FALSE(warnings.empty());
  EXPECT_GT(inverse_bandwidth[0][1], 0);
}


TEST(PipelinedReduce, ChainPredictionIsTheTextbookFormula) {
  // n ranks in a chain towards the root, S segments of cost c each:
  // (S + n - 2) c, the pipeline's fill then one segment per c.
  auto chain = PipelineTree::chain(0, {1, 2, 3});
  TransferCost cost = [](ProcessorIndex, ProcessorIndex, double bytes) { return bytes / 100.0; };
  PipelinedReducePlan plan{chain, 100, "chain"};
  EXPECT_DOUBLE_EQ(predict_pipelined_reduce(plan, 500, 1, cost), (5 + 4 - 2) * 1.0);
  // One segment: the whole vector hop by hop.
  plan.segment_bytes = 500;
  EXPECT_DOUBLE_EQ(predict_pipelined_reduce(plan, 500, 1, cost), 3 * 5.0);
}

TEST(PipelinedReduce, OneSegmentAlongThePlansTreeIsThePlansReplay) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 30; ++trial) {
    auto cluster = random_cluster(rng, 3 + trial % 6);
    auto root = static_cast<ProcessorIndex>(trial % cluster.size());
    auto plan = plan_for_cluster(cluster, Operation::reduce, root, trial % 2 ? "snf" : "");
    TransferCost cost = [&](ProcessorIndex u, ProcessorIndex, double) { return cluster.transmission_time(u); };
    auto tree = reduce_tree_from_plan(plan, cluster.size());
    EXPECT_EQ(tree.root, root);
    auto parents = tree.parents();
    for (const auto& transfer : plan.transfers) EXPECT_EQ(parents[static_cast<size_t>(transfer.from)], transfer.to);
    PipelinedReducePlan whole{tree, 4096, "plan"};
    EXPECT_DOUBLE_EQ(predict_pipelined_reduce(whole, 4096, 4, cost), predict_plan_time(plan, 4096, cost));
    // The segment search includes the whole vector, so it is never worse.
    auto best = best_segment_size(tree, 4096, 4, cost);
    EXPECT_LE(best.predicted_seconds, predict_pipelined_reduce(whole, 4096, 4, cost));
  }
}

TEST(PipelinedReduce, SegmentingPaysOnAChainWithLatencyAndBandwidth) {
  // Eight ranks, the 8-host cluster's costs (x1 and x1.6 of 50 us + S / 12.5 MB/s):
  // a chain cut into segments beats the same chain with the whole vector.
  std::vector<double> factor = {1, 1, 1, 1, 1.6, 1.6, 1.6, 1.6};
  TransferCost cost = [&](ProcessorIndex u, ProcessorIndex, double bytes) {
    return factor[static_cast<size_t>(u)] * (5e-5 + bytes / 1.25e7);
  };
  auto chain = PipelineTree::chain(0, {1, 2, 3, 4, 5, 6, 7});
  auto choice = choose_segmented_reduce({{"chain", chain}, {"binomial", PipelineTree::binomial(8, 0)}}, 262144, 4, cost);
  EXPECT_EQ(choice.plan.algorithm, "chain");
  PipelinedReducePlan whole{chain, 262144, "chain"};
  EXPECT_LT(choice.predicted_seconds, 0.5 * predict_pipelined_reduce(whole, 262144, 4, cost));
  EXPECT_LT(choice.plan.segment_bytes, 262144U);
}

// The pipelined and segmented plans as communication programs (what the
// program executor runs): they compute the collective for single trees and
// weighted families, every send mode, counts that leave a short last
// slice, and one slice.
TEST(PipelinedPrograms, BroadcastsComputeTheirCollective) {
  const int n = 7;
  for (int root : {0, 3, 6}) {
    std::vector<ProcessorIndex> order;
    for (int p = 0; p < n; ++p) {
      if (p != root) order.push_back(p);
    }
    std::vector<ProcessorIndex> reversed(order.rbegin(), order.rend());
    std::vector<PipelinedBroadcastPlan> plans = {
        {{{1.0, PipelineTree::binomial(n, root)}}, 12, "binomial"},
        {{{1.0, PipelineTree::chain(root, order)}}, 4, "chain"},
        {{{1.0, PipelineTree::binomial(n, root)}, {2.0, PipelineTree::chain(root, order)},
          {3.0, PipelineTree::chain(root, reversed)}},
         8,
         "multi-tree"}};
    for (const auto& plan : plans) {
      for (auto sends : {PlanLowering::Sends::one_port, PlanLowering::Sends::standard,
                         PlanLowering::Sends::synchronous}) {
        for (std::size_t count : {std::size_t{1}, std::size_t{7}, std::size_t{40}}) {
          const auto program = program_of_pipelined_broadcast(plan, count, 4, sends);
          const auto report = verify_program(program, Operation::broadcast, root, count);
          EXPECT_TRUE(report.valid) << plan.algorithm << " root " << root << " count " << count << ": "
                                    << report.summary();
          std::size_t slices = (count * 4 + plan.slice_bytes - 1) / plan.slice_bytes;
          EXPECT_EQ(program.message_count(), slices * static_cast<std::size_t>(n - 1)) << plan.algorithm;
        }
      }
    }
  }
}

TEST(PipelinedPrograms, SegmentedReducesComputeTheirCollective) {
  const int n = 6;
  auto cluster = Cluster::from_times({1, 1, 1, 1.6, 1.6, 1.6});
  for (int root : {0, n - 1}) {
    std::vector<ProcessorIndex> order;
    for (int p = 0; p < n; ++p) {
      if (p != root) order.push_back(p);
    }
    std::vector<PipelinedReducePlan> plans = {
        {PipelineTree::binomial(n, root), 12, "binomial"},
        {PipelineTree::chain(root, order), 400, "chain"},
        {reduce_tree_from_plan(plan_for_cluster(cluster, Operation::reduce, root, "snf"), n), 1 << 20, "snf"}};
    for (const auto& plan : plans) {
      for (std::size_t count : {std::size_t{1}, std::size_t{10}, std::size_t{333}}) {
        const auto program = program_of_pipelined_reduce(as_pipeline(plan), count, 4);
        EXPECT_FALSE(program.rank_order);  // commutative operations only
        const auto report = verify_program(program, Operation::reduce, root, count);
        EXPECT_TRUE(report.valid) << plan.algorithm << " root " << root << " count " << count << ": "
                                  << report.summary();
      }
    }
  }
  // One tree only.
  PipelinedBroadcastPlan two{{{1.0, PipelineTree::binomial(4, 0)}, {1.0, PipelineTree::binomial(4, 0)}}, 8, "two"};
  EXPECT_THROW(program_of_pipelined_reduce(two, 10, 4), InputError);
}

}  // namespace
}  // namespace hetcoll::mpi
