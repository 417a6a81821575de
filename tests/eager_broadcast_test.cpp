// The eager model (model/eager_model.h) and its broadcast planner
// (makespan/eager/eager_broadcast.h): every plan passes verify/, its times
// are re-evaluated here from the platform's routes with code independent of
// the library's, the bound is checked against exhaustive search over every
// tree and send order (up to 6 participants), and the verifier rejects
// plans that break the eager rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <sstream>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/eager/eager_broadcast.h"
#include "hetcoll/model/eager_model.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/verify/verify.h"
#include "support/eager_support.h"

namespace hetcoll {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

using testing::brute_force_eager_broadcast;
using testing::homogeneous_complete;
using testing::independent_cost;
using testing::independent_costs;
using testing::liu_kuo_wang_sender_speed_graph;
using testing::Pair;
using testing::random_eager_platform;

// Re-evaluates a plan in the eager model from the platform alone: each
// sender's transfers in the plan's order, the first starting when it
// received, each next one when the previous has left its link (after its
// occupancy), each lasting its route's time. Returns the completion time;
// fails the test on any disagreement.
double reevaluate(const Platform& platform, const MakespanPlan& plan, double size) {
  std::map<ProcessorIndex, double> holds{{plan.root, 0.0}};
  std::map<ProcessorIndex, double> occupied;
  // Senders in the plan's order of start times; a receiver's time is known
  // before it sends (its transfer ends before its sends start).
  double completion = 0;
  for (const auto& t : plan.transfers) {
    EXPECT_TRUE(holds.count(t.from)) << platform.id(t.from) << " sends before it received";
    if (!holds.count(t.from)) return kInf;
    const Pair pair = independent_cost(platform, t.from, t.to, size);
    EXPECT_NEAR(t.start, holds[t.from] + occupied[t.from], 1e-9 * t.start + 1e-15);
    occupied[t.from] += pair.occupancy;
    const double arrival = holds[t.from] + pair.delay + occupied[t.from];
    EXPECT_NEAR(t.end - t.start, pair.delay + pair.occupancy, 1e-9 * arrival + 1e-15);
    EXPECT_NEAR(t.end, arrival, 1e-9 * arrival + 1e-15);
    EXPECT_FALSE(holds.count(t.to)) << platform.id(t.to) << " receives twice";
    holds[t.to] = arrival;
    completion = std::max(completion, arrival);
  }
  EXPECT_EQ(holds.size(), platform.participants().size());
  return completion;
}

// The optimal eager broadcast by exhaustive search over every tree (a
// parent for each member) and every send order of every node's children
// (tests/support/eager_support.h), on costs computed independently of the
// library's.
double brute_force_eager(const Platform& platform, ProcessorIndex source, double size) {
  const auto members = platform.participants();
  const auto s = static_cast<std::size_t>(std::find(members.begin(), members.end(), source) - members.begin());
  return brute_force_eager_broadcast(independent_costs(platform, size), s);
}

void expect_valid(const GraphNetwork& network, const MakespanPlan& plan) {
  const VerifyReport report = verify(network, plan);
  EXPECT_TRUE(report.valid) << report.summary();
}

TEST(EagerBroadcast, RandomPlatformsPlansAreValidAndReevaluateExactly) {
  std::mt19937_64 rng(20261127);
  const double sizes[] = {16, 256, 4096, 65536};
  for (int instance = 0; instance < 60; ++instance) {
    const int hosts = 2 + static_cast<int>(rng() % 11);
    const Platform platform = random_eager_platform(rng, hosts, static_cast<int>(rng() % 3), instance % 3 == 0);
    const double size = sizes[rng() % 4];
    const GraphNetwork network(platform, size);
    const ProcessorIndex source = static_cast<ProcessorIndex>(rng() % static_cast<unsigned>(hosts));
    SCOPED_TRACE(::testing::Message() << "instance " << instance << ", " << hosts << " hosts, " << size << " bytes");
    const MakespanPlan flat = plan_eager_broadcast(network, source, EagerHeuristic::flat);
    const MakespanPlan best = plan_eager_broadcast(network, source, EagerHeuristic::automatic);
    for (const auto* plan : {&flat, &best}) {
      EXPECT_EQ(plan->model, PlanModel::eager);
      EXPECT_EQ(plan->operation, Operation::broadcast);
      EXPECT_EQ(plan->transfers.size(), static_cast<std::size_t>(hosts - 1));
      expect_valid(network, *plan);
      EXPECT_NEAR(reevaluate(platform, *plan, size), plan->makespan, 1e-9 * plan->makespan);
      EXPECT_LE(plan->lower_bound, plan->makespan * (1 + 1e-9));
      if (plan->optimal) { EXPECT_DOUBLE_EQ(plan->lower_bound, plan->makespan); }
      ASSERT_FALSE(plan->notes.empty());
      EXPECT_EQ(plan->notes.front().rfind("eager model: ", 0), 0u);
    }
    EXPECT_EQ(flat.algorithm, "eager-flat");
    EXPECT_EQ(best.algorithm, "eager-auto");
    EXPECT_LE(best.makespan, flat.makespan * (1 + 1e-12));
    for (const auto& t : flat.transfers) EXPECT_EQ(t.from, source);
    if (hosts <= 6) {
      const double optimum = brute_force_eager(platform, source, size);
      EXPECT_LE(best.lower_bound, optimum * (1 + 1e-9));
      EXPECT_GE(best.makespan, optimum * (1 - 1e-9));
      if (best.optimal) { EXPECT_NEAR(best.makespan, optimum, 1e-9 * optimum); }
    }
  }
}

TEST(EagerBroadcast, SendOrderIsOptimalForEachTree) {
  // time_eager_tree's Jackson order against every order, on random trees.
  std::mt19937_64 rng(7);
  for (int instance = 0; instance < 40; ++instance) {
    const int hosts = 3 + static_cast<int>(rng() % 4);
    const Platform platform = random_eager_platform(rng, hosts, 0, false);
    const GraphNetwork network(platform, 1024.0);
    const EagerMatrix matrix(network, platform.participants());
    std::vector<std::size_t> parent(static_cast<std::size_t>(hosts), EagerTree::npos);
    for (std::size_t v = 1; v < parent.size(); ++v) parent[v] = rng() % v;  // a random tree rooted at 0
    const EagerTree tree = time_eager_tree(matrix, 0, parent);
    // Exhaustive: every combination of child orders of this tree.
    std::vector<std::vector<std::size_t>> children(parent.size());
    for (std::size_t v = 1; v < parent.size(); ++v) children[parent[v]].push_back(v);
    double best = kInf;
    std::function<void(std::size_t)> order = [&](std::size_t u) {
      if (u == children.size()) {
        std::vector<double> arrival(children.size(), 0);
        for (std::size_t w = 0; w < children.size(); ++w) {  // parents precede children (parent[v] < v)
          double occupied = 0;
          for (auto c : children[w]) {
            const Pair pair = independent_cost(platform, static_cast<ProcessorIndex>(w), static_cast<ProcessorIndex>(c), 1024.0);
            occupied += pair.occupancy;
            arrival[c] = arrival[w] + pair.delay + occupied;
          }
        }
        best = std::min(best, *std::max_element(arrival.begin(), arrival.end()));
        return;
      }
      do {
        order(u + 1);
      } while (std::next_permutation(children[u].begin(), children[u].end()));
    };
    order(0);
    EXPECT_NEAR(tree.makespan, best, 1e-9 * best) << "instance " << instance;
  }
}

TEST(EagerBroadcast, HomogeneousCompleteGraphMeetsThePostalOptimum) {
  // One latency and one bandwidth everywhere: the postal model with
  // lambda = 1 + d / o. The bound is the postal optimum; auto's greedy tree
  // meets it. Exhaustive search confirms it up to 6 hosts.
  for (double size : {4.0, 256.0, 4096.0, 65536.0}) {
    for (int hosts = 2; hosts <= 40; ++hosts) {
      const Platform platform = homogeneous_complete(hosts, 5e-5, 1.25e7);
      const GraphNetwork network(platform, size);
      const MakespanPlan plan = plan_eager_broadcast(network, 0);
      SCOPED_TRACE(::testing::Message() << hosts << " hosts, " << size << " bytes");
      expect_valid(network, plan);
      const double postal = postal_broadcast_time(static_cast<std::size_t>(hosts), size / 1.25e7, 5e-5);
      EXPECT_NEAR(plan.lower_bound, postal, 1e-9 * postal);
      EXPECT_NEAR(plan.makespan, postal, 1e-9 * postal);
      EXPECT_TRUE(plan.optimal);
      if (hosts <= 6) { EXPECT_NEAR(brute_force_eager(platform, 0, size), postal, 1e-9 * postal); }
    }
  }
}

TEST(EagerBroadcast, PostalTimeMatchesTheRecurrence) {
  // Bar-Noy and Kipnis: with o = 1 and lambda = d + 1, N(t) = N(t-1) +
  // N(t-lambda) nodes by time t (1 before lambda). lambda = 2: Fibonacci,
  // 1, 1, 2, 3, 5, 8 nodes by t = 0..5, so 8 nodes by time 5, 9 by time 6.
  EXPECT_EQ(postal_broadcast_time(1, 1, 1), 0);
  EXPECT_EQ(postal_broadcast_time(2, 1, 1), 2);
  EXPECT_EQ(postal_broadcast_time(3, 1, 1), 3);
  EXPECT_EQ(postal_broadcast_time(5, 1, 1), 4);
  EXPECT_EQ(postal_broadcast_time(8, 1, 1), 5);
  EXPECT_EQ(postal_broadcast_time(9, 1, 1), 6);
  // lambda = 1 (no delay): doubling, n = 2^t by time t.
  EXPECT_EQ(postal_broadcast_time(8, 1, 0), 3);
  EXPECT_EQ(postal_broadcast_time(9, 1, 0), 4);
  // No occupancy: everyone at once after the delay.
  EXPECT_EQ(postal_broadcast_time(100, 0, 3), 3);
}

TEST(EagerBroadcast, LiuKuoWangClusterPrefersTheFlatTreeForSmallMessages) {
  // The 8-host cluster of scripts/nic-platform: four hosts at 50 us and
  // 12.5 MB/s, four 1.6x slower; a route is the sender's up link and the
  // receiver's down link (12.5 MB/s, no latency). 16 bytes: the latency
  // dominates, and the flat tree is optimal: 50 us + 7 x 1.28 us.
  const Platform platform = liu_kuo_wang_sender_speed_graph();
  const GraphNetwork network(platform, 16.0);
  const MakespanPlan plan = plan_eager_broadcast(network, 0);
  expect_valid(network, plan);
  EXPECT_NEAR(plan.makespan, 5e-5 + 7 * 16 / 1.25e7, 1e-15);
  EXPECT_TRUE(plan.optimal);  // the farthest chain is 51.28 us; no tree of depth 2 beats 2 x 50 us
  for (const auto& t : plan.transfers) EXPECT_EQ(t.from, 0);
}

MakespanPlan sample_plan(const GraphNetwork& network) {
  // Source h0, fan-out 2 then 2 more below: a plan with several senders.
  MakespanPlan plan = plan_eager_broadcast(network, 0);
  EXPECT_TRUE(verify(network, plan).valid);
  return plan;
}

bool mentions(const VerifyReport& report, const std::string& text) {
  for (const auto& v : report.violations) {
    if (v.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(EagerBroadcast, VerifierRejectsPlansThatBreakTheEagerRules) {
  const Platform platform = homogeneous_complete(9, 5e-5, 1.25e7);
  const GraphNetwork network(platform, 65536.0);  // occupancy 5.2 ms >> latency: a deep tree
  MakespanPlan plan = sample_plan(network);
  ASSERT_GE(plan.transfers.size(), 8u);
  // A sender with at least two sends.
  std::size_t first = plan.transfers.size(), second = plan.transfers.size();
  for (std::size_t i = 0; i < plan.transfers.size() && second == plan.transfers.size(); ++i) {
    for (std::size_t j = i + 1; j < plan.transfers.size(); ++j) {
      if (plan.transfers[j].from == plan.transfers[i].from) {
        first = i;
        second = j;
        break;
      }
    }
  }
  ASSERT_LT(second, plan.transfers.size());
  {  // A send that starts before the sender's previous one has left its link.
    MakespanPlan bad = plan;
    bad.transfers[second].start -= 1e-3;
    bad.transfers[second].end -= 1e-3;
    const auto report = verify(network, bad);
    EXPECT_FALSE(report.valid);
    EXPECT_TRUE(mentions(report, "before its previous one")) << report.summary();
  }
  {  // All of a sender's sends at its first one's start, each lasting the
     // latency plus the occupancies so far (the same arrivals, but the
     // sends' durations are not their routes' times).
    MakespanPlan bad = plan;
    bad.transfers[second].start = bad.transfers[first].start;
    const auto report = verify(network, bad);
    EXPECT_FALSE(report.valid);
    EXPECT_TRUE(mentions(report, "eager model: lasts")) << report.summary();
  }
  {  // A sender that sends before it holds the message.
    MakespanPlan bad = plan;
    const ProcessorIndex sender = plan.transfers[second].from;
    for (auto& t : bad.transfers) {
      if (t.from == sender) {
        t.start -= 1e-2;
        t.end -= 1e-2;
      }
    }
    const auto report = verify(network, bad);
    EXPECT_FALSE(report.valid);
  }
  {  // A send lasting longer than its route (one-port's reading of a send
     // that starts with its sender's first one).
    MakespanPlan bad = plan;
    bad.transfers[second].end += 5e-5;
    const auto report = verify(network, bad);
    EXPECT_FALSE(report.valid);
    EXPECT_TRUE(mentions(report, "eager model: lasts")) << report.summary();
  }
  {  // An optimality claim without the bound to prove it.
    MakespanPlan bad = plan_eager_broadcast(network, 0, EagerHeuristic::flat);
    ASSERT_FALSE(bad.optimal);
    bad.optimal = true;
    const auto report = verify(network, bad);
    EXPECT_FALSE(report.valid);
    EXPECT_TRUE(mentions(report, "claims to be optimal")) << report.summary();
  }
  {  // A bound above the makespan.
    MakespanPlan bad = plan;
    bad.lower_bound = plan.makespan * 1.5;
    EXPECT_FALSE(verify(network, bad).valid);
  }
  {  // Neither a broadcast nor a reduce.
    MakespanPlan bad = plan;
    bad.operation = Operation::allreduce;
    const auto report = verify(network, bad);
    EXPECT_FALSE(report.valid);
    EXPECT_TRUE(mentions(report, "broadcasts and reduces only")) << report.summary();
  }
  {  // A broadcast read as a reduce: the source sends, nobody sends once.
    MakespanPlan bad = plan;
    bad.operation = Operation::reduce;
    EXPECT_FALSE(verify(network, bad).valid);
  }
  {  // The same transfers judged by the one-port graph rules: sends overlap.
    MakespanPlan one_port = plan;
    one_port.model = PlanModel::platform_graph;
    EXPECT_FALSE(verify(network, one_port).valid);
  }
}

TEST(EagerBroadcast, PlanJsonKeepsTheModel) {
  const Platform platform = homogeneous_complete(6, 2e-5, 1.25e8);
  const GraphNetwork network(platform, 4096.0);
  const MakespanPlan plan = sample_plan(network);
  std::ostringstream out;
  write_plan_json(out, plan, platform);
  EXPECT_NE(out.str().find("\"model\": \"eager\""), std::string::npos);
  const MakespanPlan back = parse_plan_json(out.str(), platform, "plan.json");
  EXPECT_EQ(back.model, PlanModel::eager);
  EXPECT_EQ(back.transfers.size(), plan.transfers.size());
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    EXPECT_EQ(back.transfers[i].from, plan.transfers[i].from);
    EXPECT_EQ(back.transfers[i].to, plan.transfers[i].to);
  }
  const GraphNetwork read_back(platform, back.message_size);
  EXPECT_TRUE(verify(read_back, back).valid) << verify(read_back, back).summary();
  EXPECT_EQ(plan_model_from_string("eager"), PlanModel::eager);
  EXPECT_STREQ(to_string(PlanModel::eager), "eager");
}

TEST(EagerBroadcast, RefusesTooManyParticipantsAndRouters) {
  std::vector<PlatformNode> nodes;
  for (std::size_t h = 0; h <= kEagerMemberCap; ++h) nodes.push_back(PlatformNode::host(std::string("h").append(std::to_string(h))));
  const Platform big(std::move(nodes), {}, "big");
  const GraphNetwork network(big, std::nullopt);
  try {
    EagerMatrix matrix(network, big.participants());
    ADD_FAILURE() << "no error";
  } catch (const InputError& error) {
    EXPECT_EQ(error.parameter(), "participants");
    EXPECT_NE(std::string(error.what()).find("4097"), std::string::npos) << error.what();
  }
  std::mt19937_64 rng(3);
  const Platform platform = random_eager_platform(rng, 4, 1, false);
  const GraphNetwork small(platform, 8.0);
  EXPECT_THROW(plan_eager_broadcast(small, 4), InputError);  // r0, a router
  EXPECT_EQ(eager_heuristic_from_string("flat"), EagerHeuristic::flat);
  EXPECT_EQ(eager_heuristic_from_string("binomial"), EagerHeuristic::binomial);
  EXPECT_EQ(eager_heuristic_from_string("4-nomial"), EagerHeuristic::knomial4);
  EXPECT_EQ(eager_heuristic_from_string("3-nomial"), std::nullopt);
}

}  // namespace
}  // namespace hetcoll
