// Site plans (makespan/sites/site_collectives.h): sites found from the
// platform, programs that compute the collective (verify_program) on seeded
// random multi-site NIC clusters, the WAN crossed by one message's worth
// per site and direction, and the chooser's candidate hetcoll:sites.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"
#include "hetcoll/makespan/sites/site_collectives.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/registry/program_chooser.h"
#include "hetcoll/sim/program_simulation.h"
#include "hetcoll/verify/verify_program.h"
#include "support/nic_cluster.h"

namespace hetcoll {
namespace {

using testing::multi_site_nic_cluster;
using testing::nic_cluster;

// scripts/mpi-bench-default's two-site platform: 8 hosts of 125 MB/s and 8
// of 62.5 MB/s, 20 µs (40 µs) LAN latency, a 12.5 MB/s 5 ms WAN.
LoadedPlatform bench_two_site() {
  return multi_site_nic_cluster({std::vector<double>(8, 125), std::vector<double>(8, 62.5)}, 20, 5000, 12.5);
}

// Elements carried by messages between ranks of different sites, per
// ordered pair of sites.
std::vector<std::vector<std::size_t>> wan_elements(const CommProgram& program,
                                                   const std::vector<std::vector<int>>& sites) {
  std::vector<std::size_t> site_of(static_cast<std::size_t>(program.ranks));
  for (std::size_t s = 0; s < sites.size(); ++s) {
    for (int r : sites[s]) site_of[static_cast<std::size_t>(r)] = s;
  }
  std::vector<std::vector<std::size_t>> elements(sites.size(), std::vector<std::size_t>(sites.size(), 0));
  for (int r = 0; r < program.ranks; ++r) {
    for (const auto& step : program.steps[static_cast<std::size_t>(r)]) {
      if (step.kind != ProgramStep::Kind::send) continue;
      const auto from = site_of[static_cast<std::size_t>(r)], to = site_of[static_cast<std::size_t>(step.peer)];
      if (from != to) elements[from][to] += step.data.count;
    }
  }
  return elements;
}

TEST(SiteCollectives, SitesAreFoundByLatencyAndOneSiteIsRefused) {
  const auto two = bench_two_site();
  const auto members = two.graph().participants();
  const FlowNetwork network(two.graph(), members);
  const auto sites = sites_of_ranks(two.graph(), members, network);
  ASSERT_EQ(sites.size(), 2u);
  EXPECT_EQ(sites[0], (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(sites[1], (std::vector<int>{8, 9, 10, 11, 12, 13, 14, 15}));

  // Hosts of speeds 1, 2 and 4 on one LAN are one site.
  const auto one = nic_cluster(12, {100, 50, 25}, 20);
  const auto one_members = one.graph().participants();
  const FlowNetwork one_network(one.graph(), one_members);
  EXPECT_EQ(sites_of_ranks(one.graph(), one_members, one_network).size(), 1u);
  EXPECT_THROW(plan_site_collective(one.graph(), one_members, one_network, Operation::broadcast, 0, 100, 4),
               InputError);
  CallShape call;
  call.count = 100;
  call.element_bytes = 4;
  EXPECT_THROW(candidate_program(one, one_members, call, "hetcoll:sites"), InputError);
  const auto choice = choose_program(one, one_members, call);
  for (const auto& candidate : choice.candidates) {
    if (candidate.name == "hetcoll:sites") {
      EXPECT_FALSE(candidate.refused.empty());
    }
  }
}

TEST(SiteCollectives, DeclaredSitesAreTheSites) {
  // A JSON graph whose two sites have equal latencies: only the declared
  // names separate them.
  const std::string json = R"({"model": "graph", "symmetric": true,
    "nodes": [{"id": "a0", "site": "east"}, {"id": "a1", "site": "east"}, {"id": "b0", "site": "west"},
              {"id": "b1", "site": "west"}, {"id": "s", "router": true}],
    "edges": [{"from": "a0", "to": "s", "latency": 1e-5, "bandwidth": 1e8},
              {"from": "a1", "to": "s", "latency": 1e-5, "bandwidth": 1e8},
              {"from": "b0", "to": "s", "latency": 1e-5, "bandwidth": 1e8},
              {"from": "b1", "to": "s", "latency": 1e-5, "bandwidth": 1e8}]})";
  const auto platform = parse_platform_json(json, "declared.json");
  const auto members = platform.graph().participants();
  const FlowNetwork network(platform.graph(), members);
  const auto sites = sites_of_ranks(platform.graph(), members, network);
  ASSERT_EQ(sites.size(), 2u);
  EXPECT_EQ(sites[0], (std::vector<int>{0, 1}));
  EXPECT_EQ(sites[1], (std::vector<int>{2, 3}));
}

// Seeded random clusters of 2-3 sites of 1-5 hosts: every plan's program
// is well formed, computes its collective, is timed as planned, and crosses
// each WAN cut with exactly one message's worth per site (per remote rank
// for direct plans) (broadcast: root
// site to every other; reduce: every other to the root's; all-reduce:
// every ordered pair).
TEST(SiteCollectives, RandomMultiSiteClustersEveryProgramVerified) {
  std::mt19937_64 rng(2026);
  std::uniform_int_distribution<int> site_count(2, 3), hosts(1, 5);
  std::uniform_real_distribution<double> mbps(5, 200), latency(5, 100), wan_latency(2000, 20000), wan_mbps(1, 50);
  int plans = 0;
  for (int trial = 0; trial < 15; ++trial) {
    std::vector<std::vector<double>> sites_up(static_cast<std::size_t>(site_count(rng)));
    for (auto& site : sites_up) {
      // One site of two hosts or more: sites of one host each have no route
      // inside a site to set the LAN's latency apart (declared sites do).
      site.resize(static_cast<std::size_t>(std::max(hosts(rng), &site == &sites_up[0] ? 2 : 1)));
      for (auto& up : site) up = mbps(rng);
    }
    const auto platform = multi_site_nic_cluster(sites_up, latency(rng), wan_latency(rng), wan_mbps(rng));
    const auto members = platform.graph().participants();
    const int ranks = static_cast<int>(members.size());
    const FlowNetwork network(platform.graph(), members);
    const auto sites = sites_of_ranks(platform.graph(), members, network);
    ASSERT_EQ(sites.size(), sites_up.size()) << "trial " << trial;
    for (auto operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
      for (std::size_t count : {std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{9000}}) {
        const int root = operation == Operation::allreduce ? 0 : std::uniform_int_distribution<int>(0, ranks - 1)(rng);
        const auto what = fmt::format("trial {} {} count {} root {}", trial, to_string(operation), count, root);
        const auto plan = plan_site_collective(platform.graph(), members, network, operation, root, count, 4);
        const auto program = program_of_site_plan(plan);
        ASSERT_NO_THROW(check_program(program, count, what)) << what;
        const auto report = verify_program(program, operation, root, count);
        ASSERT_TRUE(report.valid) << what << ": " << report.summary();
        const auto timing = sim::predict_program(program, network, 4);
        ASSERT_TRUE(timing.completed()) << what;
        EXPECT_DOUBLE_EQ(timing.makespan, plan.predicted_seconds) << what;
        ASSERT_EQ(plan.sites, sites) << what;
        const auto crossing = wan_elements(program, sites);
        std::size_t root_site = 0;
        for (std::size_t s = 0; s < sites.size(); ++s) {
          if (std::find(sites[s].begin(), sites[s].end(), root) != sites[s].end()) root_site = s;
        }
        for (std::size_t a = 0; a < sites.size(); ++a) {
          for (std::size_t b = 0; b < sites.size(); ++b) {
            if (a == b) continue;
            const bool crosses = operation == Operation::allreduce || (operation == Operation::broadcast && a == root_site) ||
                                 (operation == Operation::reduce && b == root_site);
            // Direct plans: one message per rank of the remote site.
            const std::size_t remote = operation == Operation::broadcast ? b : a;
            const std::size_t messages = plan.direct ? sites[remote].size() : 1;
            EXPECT_EQ(crossing[a][b], crosses ? count * messages : 0) << what << ", sites " << a << " -> " << b;
          }
        }
        ++plans;
      }
    }
  }
  EXPECT_EQ(plans, 15 * 3 * 4);
}

// The chooser's candidate is the planner's program, verified, on a random
// two-site cluster; non-commutative reduces refuse it.
TEST(SiteCollectives, TheChoosersCandidateIsThePlannersProgram) {
  const auto platform = multi_site_nic_cluster({{100, 100, 40}, {60, 60, 60, 20}}, 30, 3000, 10);
  const auto members = platform.graph().participants();
  const FlowNetwork network(platform.graph(), members);
  for (auto operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
    CallShape call;
    call.operation = operation;
    call.root = operation == Operation::allreduce ? 0 : 5;
    call.count = 5000;
    call.element_bytes = 4;
    const auto program = candidate_program(platform, members, call, "hetcoll:sites");
    EXPECT_TRUE(verify_program(program, operation, call.root, call.count).valid) << to_string(operation);
    const auto plan = plan_site_collective(platform.graph(), members, network, operation, call.root, call.count, 4);
    EXPECT_NEAR(predict_candidate(platform, members, network, call, "hetcoll:sites"), plan.predicted_seconds,
                1e-12 + 1e-9 * plan.predicted_seconds);
    if (operation != Operation::broadcast) {
      call.commutative = false;
      EXPECT_THROW(candidate_program(platform, members, call, "hetcoll:sites"), InputError);
    }
  }
}

// On the benchmark's two-site grid the WAN dominates large calls: the site
// plan is predicted faster than every MPI algorithm by 1.2x or more from
// 16384 ints for broadcasts and reduces, and faster than every one for
// all-reduces; the chooser picks it.
TEST(SiteCollectives, OnTheTwoSiteGridTheSitePlanWinsWhereTheWanDominates) {
  const auto platform = bench_two_site();
  const auto members = platform.graph().participants();
  for (auto operation : {Operation::broadcast, Operation::reduce, Operation::allreduce}) {
    for (std::size_t count : {std::size_t{16384}, std::size_t{262144}}) {
      CallShape call;
      call.operation = operation;
      call.count = count;
      call.element_bytes = 4;
      const auto choice = choose_program(platform, members, call);
      double sites = 0, fastest_mpi = std::numeric_limits<double>::infinity();
      for (const auto& candidate : choice.candidates) {
        if (candidate.name == "hetcoll:sites") sites = candidate.predicted_seconds;
        if (candidate.name.starts_with("mpi:")) fastest_mpi = std::min(fastest_mpi, candidate.predicted_seconds);
      }
      const auto what = fmt::format("{} of {} ints", to_string(operation), count);
      EXPECT_EQ(choice.chosen, "hetcoll:sites") << what;
      EXPECT_LT(sites * (operation == Operation::broadcast ? 1.2 : operation == Operation::reduce ? 1.1 : 1.0), fastest_mpi) << what;
    }
  }
}

TEST(SiteCollectives, BadCallsAreRefused) {
  const auto platform = bench_two_site();
  const auto members = platform.graph().participants();
  const FlowNetwork network(platform.graph(), members);
  EXPECT_THROW(plan_site_collective(platform.graph(), members, network, Operation::broadcast, 0, 0, 4), InputError);
  EXPECT_THROW(plan_site_collective(platform.graph(), members, network, Operation::reduce, 16, 10, 4), InputError);
  EXPECT_THROW(plan_site_collective(platform.graph(), members, network, Operation::scatter, 0, 10, 4), InputError);
}

}  // namespace
}  // namespace hetcoll
