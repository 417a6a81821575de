// The eager reduce (makespan/eager/eager_reduce.h): every plan passes
// verify/ and an independent re-evaluation in the reduce model; the time
// reversal gives the makespan of the eager broadcast on the transposed
// costs (the planner's and, on tiny instances, the exhaustive optima of the
// two models computed independently); `optimal: true` claims hold against
// exhaustive search over every tree and receive order (up to 6
// participants); the verifier rejects plans that break the reduce's rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <sstream>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/eager/eager_broadcast.h"
#include "hetcoll/makespan/eager/eager_reduce.h"
#include "hetcoll/model/eager_model.h"
#include "hetcoll/plan/plan_json.h"
#include "hetcoll/verify/verify.h"
#include "support/eager_support.h"

namespace hetcoll {
namespace {

using testing::brute_force_eager_broadcast;
using testing::brute_force_eager_reduce;
using testing::homogeneous_complete;
using testing::independent_cost;
using testing::independent_costs;
using testing::liu_kuo_wang_sender_speed_graph;
using testing::Pair;
using testing::random_eager_platform;
using testing::transpose;

// Re-evaluates a reduce plan in the eager reduce model from the platform
// alone: durations are the routes' times, each receiver's windows [end -
// occupancy, end] are disjoint, every participant but the root sends once,
// after its children's arrivals. Returns the root's last arrival.
double reevaluate(const Platform& platform, const MakespanPlan& plan, double size) {
  std::map<ProcessorIndex, double> last_arrival;
  std::map<ProcessorIndex, std::vector<std::pair<double, double>>> windows;
  std::map<ProcessorIndex, int> sends;
  for (const auto& t : plan.transfers) {
    const Pair pair = independent_cost(platform, t.from, t.to, size);
    EXPECT_NEAR(t.end - t.start, pair.delay + pair.occupancy, 1e-9 * t.end + 1e-15);
    EXPECT_GE(t.start, -1e-15);
    windows[t.to].emplace_back(t.end - pair.occupancy, t.end);
    last_arrival[t.to] = std::max(last_arrival[t.to], t.end);
    ++sends[t.from];
  }
  for (auto& [node, list] : windows) {
    std::sort(list.begin(), list.end());
    for (std::size_t k = 1; k < list.size(); ++k) {
      EXPECT_GE(list[k].first, list[k - 1].second - 1e-9 * list[k].second) << platform.id(node) << "'s windows overlap";
    }
  }
  for (const auto& t : plan.transfers) {
    EXPECT_GE(t.start, last_arrival[t.from] - 1e-9 * t.start - 1e-15) << platform.id(t.from) << " sends too early";
  }
  EXPECT_EQ(sends.count(plan.root), 0u);
  for (auto p : platform.participants()) {
    if (p != plan.root) { EXPECT_EQ(sends[p], 1) << platform.id(p); }
  }
  return last_arrival[plan.root];
}

// The platform with every edge reversed: its routes are the reverses of the
// original's when the route choice has no ties.
Platform reversed(const Platform& platform) {
  std::vector<PlatformNode> nodes(platform.nodes().begin(), platform.nodes().end());
  std::vector<PlatformEdge> edges;
  for (auto edge : platform.edges()) {
    std::swap(edge.from, edge.to);
    edges.push_back(edge);
  }
  return Platform(std::move(nodes), std::move(edges), "reversed");
}

void expect_valid(const GraphNetwork& network, const MakespanPlan& plan) {
  const VerifyReport report = verify(network, plan);
  EXPECT_TRUE(report.valid) << report.summary();
}

TEST(EagerReduce, RandomPlatformsPlansAreValidAndAreTheBroadcastReversed) {
  std::mt19937_64 rng(20261128);
  const double sizes[] = {16, 256, 4096, 65536};
  int compared_with_reversed_platform = 0, brute_forced = 0;
  for (int instance = 0; instance < 80; ++instance) {
    const int hosts = 2 + static_cast<int>(rng() % 11);
    const Platform platform = random_eager_platform(rng, hosts, static_cast<int>(rng() % 3), instance % 3 == 0);
    const double size = sizes[rng() % 4];
    const GraphNetwork network(platform, size);
    const ProcessorIndex root = static_cast<ProcessorIndex>(rng() % static_cast<unsigned>(hosts));
    SCOPED_TRACE(::testing::Message() << "instance " << instance << ", " << hosts << " hosts, " << size << " bytes");
    const MakespanPlan flat = plan_eager_reduce(network, root, EagerHeuristic::flat);
    const MakespanPlan best = plan_eager_reduce(network, root, EagerHeuristic::automatic);
    for (const auto* plan : {&flat, &best}) {
      EXPECT_EQ(plan->model, PlanModel::eager);
      EXPECT_EQ(plan->operation, Operation::reduce);
      EXPECT_EQ(plan->root, root);
      EXPECT_EQ(plan->transfers.size(), static_cast<std::size_t>(hosts - 1));
      for (const auto& t : plan->transfers) EXPECT_EQ(t.payload, Payload::partial_reduction);
      expect_valid(network, *plan);
      EXPECT_NEAR(reevaluate(platform, *plan, size), plan->makespan, 1e-9 * plan->makespan);
      EXPECT_LE(plan->lower_bound, plan->makespan * (1 + 1e-9));
      if (plan->optimal) {
        EXPECT_DOUBLE_EQ(plan->lower_bound, plan->makespan);
      }
      EXPECT_EQ(plan->guarantee.kind, Guarantee::Kind::heuristic);
      ASSERT_FALSE(plan->notes.empty());
      EXPECT_EQ(plan->notes.front().rfind("eager model: ", 0), 0u);
    }
    EXPECT_EQ(flat.algorithm, "eager-flat");
    EXPECT_EQ(best.algorithm, "eager-auto");
    EXPECT_LE(best.makespan, flat.makespan * (1 + 1e-12));
    for (const auto& t : flat.transfers) EXPECT_EQ(t.to, root);

    // The reversal: the broadcast from the root on the reversed platform,
    // whose pair costs are the transposed ones when no route ties differ.
    const Platform back = reversed(platform);
    const GraphNetwork back_network(back, size);
    const EagerMatrix forward(network, platform.participants());
    const EagerMatrix backward(back_network, back.participants());
    bool transposed = true;
    for (std::size_t a = 0; a < forward.size(); ++a) {
      for (std::size_t b = 0; b < forward.size(); ++b) {
        transposed = transposed && forward.cost(a, b).occupancy == backward.cost(b, a).occupancy &&
                     forward.cost(a, b).delay == backward.cost(b, a).delay;
      }
    }
    if (transposed) {
      ++compared_with_reversed_platform;
      for (auto heuristic : {EagerHeuristic::flat, EagerHeuristic::automatic}) {
        const MakespanPlan broadcast = plan_eager_broadcast(back_network, root, heuristic);
        const MakespanPlan& reduce = heuristic == EagerHeuristic::flat ? flat : best;
        EXPECT_NEAR(reduce.makespan, broadcast.makespan, 1e-12 * broadcast.makespan);
        EXPECT_NEAR(reduce.lower_bound, broadcast.lower_bound, 1e-12 * broadcast.lower_bound);
        EXPECT_EQ(reduce.optimal, broadcast.optimal);
      }
    }
    // EagerMatrix::transposed against the matrix itself.
    const EagerMatrix t = forward.transposed();
    for (std::size_t a = 0; a < forward.size(); ++a) {
      for (std::size_t b = 0; b < forward.size(); ++b) {
        EXPECT_EQ(t.cost(a, b).occupancy, forward.cost(b, a).occupancy);
        EXPECT_EQ(t.cost(a, b).delay, forward.cost(b, a).delay);
      }
    }
    EXPECT_EQ(t.smallest_occupancy(), forward.smallest_occupancy());
    // In place (the rvalue overload) gives the same matrix.
    const EagerMatrix in_place = EagerMatrix(network, platform.participants()).transposed();
    ASSERT_EQ(in_place.size(), t.size());
    for (std::size_t a = 0; a < t.size(); ++a) {
      for (std::size_t b = 0; b < t.size(); ++b) {
        EXPECT_EQ(in_place.cost(a, b).occupancy, t.cost(a, b).occupancy);
        EXPECT_EQ(in_place.cost(a, b).delay, t.cost(a, b).delay);
      }
    }
    EXPECT_EQ(in_place.smallest_delay(), t.smallest_delay());
    EXPECT_EQ(t.smallest_delay(), forward.smallest_delay());

    if (hosts <= 6) {
      // Exhaustive optima, each in its own model, computed independently.
      ++brute_forced;
      const auto cost = independent_costs(platform, size);
      const auto members = platform.participants();
      const auto r = static_cast<std::size_t>(std::find(members.begin(), members.end(), root) - members.begin());
      const double optimum = brute_force_eager_reduce(cost, r);
      EXPECT_NEAR(optimum, brute_force_eager_broadcast(transpose(cost), r), 1e-9 * optimum);
      EXPECT_LE(best.lower_bound, optimum * (1 + 1e-9));
      EXPECT_GE(best.makespan, optimum * (1 - 1e-9));
      if (best.optimal) {
        EXPECT_NEAR(best.makespan, optimum, 1e-9 * optimum);
      }
    }
  }
  // Tests that cannot fail are defects: make sure both checks ran.
  EXPECT_GE(compared_with_reversed_platform, 20);
  EXPECT_GE(brute_forced, 20);
}

TEST(EagerReduce, OptimalClaimsAreConfirmedByExhaustiveSearch) {
  // Homogeneous complete graphs: the postal optimum, claimed optimal; and
  // small random ones, where any optimal claim must match the brute force.
  for (double size : {4.0, 4096.0, 65536.0}) {
    for (int hosts = 2; hosts <= 6; ++hosts) {
      const Platform platform = homogeneous_complete(hosts, 5e-5, 1.25e7);
      const GraphNetwork network(platform, size);
      const MakespanPlan plan = plan_eager_reduce(network, 0);
      expect_valid(network, plan);
      EXPECT_TRUE(plan.optimal);
      const double postal = postal_broadcast_time(static_cast<std::size_t>(hosts), size / 1.25e7, 5e-5);
      EXPECT_NEAR(plan.makespan, postal, 1e-9 * postal);
      EXPECT_NEAR(brute_force_eager_reduce(independent_costs(platform, size), 0), postal, 1e-9 * postal);
    }
  }
  std::mt19937_64 rng(11);
  int optimal_claims = 0;
  for (int instance = 0; instance < 60; ++instance) {
    const int hosts = 3 + static_cast<int>(rng() % 3);
    const Platform platform = random_eager_platform(rng, hosts, 0, false);
    const double size = 16.0;  // latencies dominate: flat trees, often provably optimal
    const GraphNetwork network(platform, size);
    const MakespanPlan plan = plan_eager_reduce(network, 0);
    if (!plan.optimal) continue;
    ++optimal_claims;
    const double optimum = brute_force_eager_reduce(independent_costs(platform, size), 0);
    EXPECT_NEAR(plan.makespan, optimum, 1e-9 * optimum) << "instance " << instance;
  }
  EXPECT_GE(optimal_claims, 5);
}

bool mentions(const VerifyReport& report, const std::string& text) {
  for (const auto& v : report.violations) {
    if (v.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(EagerReduce, VerifierRejectsPlansThatBreakTheEagerReduceRules) {
  const Platform platform = homogeneous_complete(9, 5e-5, 1.25e7);
  const GraphNetwork network(platform, 65536.0);  // occupancy 5.2 ms >> latency: a deep tree
  const MakespanPlan plan = plan_eager_reduce(network, 0);
  expect_valid(network, plan);
  ASSERT_EQ(plan.transfers.size(), 8u);
  // A receiver with two incoming transfers, and a node with children that sends.
  std::size_t first = plan.transfers.size(), second = plan.transfers.size(), forwarder = plan.transfers.size();
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    for (std::size_t j = 0; j < plan.transfers.size(); ++j) {
      if (i != j && plan.transfers[j].to == plan.transfers[i].to && plan.transfers[i].end < plan.transfers[j].end &&
          first == plan.transfers.size()) {
        first = i;
        second = j;
      }
      if (plan.transfers[j].to == plan.transfers[i].from) forwarder = i;
    }
  }
  ASSERT_LT(second, plan.transfers.size());
  ASSERT_LT(forwarder, plan.transfers.size());
  {  // Two receive windows on one link overlap: the earlier message arrives
     // just before the later one, its latency no longer hiding the window.
    MakespanPlan bad = plan;
    const double shift = plan.transfers[second].end - plan.transfers[first].end - 1e-4;
    bad.transfers[first].start += shift;
    bad.transfers[first].end += shift;
    const auto report = verify(network, bad);
    EXPECT_FALSE(report.valid);
    EXPECT_TRUE(mentions(report, "before its previous one")) << report.summary();
  }
  {  // A node that sends before its child's message has arrived.
    MakespanPlan bad = plan;
    bad.transfers[forwarder].start -= 1e-3;
    bad.transfers[forwarder].end -= 1e-3;
    const auto report = verify(network, bad);
    EXPECT_FALSE(report.valid);
    EXPECT_TRUE(mentions(report, "causality")) << report.summary();
  }
  {  // A transfer lasting less than its route (the latency left out).
    MakespanPlan bad = plan;
    bad.transfers[first].start += 5e-5;
    const auto report = verify(network, bad);
    EXPECT_FALSE(report.valid);
    EXPECT_TRUE(mentions(report, "eager model: lasts")) << report.summary();
  }
  {  // A node sending twice; the root sending.
    MakespanPlan bad = plan;
    bad.transfers.push_back(plan.transfers[first]);
    bad.transfers.back().start += 1.0;
    bad.transfers.back().end += 1.0;
    EXPECT_FALSE(verify(network, bad).valid);
    MakespanPlan root_sends = plan;
    root_sends.transfers[first].from = 0;
    EXPECT_FALSE(verify(network, root_sends).valid);
  }
  {  // A contribution that never leaves.
    MakespanPlan bad = plan;
    bad.transfers.erase(bad.transfers.begin() + static_cast<std::ptrdiff_t>(first));
    const auto report = verify(network, bad);
    EXPECT_FALSE(report.valid);
    EXPECT_TRUE(mentions(report, "never sends its contribution")) << report.summary();
  }
  {  // An optimality claim without the bound to prove it; a bound above the makespan.
    MakespanPlan bad = plan_eager_reduce(network, 0, EagerHeuristic::flat);
    ASSERT_FALSE(bad.optimal);
    expect_valid(network, bad);
    bad.optimal = true;
    const auto report = verify(network, bad);
    EXPECT_FALSE(report.valid);
    EXPECT_TRUE(mentions(report, "claims to be optimal")) << report.summary();
    MakespanPlan high = plan;
    high.lower_bound = plan.makespan * 1.5;
    EXPECT_FALSE(verify(network, high).valid);
  }
  {  // Flat: every window at the root back to back; all of them at once is invalid.
    MakespanPlan bad = plan_eager_reduce(network, 0, EagerHeuristic::flat);
    for (auto& t : bad.transfers) {
      t.end = bad.makespan;
      t.start = t.end - (5e-5 + 65536 / 1.25e7);
    }
    const auto report = verify(network, bad);
    EXPECT_FALSE(report.valid);
    EXPECT_TRUE(mentions(report, "before its previous one")) << report.summary();
  }
  {  // Neither a broadcast nor a reduce.
    MakespanPlan bad = plan;
    bad.operation = Operation::allreduce;
    const auto report = verify(network, bad);
    EXPECT_FALSE(report.valid);
    EXPECT_TRUE(mentions(report, "broadcasts and reduces only")) << report.summary();
  }
}

TEST(EagerReduce, FlatTreeOnTheLiuKuoWangClusterPacesTheRootsLink) {
  // The 8-host cluster, every route at the sender's speed (latency 50 us x
  // f, 12.5 MB/s / f): 16 bytes, latencies dominate, the flat tree. The
  // slow hosts' 80 us latency comes last; their 2.048 us windows follow
  // each other at the root: 80 + 4 x 2.048 us.
  const Platform platform = liu_kuo_wang_sender_speed_graph();
  const GraphNetwork network(platform, 16.0);
  const MakespanPlan plan = plan_eager_reduce(network, 0);
  expect_valid(network, plan);
  EXPECT_NEAR(plan.makespan, 8e-5 + 4 * 16 * 1.6 / 1.25e7, 1e-15);
  for (const auto& t : plan.transfers) EXPECT_EQ(t.to, 0);
  // Plan JSON keeps the model and the reduce; it verifies after the round trip.
  std::ostringstream out;
  write_plan_json(out, plan, platform);
  const MakespanPlan back = parse_plan_json(out.str(), platform, "plan.json");
  EXPECT_EQ(back.model, PlanModel::eager);
  EXPECT_EQ(back.operation, Operation::reduce);
  const GraphNetwork read_back(platform, back.message_size);
  EXPECT_TRUE(verify(read_back, back).valid) << verify(read_back, back).summary();
}

TEST(EagerReduce, RefusesARouterAsRoot) {
  std::mt19937_64 rng(3);
  const Platform platform = random_eager_platform(rng, 4, 1, false);
  const GraphNetwork network(platform, 8.0);
  EXPECT_THROW(plan_eager_reduce(network, 4), InputError);  // r0, a router
}

}  // namespace
}  // namespace hetcoll
