// The split all-reduce in the NIC fluid model
// (makespan/split/split_allreduce_nic.h): hand-computed replays, its lower
// bounds on hand-computed networks, its plans through
// verify_split_allreduce_nic on seeded random networks (bounds <= planned
// time, the planner's greedy run equal to the replay of its own plan), and
// the checker catching broken plans.
#include <gtest/gtest.h>

#include <random>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/split/split_allreduce_nic.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"
#include "hetcoll/plan/comm_program.h"
#include "hetcoll/sim/program_simulation.h"
#include "hetcoll/verify/verify_split_allreduce_nic.h"
#include "support/test_support.h"
#include "support/nic_cluster.h"

namespace hetcoll {
namespace {

using testing::network_of;
using testing::random_network;

std::string checked(const NicNetwork& network, const SplitAllreducePlan& plan) {
  auto report = verify_split_allreduce_nic(network, plan);
  return report.valid ? "" : report.summary();
}

TEST(SplitAllreduceNic, TwoProcessorsExchangeThenReturnResults) {
  // Two processors, latency 0.5 s, 1 B/s links, 2 one-byte elements, one
  // piece each: the contributions cross (0.5 .. 1.5 s), each result leaves
  // at 1.5 s and arrives at 3 s. Bounds: own data 0.5 + 2 / 1 = 2.5 s;
  // traffic 2 (2 - 1) 2 = 4 bytes on two up links from 0.5 s: 2.5 s.
  auto network = network_of({0.5, 0.5}, {1, 1}, {1, 1});
  auto plan = make_split_allreduce_nic(network, 2, 1, {1, 1}, 1);
  EXPECT_NEAR(plan.makespan, 3, 1e-12);
  EXPECT_NEAR(plan.own_data_bound, 2.5, 1e-12);
  EXPECT_NEAR(plan.traffic_bound, 2.5, 1e-12);
  ASSERT_EQ(plan.transfers.size(), 4u);
  for (const auto& t : plan.transfers) {
    EXPECT_NEAR(t.start, t.contribution ? 0.0 : 1.5, 1e-12);
    EXPECT_NEAR(t.end, t.contribution ? 1.5 : 3.0, 1e-12);
  }
  EXPECT_EQ(checked(network, plan), "");
}

TEST(SplitAllreduceNic, ThreeProcessorsMeetTheTrafficBound) {
  // Three processors, no latency, 1 B/s links, 3 one-byte elements, one
  // piece each. Each posts its contribution to the next processor at 0
  // (arrives at 1) and, its up link free again at 1, to the one after
  // (arrives at 2). Each piece is complete at 2; each aggregator's two
  // results share its up link, each down link takes two results: 0.5 B/s
  // each, all arrive at 4 = 2 (3 - 1) 3 bytes / 3 B/s, the traffic bound
  // (own data: 3 bytes / 1 B/s = 3).
  auto network = network_of({0, 0, 0}, {1, 1, 1}, {1, 1, 1});
  auto plan = make_split_allreduce_nic(network, 3, 1, {1, 1, 1}, 1);
  EXPECT_NEAR(plan.makespan, 4, 1e-12);
  EXPECT_NEAR(plan.own_data_bound, 3, 1e-12);
  EXPECT_NEAR(plan.traffic_bound, 4, 1e-12);
  for (const auto& t : plan.transfers) {
    if (t.contribution) {
      EXPECT_EQ(t.to, (t.from + (t.start < 0.5 ? 1 : 2)) % 3);
      EXPECT_NEAR(t.end, t.start + 1, 1e-12);
    } else {
      EXPECT_NEAR(t.start, 2, 1e-12);
      EXPECT_NEAR(t.end, 4, 1e-12);
    }
  }
  EXPECT_EQ(checked(network, plan), "");
}

TEST(SplitAllreduceNic, LowerBoundsOnAHandComputedNetwork) {
  // Up links 2, 1, 1 B/s from latencies 0, 1, 1 s; down links 4 B/s. 10
  // bytes: own data max(0 + 10/2, 1 + 10/1, then 0 + 10/4) = 11 s.
  // Traffic 2 (3 - 1) 10 = 40 bytes: up links carry 2 T + 2 (T - 1) = 40 at
  // T = 10.5; down links, behind the others' least latencies 1, 0, 0,
  // 4 (T - 1) + 4 T + 4 T = 40 at T = 11/3: 10.5 s.
  auto network = network_of({0, 1, 1}, {2, 1, 1}, {4, 4, 4});
  auto bounds = split_allreduce_lower_bounds(network, 10, 1);
  EXPECT_NEAR(bounds.own_data, 11, 1e-12);
  EXPECT_NEAR(bounds.traffic, 10.5, 1e-12);
  EXPECT_NEAR(bounds.best(), 11, 1e-12);
}

TEST(SplitAllreduceNic, RandomNetworksGiveValidPlansAboveTheirBounds) {
  std::mt19937_64 rng(20261128);
  for (int instance = 0; instance < 40; ++instance) {
    const std::size_t n = 1 + rng() % 9;
    const auto network = random_network(rng, n);
    const std::size_t elements = 1 + rng() % 3000;
    const double element_bytes = rng() % 2 ? 4 : 8;
    SplitAllreduceNicOptions options;
    options.max_work = 60'000;
    const auto plan = plan_split_allreduce_nic(network, elements, element_bytes, options);
    SCOPED_TRACE(fmt::format("instance {}: {} processors, {} elements, {}", instance, n, elements, plan.algorithm));
    EXPECT_EQ(checked(network, plan), "");
    EXPECT_GE(plan.makespan, std::max(plan.own_data_bound, plan.traffic_bound) * (1 - 1e-9));
    // The greedy run that made it is what the replay of its order gives.
    auto replay = plan;
    simulate_split_allreduce(network, replay);
    EXPECT_NEAR(replay.makespan, plan.makespan, 1e-9 * plan.makespan);
    for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
      EXPECT_NEAR(replay.transfers[i].end, plan.transfers[i].end, 1e-9 * plan.makespan) << "transfers[" << i << "]";
    }
    // Its shape (piece sizes, chunks, pacing) rebuilds it: what a program
    // planning on one rank sends the others.
    std::vector<std::size_t> shape(n, 0);
    for (const auto& piece : plan.pieces) shape[piece.spreader] = piece.elements;
    const auto rebuilt = make_split_allreduce_nic(network, elements, element_bytes, shape, plan.chunks, plan.pace);
    EXPECT_EQ(rebuilt.makespan, plan.makespan);
    EXPECT_EQ(rebuilt.algorithm, plan.algorithm);
    // Any piece sizes and chunk count give valid plans too.
    std::vector<std::size_t> sizes(n, 0);
    for (std::size_t e = 0; e < elements; ++e) ++sizes[rng() % n];
    const double paces[] = {1, 0, -1, 2.5};
    const auto other = make_split_allreduce_nic(network, elements, element_bytes, sizes, 1 + rng() % 5, paces[rng() % 4]);
    EXPECT_EQ(checked(network, other), "");
  }
}

// Each pacing searches its own chunk counts: the plan over several pacings
// is at least as fast as the plan of any one of them with the same budget.
// (On this 8-host cluster of Liu, Kuo, Wang 2009, 16384 ints, a pacing's
// search once stopped because another pacing had done better: 12 chunks
// paced together were never tried, 2 % slower.)
TEST(SplitAllreduceNic, EveryPacingSearchesItsOwnChunkCounts) {
  std::vector<double> latency, up, down;
  for (int u = 0; u < 8; ++u) {
    const double factor = u < 4 ? 1 : 1.6;
    latency.push_back(5e-5 * factor);
    up.push_back(1.25e7 / factor);
    down.push_back(1.25e7);
  }
  const auto network = network_of(latency, up, down, /*envelope=*/16);
  SplitAllreduceNicOptions all;
  all.chunk_counts = {1, 4, 8, 12, 16};
  const auto plan = plan_split_allreduce_nic(network, 16384, 4, all);
  for (double pace : all.paces) {
    SplitAllreduceNicOptions one;
    one.paces = {pace};
    one.max_work = all.max_work / all.paces.size();
    const auto alone = plan_split_allreduce_nic(network, 16384, 4, one);
    EXPECT_LE(plan.makespan, alone.makespan * (1 + 1e-12)) << "pace " << pace << ": " << alone.algorithm;
  }
}

TEST(SplitAllreduceNic, TheCheckerCatchesBrokenPlans) {
  std::mt19937_64 rng(7);
  const auto network = random_network(rng, 5);
  const auto good = make_split_allreduce_nic(network, 1000, 4, {300, 300, 0, 200, 200}, 3);
  ASSERT_EQ(checked(network, good), "");
  auto expect_rejected = [&](SplitAllreducePlan plan, const char* what) {
    EXPECT_FALSE(verify_split_allreduce_nic(network, plan).valid) << what;
  };
  auto early = good;
  for (auto& t : early.transfers) {
    if (!t.contribution) {
      t.start = 0;
      break;
    }
  }
  expect_rejected(early, "a result before its contributions");
  auto missing = good;
  missing.transfers.pop_back();
  expect_rejected(missing, "a result missing");
  auto twice = good;
  twice.transfers.push_back(twice.transfers.front());
  expect_rejected(twice, "a contribution twice");
  auto fast = good;
  fast.transfers.front().end = fast.transfers.front().start;
  expect_rejected(fast, "a message faster than its links");
  auto claim = good;
  claim.makespan *= 0.9;
  expect_rejected(claim, "a makespan claimed short");
  auto bound = good;
  bound.traffic_bound = 2 * bound.makespan;
  expect_rejected(bound, "a bound above the makespan");
  auto wrong_aggregator = good;
  for (auto& t : wrong_aggregator.transfers) {
    if (t.contribution) {
      t.to = (t.to + 1) % 5 == t.from ? (t.to + 2) % 5 : (t.to + 1) % 5;
      break;
    }
  }
  expect_rejected(wrong_aggregator, "a contribution to another processor");
  auto eager = good;
  eager.model = SplitAllreducePlan::Model::eager;
  expect_rejected(eager, "a plan of the eager model");
}

TEST(SplitAllreduceNic, BadArgumentsNameTheParameter) {
  const auto network = network_of({0, 0}, {1, 1}, {1, 1});
  EXPECT_NE(testing::input_error_message([&] { plan_split_allreduce_nic(network, 0, 4); }).find("elements"), std::string::npos);
  EXPECT_NE(testing::input_error_message([&] { plan_split_allreduce_nic(network, 10, 0); }).find("element_bytes"),
            std::string::npos);
  EXPECT_NE(testing::input_error_message([&] { plan_split_allreduce_nic(network_of({0, 0}, {1, 0}, {1, 1}), 10, 4); })
                .find("network"),
            std::string::npos);
  EXPECT_NE(testing::input_error_message([&] { make_split_allreduce_nic(network, 10, 4, {5, 4}, 1); })
                .find("piece_elements"),
            std::string::npos);
  auto plan = make_split_allreduce_nic(network, 10, 4, {5, 5}, 2);
  plan.transfers.pop_back();
  EXPECT_NE(testing::input_error_message([&] { simulate_split_allreduce(network, plan); }).find("plan"), std::string::npos);
}

// `hosts` hosts with their own up and down links (scripts/nic-platform):
// host i sends at up_mbps[i % size] after latency_us[i % size], every down
// link at up_mbps[0].
Platform nic_cluster(int hosts, const std::vector<double>& up_mbps, const std::vector<double>& latency_us) {
  std::string xml = R"(<?xml version='1.0'?><!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="z" routing="Full">)";
  for (int i = 0; i < hosts; ++i) xml += fmt::format(R"(<host id="h{}" speed="1Gf"/>)", i);
  for (int i = 0; i < hosts; ++i) {
    const auto c = static_cast<std::size_t>(i);
    xml += fmt::format(R"(<link id="h{}_up" bandwidth="{}MBps" latency="{}us"/>)", i, up_mbps[c % up_mbps.size()],
                       latency_us[c % latency_us.size()]);
    xml += fmt::format(R"(<link id="h{}_down" bandwidth="{}MBps" latency="0us"/>)", i, up_mbps[0]);
  }
  for (int i = 0; i < hosts; ++i) {
    for (int j = 0; j < hosts; ++j) {
      if (i != j) {
        xml += fmt::format(R"(<route src="h{}" dst="h{}" symmetrical="NO"><link_ctn id="h{}_up"/>)"
                           R"(<link_ctn id="h{}_down"/></route>)", i, j, i, j);
      }
    }
  }
  xml += "</zone></platform>";
  return parse_simgrid_xml(xml, "nic.xml");
}

// The plan as a communication program, for a plan whose contributions are
// all posted at the start (pace 0): every rank posts its receives, then its
// messages in the plan's order, waiting for (and combining) a chunk's
// contributions before its first result. Data land in scratch buffers
// (the timing, not the values, is compared).
CommProgram program_of(const SplitAllreducePlan& plan) {
  const auto n = static_cast<int>(plan.members.size());
  CommProgram program(n, "split all-reduce");
  const auto scratch = program.add_buffer(plan.elements * plan.members.size());
  std::vector<std::vector<std::vector<std::uint32_t>>> contributions_of(
      plan.members.size(), std::vector<std::vector<std::uint32_t>>(plan.chunks));
  std::vector<std::vector<std::uint32_t>> other_receives(plan.members.size()), sends(plan.members.size());
  auto slice_of = [&](const SplitAllreduceTransfer& t) {
    const auto [offset, count] = split_chunk_range(plan.pieces[t.piece].elements, plan.chunks, t.chunk);
    return Slice{0, plan.pieces[t.piece].first + offset, count};
  };
  for (const auto& t : plan.transfers) {
    auto slice = slice_of(t);
    const auto to = static_cast<int>(t.to);
    if (t.contribution) {
      slice.buffer = scratch;
      slice.offset += t.from * plan.elements;
      contributions_of[t.to][t.chunk].push_back(program.add(to, ProgramStep::receive_of(static_cast<int>(t.from), slice)));
    } else {
      other_receives[t.to].push_back(program.add(to, ProgramStep::receive_of(static_cast<int>(t.from), slice)));
    }
  }
  std::vector<std::vector<char>> combined(plan.members.size(), std::vector<char>(plan.chunks, 0));
  for (const auto& t : plan.transfers) {
    const auto from = static_cast<int>(t.from);
    if (!t.contribution && !combined[t.from][t.chunk]) {
      combined[t.from][t.chunk] = 1;
      program.add(from, ProgramStep::wait_for(contributions_of[t.from][t.chunk]));
      for (const auto& c : plan.transfers) {
        if (c.contribution && c.to == t.from && c.chunk == t.chunk) {
          auto into = slice_of(c);
          auto data = into;
          data.buffer = scratch;
          data.offset += c.from * plan.elements;
          program.add(from, ProgramStep::combine_of(data, into));
        }
      }
    }
    sends[t.from].push_back(program.add(from, ProgramStep::send_of(static_cast<int>(t.to), slice_of(t))));
  }
  for (std::size_t r = 0; r < plan.members.size(); ++r) {
    auto rest = other_receives[r];
    rest.insert(rest.end(), sends[r].begin(), sends[r].end());
    program.add(static_cast<int>(r), ProgramStep::wait_for(rest));
  }
  return program;
}

TEST(SplitAllreduceNic, TheFluidModelAgreesWithTheProgramFlowModel) {
  // The 8-host cluster of the benchmarks (four hosts at 12.5 MB/s after
  // 50 us, four at 7.8125 MB/s after 80 us), plans posting their
  // contributions at once: the NIC fluid model's makespan is what
  // sim/program_simulation.h predicts for the same sends on the platform.
  const auto platform = nic_cluster(8, {12.5, 12.5, 12.5, 12.5, 7.8125, 7.8125, 7.8125, 7.8125}, {50, 50, 50, 50, 80});
  auto network = nic_network_from_platform(platform, sim::kSmpiEnvelopeBytes);
  const FlowNetwork flows(platform, platform.participants());
  sim::FlowModelOptions options;
  options.envelope_bytes = sim::kSmpiEnvelopeBytes;
  for (std::size_t elements : {4, 256, 1024, 4096}) {
    for (std::size_t chunks : {1, 2}) {
      std::vector<std::size_t> sizes(8, 0);
      for (std::size_t e = 0; e < elements; ++e) ++sizes[e % 6];  // two hosts without a piece
      const auto plan = make_split_allreduce_nic(network, elements, 4, sizes, chunks, 0);
      const auto program = program_of(plan);
      check_program(program, elements);
      const auto timing = sim::predict_program(program, flows, 4, options);
      ASSERT_TRUE(timing.completed());
      EXPECT_NEAR(timing.makespan, plan.makespan, 1e-9 * plan.makespan) << elements << " elements, " << chunks << " chunks";
    }
  }
}

}  // namespace
}  // namespace hetcoll
