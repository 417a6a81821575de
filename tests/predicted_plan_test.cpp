// The command line's default plan on platforms with latencies and
// bandwidths (registry/predicted_plan.h, the graph row "predicted"), MPI's
// binomial tree as a graph planner (makespan/graph/binomial_tree.h) and the
// eager model's k-nomial trees (makespan/eager/eager_broadcast.h): the
// shapes are MPI's (parents computed here from the definition), the chosen
// candidate is the fastest of the flow model's predictions, and it is the
// program the benchmark runs by the name hetcoll:predicted (registry/default_plan.h).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hetcoll/makespan/eager/eager_broadcast.h"
#include "hetcoll/makespan/eager/eager_reduce.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/registry/default_plan.h"
#include "hetcoll/registry/graph_registry.h"
#include "hetcoll/registry/predicted_plan.h"
#include "hetcoll/registry/program_chooser.h"
#include "hetcoll/verify/verify.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

LoadedPlatform backbone() {
  return load_platform_file(testing::source_path("tests/data/simgrid/cluster_backbone.xml"));
}

// MPI's k-nomial parent of relative rank r (r > 0), straight from the
// definition: clear r's lowest nonzero base-k digit.
std::size_t knomial_parent(std::size_t relative, std::size_t radix) {
  std::size_t place = 1;
  while ((relative / place) % radix == 0) place *= radix;
  return relative - ((relative / place) % radix) * place;
}

// parent (as a participant position) of every participant of a plan.
std::vector<std::size_t> parent_positions(const GraphNetwork& network, const MakespanPlan& plan) {
  const auto& members = network.participants();
  auto position = [&](ProcessorIndex node) {
    return static_cast<std::size_t>(std::find(members.begin(), members.end(), node) - members.begin());
  };
  std::vector<std::size_t> parent(members.size(), members.size());
  for (const auto& t : plan.transfers) {
    // A reduce's transfers go child -> parent.
    if (plan.operation == Operation::reduce) {
      parent[position(t.from)] = position(t.to);
    } else {
      parent[position(t.to)] = position(t.from);
    }
  }
  return parent;
}

void expect_knomial(const GraphNetwork& network, const MakespanPlan& plan, std::size_t source, std::size_t radix) {
  const auto parent = parent_positions(network, plan);
  const std::size_t k = parent.size();
  for (std::size_t relative = 1; relative < k; ++relative) {
    const std::size_t member = (relative + source) % k;
    EXPECT_EQ(parent[member], (knomial_parent(relative, radix) + source) % k)
        << plan.algorithm << ": relative rank " << relative << " of " << k;
  }
}

TEST(PredictedPlan, BinomialGraphPlannerBuildsMpisTreeAndVerifies) {
  const auto loaded = backbone();
  for (Operation operation : {Operation::broadcast, Operation::reduce}) {
    for (std::size_t source : {0u, 7u, 99u}) {
      const GraphNetwork network(loaded.graph(), 16384.0);
      MakespanRequest request;
      request.operation = operation;
      request.root = network.participants()[source];
      const auto plan = plan_graph_makespan(network, request, "binomial");
      EXPECT_TRUE(verify(network, plan).valid) << verify(network, plan).summary();
      expect_knomial(network, plan, source, 2);
    }
  }
}

TEST(PredictedPlan, EagerKnomialTreesAreMpis) {
  const auto loaded = backbone();
  const GraphNetwork network(loaded.graph(), 64.0);
  for (auto [heuristic, radix] : {std::pair{EagerHeuristic::binomial, 2u}, std::pair{EagerHeuristic::knomial4, 4u}}) {
    for (std::size_t source : {0u, 33u}) {
      const ProcessorIndex root = network.participants()[source];
      const auto broadcast = plan_eager_broadcast(network, root, heuristic);
      EXPECT_TRUE(verify(network, broadcast).valid) << verify(network, broadcast).summary();
      expect_knomial(network, broadcast, source, radix);
      const auto reduce = plan_eager_reduce(network, root, heuristic);
      EXPECT_TRUE(verify(network, reduce).valid) << verify(network, reduce).summary();
      expect_knomial(network, reduce, source, radix);
    }
  }
}

// The issue this default settles: on the backbone cluster the one-port
// graph model sees the shared backbone as one port and plans a flat tree;
// the default must take the candidate the flow model predicts fastest.
TEST(PredictedPlan, ChoosesTheFastestPredictionNotTheOnePortFlatTree) {
  const auto loaded = backbone();
  for (double bytes : {4.0, 16384.0, 1048576.0}) {
    const GraphNetwork network(loaded.graph(), bytes);
    for (Operation operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
      MakespanRequest request;
      request.operation = operation;
      const auto predicted = plan_by_flow_prediction(network, request);
      ASSERT_FALSE(predicted.candidates.empty());
      const double fastest = predicted.candidates.front().predicted_seconds;
      for (const auto& candidate : predicted.candidates) {
        EXPECT_LE(fastest, candidate.predicted_seconds) << candidate.name;
      }
      double binomial = 0, one_port_auto = 0;
      for (const auto& candidate : predicted.candidates) {
        if (candidate.name == "binomial") binomial = candidate.predicted_seconds;
        if (candidate.name == "auto") one_port_auto = candidate.predicted_seconds;
      }
      ASSERT_GT(binomial, 0);
      EXPECT_LE(fastest, binomial);
      if (bytes >= 16384) {
        EXPECT_LT(fastest, one_port_auto / 5) << "the one-port plan is the slow flat tree at " << bytes << " bytes";
      }
      EXPECT_TRUE(verify(network, predicted.plan).valid) << verify(network, predicted.plan).summary();
      ASSERT_GE(predicted.plan.notes.size(), 2u);
      EXPECT_NE(predicted.plan.notes[0].find("chosen, predicted"), std::string::npos) << predicted.plan.notes[0];
      EXPECT_NE(predicted.plan.notes[1].find("not a bound"), std::string::npos) << predicted.plan.notes[1];
      // The benchmark runs the same plan by the chooser's name
      // hetcoll:predicted (ranks = the hosts in file order): same prediction.
      std::vector<ProcessorIndex> ranks = network.participants();
      CallShape call;
      call.operation = operation;
      call.count = static_cast<std::size_t>(bytes);
      call.element_bytes = 1;
      // (registry/default_plan.h: the whole-message plan, or a program
      // predicted faster by more than 2 %, which then is the default.)
      const auto via_chooser = default_plan_program(loaded, ranks, call);
      const double chosen = via_chooser.name.starts_with("predicted") ? fastest : plan_default(network, request).predicted_seconds;
      EXPECT_NEAR(via_chooser.predicted_seconds, chosen, 1e-9 * chosen) << to_string(operation) << " " << bytes;
      if (bytes < 16384 && operation != Operation::allreduce) {
        EXPECT_NEAR(via_chooser.predicted_seconds, fastest, 1e-9 * fastest) << to_string(operation);  // small: a tree
      }
    }
  }
}

// When one of MPI's algorithms is predicted faster than every whole-message
// plan (a 1 MiB broadcast on the backbone: scatter + all-gather), a note
// says which and by how much, checked against the chooser's own
// prediction of that algorithm; where the plan holds (4 bytes), no note.
TEST(PredictedPlan, SaysWhenAnMpiAlgorithmIsPredictedFaster) {
  const auto loaded = backbone();
  for (double bytes : {4.0, 1048576.0}) {
    const GraphNetwork network(loaded.graph(), bytes);
    MakespanRequest request;
    request.operation = Operation::broadcast;
    const auto predicted = plan_by_flow_prediction(network, request);
    std::string note;
    for (const auto& n : predicted.plan.notes) {
      if (n.find("algorithm (as SimGrid SMPI implements it) is predicted") != std::string::npos) note = n;
    }
    if (bytes < 16) {
      EXPECT_TRUE(note.empty()) << note;
      continue;
    }
    ASSERT_FALSE(note.empty());
    const auto name = note.substr(note.find("MPI's ") + 6, note.find(" algorithm") - note.find("MPI's ") - 6);
    std::vector<ProcessorIndex> ranks = network.participants();
    const FlowNetwork flow(loaded.graph(), ranks);
    CallShape call;
    call.operation = Operation::broadcast;
    call.count = static_cast<std::size_t>(bytes);
    call.element_bytes = 1;
    sim::FlowModelOptions options;
    options.envelope_bytes = sim::kSmpiEnvelopeBytes;
    const double mpi = predict_candidate(loaded, ranks, flow, call, "mpi:" + name, options);
    EXPECT_LT(mpi * 1.02, predicted.candidates.front().predicted_seconds) << note;
    EXPECT_NE(note.find(fmt::format("({:.6g} s)", mpi)), std::string::npos) << note;
  }
}

TEST(PredictedPlan, FallsBackToAutoWithoutMessageSizeOrForMulticast) {
  const auto loaded = backbone();
  const GraphNetwork network(loaded.graph(), 1000.0);
  MakespanRequest request;
  request.operation = Operation::multicast;
  request.root = network.participants()[0];
  request.targets = {network.participants()[3], network.participants()[5]};
  const auto predicted = plan_by_flow_prediction(network, request);
  EXPECT_TRUE(predicted.candidates.empty());
  EXPECT_EQ(predicted.plan.algorithm, "auto");
  EXPECT_NE(predicted.plan.notes.back().find("multicasts are not predicted"), std::string::npos);
}

}  // namespace
}  // namespace hetcoll
