// The one registry (registry/registry.h): every row of every family runs on
// seeded random instances of its model through the generic entry point
// (run_plan), and every plan it returns passes the verifier of its family;
// claims of optimality carry a bound equal to the makespan. A row of a model
// this test cannot build an instance for fails the test, so a new family
// cannot join the registry unchecked.
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <string>
#include <variant>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/model/nic_network.h"
#include "hetcoll/model/split_costs.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/verify/verify.h"
#include "hetcoll/verify/verify_split_reduce.h"
#include "hetcoll/verify/verify_split_allreduce_nic.h"
#include "support/test_support.h"
#if HETCOLL_WITH_LP
#include "hetcoll/verify/verify_periodic.h"
#include "hetcoll/verify/verify_tree.h"
#endif

namespace hetcoll {
namespace {

constexpr double kMessageBytes = 65536;

// A complete graph of `hosts` hosts, host h with its own latency and
// bandwidth (a NIC cluster): u -> v takes L_u + L_v and min(B_u, B_v).
Platform nic_cluster(std::mt19937_64& rng, int hosts) {
  std::uniform_real_distribution<double> latency(1e-6, 50e-6), bandwidth(1e8, 1.25e9);
  std::vector<double> l(static_cast<std::size_t>(hosts)), b(l.size());
  std::vector<PlatformNode> nodes;
  for (int h = 0; h < hosts; ++h) {
    l[static_cast<std::size_t>(h)] = latency(rng);
    b[static_cast<std::size_t>(h)] = bandwidth(rng);
    nodes.push_back(PlatformNode::host(fmt::format("h{}", h)));
  }
  std::vector<PlatformEdge> edges;
  for (int u = 0; u < hosts; ++u) {
    for (int v = 0; v < hosts; ++v) {
      if (u == v) continue;
      PlatformEdge edge;
      edge.from = u;
      edge.to = v;
      edge.latency = l[static_cast<std::size_t>(u)] + l[static_cast<std::size_t>(v)];
      edge.bandwidth = std::min(b[static_cast<std::size_t>(u)], b[static_cast<std::size_t>(v)]);
      edges.push_back(edge);
    }
  }
  return Platform(std::move(nodes), std::move(edges), "nic-cluster");
}

// The request for `row` on an instance of `processors` processors: the root
// and, for multicast, a target set drawn from `rng`.
PlannerRequest request_for(const PlannerEntry& row, ProcessorIndex processors, std::mt19937_64& rng) {
  PlannerRequest request;
  const Operation operation = row.operation == Operation::scatter || row.operation == Operation::gossip
                                  ? Operation::broadcast
                                  : row.operation;
  request.makespan = testing::random_request(operation, processors, rng);
  request.makespan.operation = row.operation;
  request.makespan.limits.time_limit_seconds = 5;
  if (row.model != CommunicationModel::sender_speed) {
    request.message_size = kMessageBytes;
    request.slice_size = kMessageBytes / 8;
    request.element_bytes = 8;
  }
  return request;
}

// Checks `plan` with the verifier of its family; returns the failure or "".
std::string check(const PlannerEntry& row, const PlannerProblem& problem, const PlannerRequest& request,
                  const PlanVariant& plan) {
  if (const auto* makespan = std::get_if<MakespanPlan>(&plan)) {
    VerifyReport report = problem.cluster ? verify(*problem.cluster, *makespan)
                                          : verify(GraphNetwork(*problem.platform, request.message_size), *makespan);
    if (!report.valid) return report.summary();
    if (makespan->optimal && std::abs(makespan->lower_bound - makespan->makespan) >
                                 1e-9 * std::max(1.0, std::abs(makespan->makespan))) {
      return "optimal claimed with a bound below the makespan";
    }
    if (makespan->operation != row.operation) return "the plan is for another operation";
    return "";
  }
  if (const auto* split = std::get_if<SplitBroadcastPlan>(&plan)) {
    auto report = verify_split_broadcast(SplitCosts::of(*problem.platform, problem.platform->participants()), *split);
    return report.valid ? "" : report.summary();
  }
  if (const auto* split = std::get_if<SplitAllreducePlan>(&plan)) {
    auto report = split->model == SplitAllreducePlan::Model::nic_fluid
                      ? verify_split_allreduce_nic(nic_network_from_platform(*problem.platform), *split)
                      : verify_split_allreduce(SplitCosts::of(*problem.platform, problem.platform->participants()), *split);
    if (!report.valid) return report.summary();
    if (split->members != problem.platform->participants()) return "the members are not the participants";
    return "";
  }
  if (const auto* split = std::get_if<SplitReducePlan>(&plan)) {
    auto report = verify_split_reduce(nic_network_from_platform(*problem.platform), *split);
    return report.valid ? "" : report.summary();
  }
#if HETCOLL_WITH_LP
  if (const auto* periodic = std::get_if<PeriodicPlan>(&plan)) {
    auto report = verify_periodic_plan(*problem.platform, *periodic);
    if (!report.valid) return report.summary();
    if (periodic->optimal() && !report.certificate_checked) return "optimal claimed without a checked certificate";
    return "";
  }
  if (const auto* tree = std::get_if<PipelinedTreePlan>(&plan)) {
    const auto costs = make_tree_costs(*problem.platform, tree->slice_size, tree->port_model);
    auto report = verify_broadcast_tree(*problem.platform, tree->tree, costs, tree->evaluation.period);
    return report.valid ? "" : report.summary();
  }
#endif
  return "a plan type this test does not know";
}

TEST(PlannerRegistry, EveryRowPlansVerifiedOnRandomInstances) {
  std::map<std::string, int> checked;
  for (const auto& row : planners()) {
    const std::string name = fmt::format("{} {} {}", to_string(row.model), to_string(row.operation), row.name);
    SCOPED_TRACE(name);
    ASSERT_TRUE(static_cast<bool>(row.run_plan)) << "every row has the generic entry point";
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      std::mt19937_64 rng(seed * 7919 + std::hash<std::string>{}(name) % 1000);
      Cluster cluster = testing::random_cluster(rng, 6);
      Platform platform = nic_cluster(rng, 5);
      PlannerProblem problem;
      ProcessorIndex processors = 0;
      switch (row.model) {
        case CommunicationModel::sender_speed:
          problem.cluster = &cluster;
          processors = cluster.size();
          break;
        case CommunicationModel::platform_graph:
        case CommunicationModel::eager:
        case CommunicationModel::split:
        case CommunicationModel::fluid:
        case CommunicationModel::steady_state:
        case CommunicationModel::pipelined:
          problem.platform = &platform;
          processors = platform.size();
          break;
      }
      ASSERT_GT(processors, 0) << "no instance for the model " << to_string(row.model);
      PlannerRequest request = request_for(row, processors, rng);
      PlanVariant plan = run_planner(row, problem, request);
      // Every family answers in the one header: the row's operation and model
      // (a selector may pick a plan of a neighbouring model: graph or eager).
      EXPECT_EQ(plan_header(plan).operation, row.operation) << "seed " << seed;
      if (!row.is_selector) EXPECT_EQ(plan_header(plan).model, row.model) << "seed " << seed;
      EXPECT_FALSE(plan_header(plan).algorithm.empty()) << "seed " << seed;
      const std::string failure = check(row, problem, request, plan);
      EXPECT_EQ(failure, "") << "seed " << seed;
      ++checked[to_string(row.model)];
    }
  }
  // Every family of the layout is in the one table.
  for (const char* model : {"sender-speed", "graph", "eager", "split", "fluid"}) {
    EXPECT_GT(checked[model], 0) << model << " has no row";
  }
#if HETCOLL_WITH_LP
  for (const char* model : {"steady-state", "pipelined"}) EXPECT_GT(checked[model], 0) << model << " has no row";
#endif
}

TEST(PlannerRegistry, NamesAreUniquePerOperationAndModelWithOneDefault) {
  std::set<std::tuple<int, int, std::string>> seen;
  std::map<std::pair<int, int>, int> defaults;
  for (const auto& row : planners()) {
    EXPECT_TRUE(seen.insert({static_cast<int>(row.operation), static_cast<int>(row.model), row.name}).second)
        << row.name << " registered twice";
    if (row.is_default) ++defaults[{static_cast<int>(row.operation), static_cast<int>(row.model)}];
    EXPECT_FALSE(row.guarantee.text.empty()) << row.name;
    EXPECT_FALSE(row.reference.empty()) << row.name;
    EXPECT_FALSE(row.complexity.empty()) << row.name;
    EXPECT_EQ(find_planner(row.operation, row.model, row.name), &row);
  }
  for (const auto& [key, count] : defaults) EXPECT_EQ(count, 1);
  for (const auto& row : planners()) {
    EXPECT_NE(default_planner(row.operation, row.model), nullptr)
        << to_string(row.model) << " " << to_string(row.operation) << " has no default";
  }
}

TEST(PlannerRegistry, TheTypedViewsAreSlicesOfTheOneTable) {
  std::size_t sender_speed = 0, graph_broadcast = 0;
  for (const auto& row : planners()) {
    sender_speed += row.model == CommunicationModel::sender_speed;
    graph_broadcast += row.model == CommunicationModel::platform_graph && row.operation == Operation::broadcast;
  }
  EXPECT_EQ(makespan_algorithms().size(), sender_speed);
  for (const auto& row : makespan_algorithms()) {
    const PlannerEntry* same = find_planner(row.operation, row.model, row.name);
    ASSERT_NE(same, nullptr);
    EXPECT_EQ(same->summary, row.summary);
  }
}

TEST(PlannerRegistry, RowsWithoutWhatTheirModelNeedAreRefused) {
  const PlannerEntry* fnf = find_planner(Operation::broadcast, CommunicationModel::sender_speed, "fnf");
  ASSERT_NE(fnf, nullptr);
  EXPECT_THROW(run_planner(*fnf, PlannerProblem{}, PlannerRequest{}), InputError);
  const PlannerEntry* split = find_planner(Operation::broadcast, CommunicationModel::split, "split");
  ASSERT_NE(split, nullptr);
  EXPECT_THROW(run_planner(*split, PlannerProblem{}, PlannerRequest{}), InputError);
}

}  // namespace
}  // namespace hetcoll
