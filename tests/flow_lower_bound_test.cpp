// The flow model's lower bound on every schedule (makespan/flow_lower_bound.h):
// never above the flow model's time of any candidate the chooser knows
// (MPI libraries' algorithms, hetcoll's plans) on seeded random platforms
// and sizes, and equal to the optimum where one is known.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/gen/random_platform.h"
#include "hetcoll/makespan/flow_lower_bound.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/model/simgrid/simgrid_xml.h"
#include "hetcoll/registry/program_chooser.h"
#include "hetcoll/sim/program_simulation.h"
#include "support/nic_cluster.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

using testing::multi_site_nic_cluster;
using testing::nic_cluster;

constexpr double kEnvelope = sim::kSmpiEnvelopeBytes;

CallShape call_of(Operation operation, std::size_t count, int root) {
  CallShape call;
  call.operation = operation;
  call.root = root;
  call.count = count;
  call.element_bytes = 4;
  return call;
}

struct Checked {
  double bound = 0;
  double fastest = std::numeric_limits<double>::infinity();
  std::string fastest_name;
};

// The bound against every candidate the chooser predicts for the call.
Checked check_below_every_candidate(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& members,
                                    const CallShape& call) {
  const FlowNetwork network(platform.graph(), members);
  const auto bound = flow_lower_bound(network, call.operation, static_cast<std::size_t>(call.root), call.count,
                                      call.element_bytes, kEnvelope);
  ChooserOptions options;
  options.flow.envelope_bytes = kEnvelope;
  const auto choice = choose_program(platform, members, call, options);
  Checked checked;
  checked.bound = bound.seconds;
  EXPECT_GT(bound.seconds, 0);
  for (const auto& candidate : choice.candidates) {
    if (!candidate.refused.empty()) continue;
    EXPECT_LE(bound.seconds, candidate.predicted_seconds * (1 + 1e-9))
        << candidate.name << " is predicted below the bound (" << bound.binding << ")";
    if (candidate.predicted_seconds < checked.fastest) {
      checked.fastest = candidate.predicted_seconds;
      checked.fastest_name = candidate.name;
    }
  }
  return checked;
}

std::vector<ProcessorIndex> hosts_of(const LoadedPlatform& platform) { return platform.graph().participants(); }

// scripts/nic-platform's seed cluster (Liu, Kuo, Wang 2009 sec. 6.1): host
// of factor f has an up link of 12.5 / f MB/s and f x 50 us, a down link of
// 12.5 MB/s; four hosts of factor 1, four of 1.6.
LoadedPlatform seed_cluster() {
  std::string xml = R"(<?xml version='1.0'?><!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1"><zone id="z" routing="Full">)";
  const double factor[] = {1, 1, 1, 1, 1.6, 1.6, 1.6, 1.6};
  for (int i = 0; i < 8; ++i) xml += fmt::format(R"(<host id="h{}" speed="1Gf"/>)", i);
  for (int i = 0; i < 8; ++i) {
    xml += fmt::format(R"(<link id="h{}_up" bandwidth="{}Bps" latency="{}s"/>)", i, 1.25e7 / factor[i],
                       5e-5 * factor[i]);
    xml += fmt::format(R"(<link id="h{}_down" bandwidth="1.25e7Bps" latency="0s"/>)", i);
  }
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) {
      if (i != j) {
        xml += fmt::format(R"(<route src="h{}" dst="h{}" symmetrical="NO"><link_ctn id="h{}_up"/>)"
                           R"(<link_ctn id="h{}_down"/></route>)",
                           i, j, i, j);
      }
    }
  }
  return LoadedPlatform(parse_simgrid_xml(xml + "</zone></platform>", "seed.xml"), "seed.xml");
}

TEST(FlowLowerBound, NeverAboveAnyCandidateOnRandomNicClusters) {
  std::mt19937 random(20261128);
  double tightest = 0;
  for (int instance = 0; instance < 15; ++instance) {
    const int hosts = std::uniform_int_distribution<int>(2, 10)(random);
    std::vector<double> up_mbps;
    for (int h = 0; h < hosts; ++h) up_mbps.push_back(std::uniform_real_distribution<double>(5, 200)(random));
    const double latency_us = std::uniform_real_distribution<double>(1, 100)(random);
    const auto platform = nic_cluster(hosts, up_mbps, latency_us);
    const std::size_t counts[] = {1, 16, 300, 5000, 70000};
    const auto operation = std::array{Operation::broadcast, Operation::reduce, Operation::allreduce}[instance % 3];
    const auto count = counts[(instance / 3) % 5];
    const int root = std::uniform_int_distribution<int>(0, hosts - 1)(random);
    SCOPED_TRACE(fmt::format("instance {}: {} hosts, {} of {} ints, root {}", instance, hosts, to_string(operation),
                             count, root));
    const auto checked = check_below_every_candidate(platform, hosts_of(platform), call_of(operation, count, root));
    tightest = std::max(tightest, checked.bound / checked.fastest);
  }
  // Not vacuous: somewhere the bound meets the best candidate within 10 %.
  EXPECT_GT(tightest, 0.9);
}

TEST(FlowLowerBound, NeverAboveAnyCandidateAcrossSites) {
  std::mt19937 random(7);
  for (int instance = 0; instance < 9; ++instance) {
    std::vector<std::vector<double>> up(2);
    for (auto& site : up) {
      const int hosts = std::uniform_int_distribution<int>(1, 4)(random);
      for (int h = 0; h < hosts; ++h) site.push_back(std::uniform_real_distribution<double>(10, 150)(random));
    }
    const auto platform = multi_site_nic_cluster(up, 20, std::uniform_real_distribution<double>(100, 5000)(random),
                                                 std::uniform_real_distribution<double>(1, 20)(random));
    const auto members = hosts_of(platform);
    const auto operation = std::array{Operation::broadcast, Operation::reduce, Operation::allreduce}[instance % 3];
    const std::size_t count = std::array<std::size_t, 3>{4, 1024, 65536}[instance / 3];
    const int root = std::uniform_int_distribution<int>(0, static_cast<int>(members.size()) - 1)(random);
    SCOPED_TRACE(fmt::format("instance {}: {} hosts, {} of {} ints", instance, members.size(), to_string(operation),
                             count));
    check_below_every_candidate(platform, members, call_of(operation, count, root));
  }
}

// Random graphs: multi-hop routes whose links several routes share.
TEST(FlowLowerBound, NeverAboveAnyCandidateOnRandomGraphs) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    RandomPlatformOptions options;
    options.nodes = 6 + static_cast<int>(seed % 3);
    options.density = 0.35;
    options.latency = 2e-5 * static_cast<double>(seed);
    options.seed = seed;
    const LoadedPlatform platform(generate_random_platform(options), "random.json");
    const auto members = hosts_of(platform);
    const auto operation = std::array{Operation::broadcast, Operation::reduce, Operation::allreduce}[seed % 3];
    for (std::size_t count : {2u, 3000u, 100000u}) {
      SCOPED_TRACE(fmt::format("seed {}: {} of {} ints", seed, to_string(operation), count));
      check_below_every_candidate(platform, members, call_of(operation, count, static_cast<int>(seed) % 4));
    }
  }
}

TEST(FlowLowerBound, NeverAboveAnyCandidateOnSimGridsExamples) {
  for (const char* file : {"examples/small_platform.xml", "examples/fat-tree-2gen.xml"}) {
    const auto platform = load_platform_file(testing::source_path(file));
    const auto members = hosts_of(platform);
    for (auto operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
      for (std::size_t count : {4u, 4096u, 262144u}) {
        SCOPED_TRACE(fmt::format("{}: {} of {} ints", file, to_string(operation), count));
        check_below_every_candidate(platform, members, call_of(operation, count, 0));
      }
    }
  }
}

// A star whose hosts each have one up link (latency L, shared by their
// sends) and one down link: a tiny broadcast or reduce through a relay pays
// two latencies, so the flat tree, whose messages share the root's link
// after one, is optimal; the bound equals its prediction.
TEST(FlowLowerBound, EqualsTheFlatTreeAtTinySizesOnAStar) {
  const auto platform = seed_cluster();
  const auto members = hosts_of(platform);
  const FlowNetwork network(platform.graph(), members);
  sim::FlowModelOptions flow;
  flow.envelope_bytes = kEnvelope;
  // Broadcast of 4 ints: 50 us + 7 x 32 B / 12.5 MB/s = 67.92 us.
  const auto broadcast = flow_lower_bound(network, Operation::broadcast, 0, 4, 4, kEnvelope);
  const double flat = predict_candidate(platform, members, network, call_of(Operation::broadcast, 4, 0),
                                        "mpi:flattree", flow);
  EXPECT_NEAR(flat, 50e-6 + 7 * 32 / 12.5e6, 1e-12);
  EXPECT_NEAR(broadcast.seconds, flat, 1e-12 * flat);
  EXPECT_EQ(broadcast.binding, "direct or relayed");
  // Reduce of 4 ints: the four slow hosts' messages reach the root's down
  // link after 80 us and take 4 x 32 B / 12.5 MB/s: 90.24 us, the time of
  // SMPI's default reduce (its binomial tree sends to the root at once).
  const auto reduce = flow_lower_bound(network, Operation::reduce, 0, 4, 4, kEnvelope);
  EXPECT_NEAR(reduce.seconds, 80e-6 + 4 * 32 / 12.5e6, 1e-12);
  const auto checked = check_below_every_candidate(platform, members, call_of(Operation::reduce, 4, 0));
  EXPECT_NEAR(reduce.seconds, checked.fastest, 1e-9 * checked.fastest) << checked.fastest_name;
  // 16 ints: the root's down link takes the slow hosts' 4 x 80 B after 80 us:
  // 105.6 us, SMPI's default reduce's time again.
  const auto sixteen = check_below_every_candidate(platform, members, call_of(Operation::reduce, 16, 0));
  EXPECT_NEAR(flow_lower_bound(network, Operation::reduce, 0, 16, 4, kEnvelope).seconds, 80e-6 + 4 * 80 / 12.5e6,
              1e-12);
  EXPECT_NEAR(sixteen.bound, sixteen.fastest, 1e-9 * sixteen.fastest) << sixteen.fastest_name;
  // 64 ints (S = 272 B): the slow hosts sending straight to the root take
  // 80 us + 4 S / 12.5 MB/s = 167.04 us; otherwise one of their elements
  // is relayed: 80 us + 20 B x 1.6 / 12.5 MB/s, then 50 us + 20 B / 12.5
  // MB/s = 134.16 us (relays by the fast hosts do not lower it).
  EXPECT_NEAR(flow_lower_bound(network, Operation::reduce, 0, 64, 4, kEnvelope).seconds,
              80e-6 + 20 * 1.6 / 12.5e6 + 50e-6 + 20 / 12.5e6, 1e-12);
}

// Large messages: the root's up link (broadcast), the root's down link
// (reduce) and the WAN link carry the whole buffer at least once.
TEST(FlowLowerBound, CutsBindForLargeMessages) {
  const auto platform = nic_cluster(4, {100, 50, 50, 50}, 10);
  const FlowNetwork network(platform.graph(), hosts_of(platform));
  const double bytes = 1e6 * 4;
  const auto broadcast = flow_lower_bound(network, Operation::broadcast, 1, 1000000, 4, kEnvelope);
  EXPECT_GE(broadcast.seconds, 10e-6 + (bytes + kEnvelope) / 50e6 - 1e-12);
  const auto reduce = flow_lower_bound(network, Operation::reduce, 0, 1000000, 4, kEnvelope);
  EXPECT_GE(reduce.seconds, (bytes + kEnvelope) / 100e6);
  // All-reduce: 2 (n - 1) buffers over the up links of 100 + 3 x 50 MB/s.
  const auto allreduce = flow_lower_bound(network, Operation::allreduce, 0, 1000000, 4, kEnvelope);
  EXPECT_GE(allreduce.seconds, 6 * (bytes + kEnvelope) / 250e6);
  EXPECT_EQ(allreduce.binding, "traffic");

  const auto sites = multi_site_nic_cluster({{100, 100}, {100, 100}}, 10, 5000, 10);
  const FlowNetwork wan(sites.graph(), hosts_of(sites));
  const auto across = flow_lower_bound(wan, Operation::broadcast, 0, 1000000, 4, kEnvelope);
  EXPECT_GE(across.seconds, 5010e-6 + (bytes + kEnvelope) / 10e6 - 1e-12);
  EXPECT_EQ(across.binding, "cut");
}

TEST(FlowLowerBound, RefusesBadInputByParameter) {
  const auto platform = nic_cluster(3, {100}, 10);
  const FlowNetwork network(platform.graph(), hosts_of(platform));
  auto parameter_of = [&](auto call) {
    try {
      call();
    } catch (const InputError& error) {
      return std::string(error.parameter());
    }
    return std::string("no error");
  };
  EXPECT_EQ(parameter_of([&] { flow_lower_bound(network, Operation::reduce, 3, 4, 4, 0); }), "root");
  EXPECT_EQ(parameter_of([&] { flow_lower_bound(network, Operation::scatter, 0, 4, 4, 0); }), "operation");
  EXPECT_EQ(parameter_of([&] { flow_lower_bound(network, Operation::broadcast, 0, 4, 0, 0); }), "element_bytes");
  EXPECT_EQ(parameter_of([&] { flow_lower_bound(network, Operation::broadcast, 0, 4, 4, -1); }), "envelope_bytes");
  // An all-reduce ignores the root; nothing to move costs nothing.
  EXPECT_GT(flow_lower_bound(network, Operation::allreduce, 99, 4, 4, 0).seconds, 0);
  EXPECT_EQ(flow_lower_bound(network, Operation::allreduce, 0, 0, 4, 0).seconds, 0);
}

}  // namespace
}  // namespace hetcoll
