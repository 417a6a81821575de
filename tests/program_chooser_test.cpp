// The chooser (registry/program_chooser.h): every candidate predicted by the
// flow model, the library's default kept unless beaten by the margin, and
// every program it can pick computes the collective (verify/verify_program.h).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <string>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"
#include "hetcoll/makespan/split/split_reduce.h"
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/plan/program_bytes.h"
#include "hetcoll/plan/split_program.h"
#include "hetcoll/registry/plans_on_ranks.h"
#include "hetcoll/registry/program_chooser.h"
#include "hetcoll/sim/program_simulation.h"
#include "hetcoll/verify/verify_program.h"
#include "support/nic_cluster.h"

namespace hetcoll {
namespace {

using testing::nic_cluster;

std::vector<ProcessorIndex> hosts_of(const LoadedPlatform& platform) { return platform.graph().participants(); }

CallShape call_of(Operation operation, std::size_t count, int root = 0) {
  CallShape call;
  call.operation = operation;
  call.root = root;
  call.count = count;
  call.element_bytes = 4;
  return call;
}

TEST(ProgramChooser, AppliesToLatencyBandwidthGraphsOnly) {
  EXPECT_TRUE(chooser_applies(nic_cluster(4, {100}, 20)));
  const LoadedPlatform cluster(Cluster({"a", "b"}, {1.0, 2.0}, "c.json"), "c.json");
  EXPECT_FALSE(chooser_applies(cluster));
  EXPECT_THROW(choose_program(cluster, {0, 1}, call_of(Operation::broadcast, 4)), InputError);
}

TEST(ProgramChooser, EveryCandidateIsPredictedAndTheRuleHolds) {
  const auto platform = nic_cluster(8, {100, 100, 25, 12.5}, 20);
  const auto members = hosts_of(platform);
  for (auto operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
    for (std::size_t count : {1u, 256u, 65536u, 1u << 20}) {
      const auto choice = choose_program(platform, members, call_of(operation, count, 3));
      SCOPED_TRACE(fmt::format("{} of {} elements: {}", to_string(operation), count, choice.reason));
      ASSERT_GE(choice.candidates.size(), 3u);
      for (std::size_t i = 1; i < choice.candidates.size(); ++i) {
        EXPECT_LE(choice.candidates[i - 1].predicted_seconds, choice.candidates[i].predicted_seconds);
      }
      EXPECT_TRUE(std::isfinite(choice.default_seconds));
      const double fastest = choice.candidates.front().predicted_seconds;
      if (choice.runs_library_default()) {
        EXPECT_LE(choice.default_seconds, fastest * 1.02 * (1 + 1e-12));
        EXPECT_EQ(choice.program, nullptr);
      } else {
        EXPECT_EQ(choice.chosen_seconds, fastest);
        EXPECT_LT(choice.chosen_seconds * 1.02, choice.default_seconds);
        // The program handed out is the one predicted: what candidate_program builds.
        ASSERT_NE(choice.program, nullptr);
        EXPECT_EQ(encode_program(*choice.program),
                  encode_program(candidate_program(platform, members, call_of(operation, count, 3), choice.chosen)));
      }
    }
  }
}

TEST(ProgramChooser, EveryPickableProgramComputesItsCollective) {
  const auto platform = nic_cluster(6, {100, 25}, 20);
  const auto members = hosts_of(platform);
  for (auto operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
    for (std::size_t count : {1u, 1000u, 20000u}) {
      const auto call = call_of(operation, count, 2);
      const auto choice = choose_program(platform, members, call);
      for (const auto& candidate : choice.candidates) {
        if (!candidate.refused.empty()) continue;
        const auto program = candidate_program(platform, members, call, candidate.name);
        const auto report = verify_program(program, operation, call.root, count);
        EXPECT_TRUE(report.valid) << candidate.name << " " << to_string(operation) << " " << count << ": "
                                  << report.summary();
      }
    }
  }
}

// The runtime's rank 0 sends the chosen program as bytes: every candidate's
// program comes back identical, and damaged bytes are refused, never run.
TEST(ProgramChooser, ProgramsSurviveTheirBytesAndDamagedBytesAreRefused) {
  const auto platform = nic_cluster(5, {100, 25}, 20);
  const auto members = hosts_of(platform);
  for (auto operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
    const auto call = call_of(operation, 777, 1);
    for (const auto& candidate : choose_program(platform, members, call).candidates) {
      if (!candidate.refused.empty()) continue;
      SCOPED_TRACE(candidate.name);
      const auto program = candidate_program(platform, members, call, candidate.name);
      const auto bytes = encode_program(program);
      const auto back = decode_program(std::string_view(bytes.data(), bytes.size()), call.count);
      EXPECT_EQ(encode_program(back), bytes);
      EXPECT_EQ(back.name, program.name);
      EXPECT_EQ(back.message_count(), program.message_count());
      for (std::size_t cut : {std::size_t{0}, std::size_t{3}, bytes.size() / 2, bytes.size() - 1}) {
        EXPECT_THROW(decode_program(std::string_view(bytes.data(), cut), call.count), InputError) << cut;
      }
      auto longer = bytes;
      longer.push_back(0);
      EXPECT_THROW(decode_program(std::string_view(longer.data(), longer.size()), call.count), InputError);
      // Fewer elements than the program's slices cover: check_program refuses it.
      EXPECT_THROW(decode_program(std::string_view(bytes.data(), bytes.size()), 1), InputError);
    }
  }
  EXPECT_THROW(decode_program("HCP0", 1), InputError);
}

// Property: on seeded random NIC clusters (2 to 12 hosts of random up-link
// bandwidths and latencies), every candidate the chooser predicts —
// hetcoll's lowered plans and MPI's algorithms — computes its collective
// (verify_program), completes in the model, and the chosen one is never
// predicted slower than the library's default.
TEST(ProgramChooser, RandomPlatformsEveryCandidateVerifiedAndNeverWorseThanTheDefault) {
  std::mt19937 random(20261128);
  for (int instance = 0; instance < 24; ++instance) {
    const int hosts = std::uniform_int_distribution<int>(2, 12)(random);
    std::vector<double> up_mbps;
    for (int h = 0; h < hosts; ++h) up_mbps.push_back(std::uniform_real_distribution<double>(5, 200)(random));
    const double latency_us = std::uniform_real_distribution<double>(1, 100)(random);
    const auto platform = nic_cluster(hosts, up_mbps, latency_us);
    const auto members = hosts_of(platform);
    const std::size_t counts[] = {1, 37, 3000};
    const auto operation = std::array{Operation::broadcast, Operation::reduce, Operation::allreduce}[instance % 3];
    const auto count = counts[(instance / 3) % 3];
    const int root = std::uniform_int_distribution<int>(0, hosts - 1)(random);
    const auto call = call_of(operation, count, root);
    const auto choice = choose_program(platform, members, call);
    SCOPED_TRACE(fmt::format("instance {}: {} hosts, {} of {} elements, root {}", instance, hosts,
                             to_string(operation), count, root));
    EXPECT_LE(choice.chosen_seconds, choice.default_seconds);
    for (const auto& candidate : choice.candidates) {
      if (candidate.name == "hetcoll:split") {
        EXPECT_EQ(candidate.refused, "") << "the split plans apply to every call here";
      }
      if (!candidate.refused.empty()) continue;
      EXPECT_TRUE(std::isfinite(candidate.predicted_seconds)) << candidate.name;
      const auto report = verify_program(candidate_program(platform, members, call, candidate.name), operation,
                                         root, count);
      EXPECT_TRUE(report.valid) << candidate.name << ": " << report.summary();
    }
  }
}

// MPI_Allgather: every candidate on seeded random NIC clusters computes the
// all-gather (every rank ends with every rank's block), completes in the
// model, and the choice is never predicted slower than SMPI's default.
TEST(ProgramChooser, AllgatherCandidatesVerifiedAndNeverWorseThanTheDefault) {
  std::mt19937 random(20261129);
  for (int instance = 0; instance < 12; ++instance) {
    const int hosts = std::uniform_int_distribution<int>(2, 10)(random);
    std::vector<double> up_mbps;
    for (int h = 0; h < hosts; ++h) up_mbps.push_back(std::uniform_real_distribution<double>(5, 200)(random));
    const auto platform = nic_cluster(hosts, up_mbps, std::uniform_real_distribution<double>(1, 100)(random));
    const auto members = hosts_of(platform);
    const std::size_t count = std::array<std::size_t, 3>{1, 100, 5000}[instance % 3];
    const auto call = call_of(Operation::allgather, count);
    const auto choice = choose_program(platform, members, call);
    SCOPED_TRACE(fmt::format("instance {}: {} hosts, blocks of {} elements: {}", instance, hosts, count, choice.reason));
    EXPECT_LE(choice.chosen_seconds, choice.default_seconds);
    int verified = 0;
    for (const auto& candidate : choice.candidates) {
      if (!candidate.refused.empty()) continue;
      EXPECT_TRUE(std::isfinite(candidate.predicted_seconds)) << candidate.name;
      const auto program = candidate_program(platform, members, call, candidate.name);
      const auto report = verify_program(program, Operation::allgather, 0, count);
      EXPECT_TRUE(report.valid) << candidate.name << ": " << report.summary();
      // The program the runtime's rank 0 sends survives its bytes.
      const auto bytes = encode_program(program);
      EXPECT_EQ(encode_program(decode_program(std::string_view(bytes.data(), bytes.size()),
                                              call_data_elements(call, hosts))),
                bytes);
      ++verified;
    }
    EXPECT_GE(verified, 4) << "default, ring, NTSLR, bruck at least";
  }
}

// Two fast hosts and six slow up links: MPI's algorithms send every block
// through every slow link (p - 1 blocks each), the split all-gather once.
TEST(ProgramChooser, TheSplitAllgatherWinsWhereUpLinksDiffer) {
  const auto platform = nic_cluster(8, {1000, 1000, 10, 10, 10, 10, 10, 10}, 20);
  const auto members = hosts_of(platform);
  const auto choice = choose_program(platform, members, call_of(Operation::allgather, 1u << 14));
  EXPECT_EQ(choice.chosen, "hetcoll:split") << choice.reason;
  EXPECT_LT(choice.chosen_seconds * 2, choice.default_seconds) << choice.reason;
  // Refused: the whole-message and site plans are not all-gathers.
  for (const auto& candidate : choice.candidates) {
    const bool all_gathers = candidate.name.starts_with("mpi:") || candidate.name == "hetcoll:split";
    EXPECT_EQ(candidate.refused.empty(), all_gathers) << candidate.name << ": " << candidate.refused;
  }
  const std::vector<ProcessorIndex> six(members.begin(), members.begin() + 6);
  EXPECT_THROW(candidate_program(platform, six, call_of(Operation::allgather, 4), "mpi:pair"), InputError);
  const auto report = verify_program(*choice.program, Operation::allgather, 0, 1u << 14);
  EXPECT_TRUE(report.valid) << report.summary();
}

// A wrong all-gather is caught: a block never sent, a block in the wrong place.
TEST(VerifyProgram, RejectsAWrongAllgather) {
  auto program = mpi_algorithm_program(Operation::allgather, "ring", 4, 0, 3, 4);
  ASSERT_TRUE(verify_program(program, Operation::allgather, 0, 3).valid);
  auto shifted = mpi_algorithm_program(Operation::allgather, "ring", 4, 0, 3, 4);
  // Rank 1 receives rank 0's block into block 2's place (both steps agree on the count).
  for (auto& step : shifted.steps[1]) {
    if (step.kind == ProgramStep::Kind::receive && step.peer == 0) step.data.offset = 6;
  }
  EXPECT_FALSE(verify_program(shifted, Operation::allgather, 0, 3).valid);
  EXPECT_FALSE(verify_program(program, Operation::broadcast, 0, 12).valid);
}

TEST(ProgramChooser, AHeterogeneousPlatformPicksAHetcollPlanForLargeBroadcasts) {
  // One fast root and slow others: hetcoll's plan sends from the fast hosts
  // first; the library's binomial tree waits on slow ones.
  const auto platform = nic_cluster(8, {1000, 10, 10, 10, 1000, 10, 10, 10}, 20);
  const auto choice = choose_program(platform, hosts_of(platform), call_of(Operation::broadcast, 1u << 18));
  EXPECT_FALSE(choice.runs_library_default()) << choice.reason;
  EXPECT_LT(choice.chosen_seconds * 1.02, choice.default_seconds);
}

// The split reduce is planned in the NIC fluid model (makespan/split/
// split_reduce.h), which is CM02 on these platforms: its lowered program,
// paced as planned, takes the plan's predicted time in the flow model too.
TEST(ProgramChooser, TheSplitReduceProgramTakesItsPlansTime) {
  const auto platform = nic_cluster(8, {100, 100, 100, 100, 62.5, 62.5, 62.5, 62.5}, 50);
  const auto members = hosts_of(platform);
  const FlowNetwork network(platform.graph(), members);
  sim::FlowModelOptions flow;
  flow.envelope_bytes = sim::kSmpiEnvelopeBytes;
  for (const std::size_t count : {256u, 4096u}) {
    const auto plan = plan_split_reduce(nic_network_of_ranks(platform, members, sim::kSmpiEnvelopeBytes), 0, count, 4);
    const auto program = program_of_split_reduce(plan);
    check_program(program, count);
    EXPECT_TRUE(verify_program(program, Operation::reduce, 0, count).valid);
    const auto timing = sim::predict_program(program, network, 4, flow);
    EXPECT_NEAR(timing.makespan, plan.predicted_seconds, 1e-3 * plan.predicted_seconds) << count << " ints";
    EXPECT_DOUBLE_EQ(predict_candidate(platform, members, network, call_of(Operation::reduce, count), "hetcoll:split",
                                       flow),
                     timing.makespan);
  }
}

// On the seed's 8-host cluster the split plans beat every MPI algorithm
// from 1024 ints (docs/RESULTS.md, measured in SMPI).
TEST(ProgramChooser, TheSplitPlansWinMidSizedCallsOnAHeterogeneousCluster) {
  const auto platform = nic_cluster(8, {12.5, 12.5, 12.5, 12.5, 12.5 / 1.6, 12.5 / 1.6, 12.5 / 1.6, 12.5 / 1.6}, 50);
  for (const auto operation : {Operation::broadcast, Operation::reduce}) {
    const auto choice = choose_program(platform, hosts_of(platform), call_of(operation, 1024));
    EXPECT_EQ(choice.chosen, "hetcoll:split") << to_string(operation) << ": " << choice.reason;
  }
}

TEST(SplitPrograms, MalformedPlansAreRefused) {
  SplitBroadcastPlan plan;
  plan.members = {0, 1, 2};
  plan.source = 0;
  plan.elements = 6;
  plan.chunks = 1;
  plan.pieces = {{1, 0, 3}, {2, 3, 3}};
  plan.transfers = {{0, 0, 0, 1}, {1, 0, 0, 2}, {0, 0, 1, 2}, {1, 0, 2, 1}};
  EXPECT_TRUE(verify_program(program_of_split_broadcast(plan), Operation::broadcast, 0, 6).valid);
  auto forwarding_too_early = plan;
  forwarding_too_early.transfers = {{0, 0, 1, 2}, {0, 0, 0, 1}, {1, 0, 0, 2}, {1, 0, 2, 1}};
  EXPECT_TRUE(verify_program(program_of_split_broadcast(forwarding_too_early), Operation::broadcast, 0, 6).valid)
      << "a spreader waits for its chunk before forwarding it, whatever the order";
  auto gap = plan;
  gap.pieces[1].first = 4;
  EXPECT_THROW((void)program_of_split_broadcast(gap), InputError);
  auto never_received = plan;
  never_received.transfers.erase(never_received.transfers.begin());  // member 1 never gets piece 0
  EXPECT_THROW((void)program_of_split_broadcast(never_received), InputError);
  SplitReducePlan reduce;
  reduce.root = 0;
  reduce.count = 4;
  reduce.pieces = {{0, 4, 1}};
  reduce.contributions = {{}, {}, {0}};
  reduce.post_times = {{}, {}, {0.0}};
  reduce.piece_ready = {1e-3};
  reduce.piece_at_root = {2e-3};
  EXPECT_TRUE(verify_program(program_of_split_reduce(reduce), Operation::reduce, 0, 4).valid);
  reduce.contributions[2].clear();  // processor 2's share never reaches the aggregator
  EXPECT_THROW((void)program_of_split_reduce(reduce), InputError);
}

TEST(ProgramChooser, NonCommutativeReducesKeepTheLibrarysDefault) {
  const auto platform = nic_cluster(8, {100, 10}, 20);
  auto call = call_of(Operation::reduce, 1u << 16);
  call.commutative = false;
  const auto choice = choose_program(platform, hosts_of(platform), call);
  EXPECT_TRUE(choice.runs_library_default());
}

TEST(ProgramChooser, UnknownCandidatesAreRefusedByName) {
  const auto platform = nic_cluster(4, {100}, 20);
  try {
    (void)candidate_program(platform, hosts_of(platform), call_of(Operation::broadcast, 4), "mpi:nonesuch");
    FAIL() << "an unknown algorithm must be refused";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("binomial_tree"), std::string::npos) << error.what();
  }
  EXPECT_THROW((void)candidate_program(platform, hosts_of(platform), call_of(Operation::broadcast, 4), "nonesuch"),
               InputError);
  EXPECT_THROW((void)choose_program(platform, hosts_of(platform), call_of(Operation::broadcast, 4, 7)), InputError);
  // MPI's count is an int of at least one element.
  EXPECT_THROW((void)choose_program(platform, hosts_of(platform), call_of(Operation::broadcast, 0)), InputError);
  EXPECT_THROW((void)choose_program(platform, hosts_of(platform), call_of(Operation::broadcast, std::size_t{1} << 31)),
               InputError);
}

}  // namespace
}  // namespace hetcoll
