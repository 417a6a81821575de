// The flow model's predictions of communication programs, against times
// worked out by hand from SimGrid's CM02 rules (model/flow_network.h).
#include <gtest/gtest.h>

#include <limits>

#include <string>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"
#include "hetcoll/plan/comm_program.h"
#include "hetcoll/sim/program_simulation.h"

namespace hetcoll {
namespace {

// Four hosts, each with a private SHARED link (latency 1 ms, bandwidth in
// MB/s as given) to a crossbar: host i -> host j crosses link i then link j.
Platform star(const std::string& sharing = "SHARED", double backbone_mbps = 0) {
  std::string xml = R"(<?xml version='1.0'?><!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="z" routing="Full">)";
  const double bandwidth[] = {100, 100, 50, 25};
  for (int i = 0; i < 4; ++i) {
    xml += fmt::format(R"(<host id="h{}" speed="1Gf"/>)", i);
    xml += fmt::format(R"(<link id="l{}" bandwidth="{}MBps" latency="1ms" sharing_policy="{}"/>)", i, bandwidth[i],
                       sharing);
  }
  if (backbone_mbps > 0) {
    xml += fmt::format(R"(<link id="bb" bandwidth="{}MBps" latency="0ms"/>)", backbone_mbps);
  }
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      if (i == j) continue;
      xml += fmt::format(R"(<route src="h{}" dst="h{}" symmetrical="NO"><link_ctn id="l{}"/>)", i, j, i);
      if (backbone_mbps > 0) xml += R"(<link_ctn id="bb"/>)";
      xml += fmt::format(R"(<link_ctn id="l{}"/></route>)", j);
    }
  }
  xml += "</zone></platform>";
  return parse_simgrid_xml(xml, "star.xml");
}

FlowNetwork network_of(const Platform& platform) {
  std::vector<ProcessorIndex> hosts;
  for (int i = 0; i < 4; ++i) hosts.push_back(*platform.find(fmt::format("h{}", i)));
  return FlowNetwork(platform, hosts);
}

TEST(FlowNetwork, PathLatencyBoundAndResources) {
  const auto platform = star();
  const auto network = network_of(platform);
  const auto& path = network.path(0, 3);
  EXPECT_DOUBLE_EQ(path.latency, 2e-3);
  EXPECT_DOUBLE_EQ(path.rate_bound, 25e6);
  EXPECT_EQ(path.resources.size(), 2u);
  EXPECT_DOUBLE_EQ(network.alone_time(0, 3, 1e6), 2e-3 + 1e6 / 25e6);
}

TEST(ProgramSimulation, OneMessageTakesLatencyPlusSizeOverBandwidth) {
  const auto platform = star();
  const auto network = network_of(platform);
  CommProgram program(4, "one message");
  program.blocking_send(0, 1, {0, 0, 250000});
  program.blocking_receive(1, 0, {0, 0, 250000});
  check_program(program, 250000);
  const auto timing = sim::predict_program(program, network, 4);
  ASSERT_TRUE(timing.completed());
  EXPECT_NEAR(timing.makespan, 2e-3 + 1e6 / 100e6, 1e-12);
  EXPECT_NEAR(timing.rank_finish[1], timing.makespan, 1e-12);
  EXPECT_EQ(timing.rank_finish[2], 0);
}

TEST(ProgramSimulation, APacedSendLeavesAtItsTime) {
  const auto platform = star();
  const auto network = network_of(platform);
  CommProgram program(4, "paced");
  program.add(0, ProgramStep::pace_until(0.5));
  program.blocking_send(0, 1, {0, 0, 250000});
  program.add(1, ProgramStep::pace_until(0.1));  // already past when the message arrives: nothing
  program.blocking_receive(1, 0, {0, 0, 250000});
  program.add(2, ProgramStep::pace_until(0.25));
  check_program(program, 250000);
  const auto timing = sim::predict_program(program, network, 4);
  ASSERT_TRUE(timing.completed());
  EXPECT_NEAR(timing.rank_finish[1], 0.5 + 2e-3 + 1e6 / 100e6, 1e-12);
  EXPECT_NEAR(timing.rank_finish[2], 0.25, 1e-15);
  CommProgram bad(2, "bad pace");
  bad.add(0, ProgramStep::pace_until(-1));
  EXPECT_THROW(check_program(bad, 1), InputError);
  bad.steps[0][0].seconds = std::numeric_limits<double>::infinity();
  EXPECT_THROW(check_program(bad, 1), InputError);
}

TEST(ProgramSimulation, ConcurrentSendsShareTheSendersLink) {
  // h0 sends 1 MB to h1 and to h2 at once (non-blocking): both cross l0
  // (100 MB/s): 50 MB/s each while both flow; the one to h2 is also bound
  // by l2 (50 MB/s): both get 50 MB/s, 20 ms each.
  const auto platform = star();
  const auto network = network_of(platform);
  CommProgram program(4, "two sends");
  const auto a = program.add(0, ProgramStep::send_of(1, {0, 0, 1000000}));
  const auto b = program.add(0, ProgramStep::send_of(2, {0, 0, 1000000}));
  program.add(0, ProgramStep::wait_for({a, b}));
  program.blocking_receive(1, 0, {0, 0, 1000000});
  program.blocking_receive(2, 0, {0, 0, 1000000});
  check_program(program, 1000000);
  const auto timing = sim::predict_program(program, network, 1);
  EXPECT_NEAR(timing.rank_finish[1], 2e-3 + 1e6 / 50e6, 1e-9);
  EXPECT_NEAR(timing.rank_finish[2], 2e-3 + 1e6 / 50e6, 1e-9);
}

TEST(ProgramSimulation, MaxMinGivesTheUnboundFlowWhatIsLeft) {
  // h0 -> h3 (bound 25 MB/s by l3) and h0 -> h1 share l0 (100 MB/s): the
  // first gets 25, the second 75 MB/s. 1.5 MB to h1: 20 ms at 75 MB/s, and
  // 0.5 MB to h3: 20 ms at 25 MB/s.
  const auto platform = star();
  const auto network = network_of(platform);
  CommProgram program(4, "max-min");
  const auto a = program.add(0, ProgramStep::send_of(1, {0, 0, 1500000}));
  const auto b = program.add(0, ProgramStep::send_of(3, {0, 0, 500000}));
  program.add(0, ProgramStep::wait_for({a, b}));
  program.blocking_receive(1, 0, {0, 0, 1500000});
  program.blocking_receive(3, 0, {0, 0, 500000});
  const auto timing = sim::predict_program(program, network, 1);
  EXPECT_NEAR(timing.rank_finish[1], 2e-3 + 0.02, 1e-9);
  EXPECT_NEAR(timing.rank_finish[3], 2e-3 + 0.02, 1e-9);
}

TEST(ProgramSimulation, FatpipeLinksBoundButDoNotShare) {
  const auto platform = star("FATPIPE");
  const auto network = network_of(platform);
  CommProgram program(4, "fatpipe");
  const auto a = program.add(0, ProgramStep::send_of(1, {0, 0, 1000000}));
  const auto b = program.add(0, ProgramStep::send_of(2, {0, 0, 1000000}));
  program.add(0, ProgramStep::wait_for({a, b}));
  program.blocking_receive(1, 0, {0, 0, 1000000});
  program.blocking_receive(2, 0, {0, 0, 1000000});
  const auto timing = sim::predict_program(program, network, 1);
  EXPECT_NEAR(timing.rank_finish[1], 2e-3 + 1e6 / 100e6, 1e-9);
  EXPECT_NEAR(timing.rank_finish[2], 2e-3 + 1e6 / 50e6, 1e-9);
}

TEST(ProgramSimulation, SmallSendsAreDetachedLargeOnesWaitForTheirReceiver) {
  // h1 posts its receive 10 ms late (after a message from h2). A small send
  // completes at once for its sender; a large one completes on arrival.
  const auto platform = star();
  const auto network = network_of(platform);
  for (std::size_t elements : {1000u, 100000u}) {
    CommProgram program(4, "late receiver");
    program.blocking_send(0, 1, {0, 0, elements});
    program.blocking_send(2, 1, {1, 0, 1});
    program.blocking_receive(1, 2, {1, 0, 1});
    program.blocking_receive(1, 0, {0, 0, elements});
    program.add_buffer(1);
    check_program(program, elements);
    const auto timing = sim::predict_program(program, network, 1);
    const double first = 2e-3 + 1 / 50e6;  // h2 -> h1: 1 byte
    const double arrival = first + 2e-3 + static_cast<double>(elements) / 100e6;
    EXPECT_NEAR(timing.rank_finish[1], arrival, 1e-9) << elements;
    EXPECT_NEAR(timing.rank_finish[0], elements < 65536 ? 0.0 : arrival, 1e-9) << elements;
  }
}

TEST(ProgramSimulation, SynchronousSendsCompleteOnArrival) {
  const auto platform = star();
  const auto network = network_of(platform);
  CommProgram program(4, "ssend");
  program.blocking_send(0, 1, {0, 0, 10}, /*synchronous=*/true);
  program.blocking_receive(1, 0, {0, 0, 10});
  const auto timing = sim::predict_program(program, network, 1);
  EXPECT_NEAR(timing.rank_finish[0], 2e-3 + 10 / 100e6, 1e-12);
}

TEST(ProgramSimulation, ABackboneIsSharedByEveryPair) {
  // 0 -> 1 and 2 -> 3 (1 MB each) through a 20 MB/s backbone: 10 MB/s each.
  const auto platform = star("SHARED", 20);
  const auto network = network_of(platform);
  CommProgram program(4, "backbone");
  program.blocking_send(0, 1, {0, 0, 1000000});
  program.blocking_receive(1, 0, {0, 0, 1000000});
  program.blocking_send(2, 3, {0, 0, 1000000});
  program.blocking_receive(3, 2, {0, 0, 1000000});
  const auto timing = sim::predict_program(program, network, 1);
  EXPECT_NEAR(timing.makespan, 2e-3 + 0.1, 1e-9);
}

TEST(ProgramSimulation, AMessageNeverSentLeavesItsReceiverStuck) {
  const auto platform = star();
  const auto network = network_of(platform);
  CommProgram program(4, "stuck");
  program.blocking_receive(1, 0, {0, 0, 1});
  EXPECT_THROW(check_program(program, 1), InputError);
  const auto timing = sim::predict_program(program, network, 1);
  EXPECT_FALSE(timing.completed());
  EXPECT_EQ(timing.stuck_ranks, std::vector<int>{1});
}

TEST(CommProgram, CheckNamesTheBadStep) {
  CommProgram program(2, "bad");
  program.add(0, ProgramStep::send_of(1, {0, 0, 5}));
  program.blocking_receive(1, 0, {0, 0, 5});
  try {
    check_program(program, 5);
    FAIL() << "a request never waited for must be refused";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("rank 0, step 0: request never waited for"), std::string::npos)
        << error.what();
  }
  CommProgram out_of_range(2, "range");
  out_of_range.blocking_send(0, 1, {0, 3, 5});
  out_of_range.blocking_receive(1, 0, {0, 0, 5});
  EXPECT_THROW(check_program(out_of_range, 5), InputError);
}

}  // namespace
}  // namespace hetcoll
