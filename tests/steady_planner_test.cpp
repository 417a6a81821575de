// Steady-state scatter, gossip and reduce: exact optima on small cases whose
// answer is known, and on seeded random platforms every plan passes verify/,
// the exact throughput matches Clp's floating optimum, the two scatter/gossip
// formulations agree exactly, and the trees sum exactly to the flows.
#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "hetcoll/core/error.h"
#include "hetcoll/steady/paper_platforms.h"
#include "hetcoll/steady/reduce_lp.h"
#include "hetcoll/steady/steady_planner.h"
#include "hetcoll/verify/verify_periodic.h"

namespace hetcoll {
namespace {

Rational q(long num, long den = 1) {
  Rational value(num, den);
  value.canonicalize();
  return value;
}

PlatformNode host(std::string id, std::optional<double> speed = std::nullopt) {
  return PlatformNode::host(std::move(id), speed);
}
PlatformNode router(std::string id) { return PlatformNode::forwarder(std::move(id)); }
PlatformEdge link(ProcessorIndex from, ProcessorIndex to, double cost) { return PlatformEdge::with_cost(from, to, cost); }

void expect_valid(const Platform& platform, const PeriodicPlan& plan) {
  const auto report = verify_periodic_plan(platform, plan);
  EXPECT_TRUE(report.valid) << report.summary();
  EXPECT_TRUE(report.certificate_checked) << report.summary();
}

TEST(SteadyScatter, DirectEdgesOnlyGiveOneOverTheSumOfCosts) {
  // Source S with one edge to each target: every operation sends one
  // message on each, one after the other, so TP = 1 / (1 + 2.5 + 0.5).
  const Platform platform({host("S"), host("A"), host("B"), host("C")},
                          {link(0, 1, 1.0), link(0, 2, 2.5), link(0, 3, 0.5)}, "star");
  for (auto formulation : {PersonalFormulation::per_type, PersonalFormulation::by_source}) {
    SteadyOptions options;
    options.formulation = formulation;
    const auto plan = plan_steady_scatter(platform, 0, {}, options);
    EXPECT_EQ(plan.throughput, q(1, 4));
    EXPECT_EQ(plan.throughput_bound, q(1, 4));
    EXPECT_EQ(plan.period, 4);
    EXPECT_EQ(plan.operations_per_period, 1);
    EXPECT_TRUE(plan.optimal());
    expect_valid(platform, plan);
  }
}

TEST(SteadyScatter, TwoRoutesToOneTargetBothCarryMessages) {
  // S -> A -> C -> T and S -> B -> D -> T: the middle edges (cost 1) each
  // carry at most one message per time unit, the others cost 1/2, so S and
  // T could handle 2: TP = 2 needs both routes (Legrand, Marchal, Robert
  // 2003 sec. 3.2: messages to one target need not take one route).
  const Platform platform({host("S"), router("A"), router("B"), router("C"), router("D"), host("T")},
                          {link(0, 1, 0.5), link(0, 2, 0.5), link(1, 3, 1), link(2, 4, 1), link(3, 5, 0.5),
                           link(4, 5, 0.5)},
                          "two routes");
  const auto plan = plan_steady_scatter(platform, 0, {5});
  EXPECT_EQ(plan.throughput, 2);
  expect_valid(platform, plan);
  EXPECT_EQ(plan.trees.size(), 2u);  // one path per route
}

TEST(SteadyScatter, ATargetCannotCountItsOwnMessagesTwice) {
  // T could send its messages to R and get them back over cheap edges; (6)
  // as printed would count them again. TP is limited by S -> T alone: 1.
  const Platform platform({host("S"), host("T"), host("R")},
                          {link(0, 1, 1), link(1, 2, 0.01), link(2, 1, 0.01)}, "cycle");
  const auto plan = plan_steady_scatter(platform, 0, {1});
  EXPECT_EQ(plan.throughput, 1);
  expect_valid(platform, plan);
}

TEST(SteadyReduce, LegrandMarchalRobertFigure6) {
  // Three processors, every edge of cost 1, one task per time unit except
  // P0 which does two; target P0: TP = 1 (Fig. 6(b)).
  const Platform platform = legrand_marchal_robert_figure6_platform();
  const auto plan = plan_steady_reduce(platform, 0, {});
  EXPECT_EQ(plan.throughput, 1);
  EXPECT_TRUE(plan.optimal());
  EXPECT_FALSE(plan.trees.empty());
  expect_valid(platform, plan);
}

TEST(SteadyReduce, TheResultCannotLeaveTheRootAndComeBack) {
  // P1 -> P0 costs 1; P0 <-> R costs 0.01. Eq. (11) as printed counts every
  // arrival of v[0,1] at P0, so computing it once on P0 and cycling it
  // through R would "reach" TP = 100. Counting net arrivals gives TP = 1.
  const Platform platform({host("P0"), host("P1"), router("R")},
                          {link(1, 0, 1), link(0, 2, 0.01), link(2, 0, 0.01)}, "cycle");
  const auto plan = plan_steady_reduce(platform, 0, {0, 1});
  EXPECT_EQ(plan.throughput, 1);
  expect_valid(platform, plan);
}

TEST(SteadyReduce, ComputeSpeedLimitsTheThroughput) {
  // Two participants, only P1 -> P0: the root does every task, at 1/4 per
  // time unit. With P0 -> P1 as well, P1 could share the tasks (TP 1/2).
  const Platform platform({host("P0", 0.25), host("P1", 0.25)}, {link(1, 0, 1)}, "slow");
  const auto plan = plan_steady_reduce(platform, 0, {});
  EXPECT_EQ(plan.throughput, q(1, 4));
  expect_valid(platform, plan);
}

TEST(SteadyPlanners, BadPlatformsGetClearErrors) {
  const Platform disconnected({host("S"), host("A"), host("B")}, {link(0, 1, 1)}, "disconnected");
  EXPECT_THROW(plan_steady_scatter(disconnected, 0, {}), NoSolutionError);
  EXPECT_THROW(plan_steady_reduce(disconnected, 0, {}), NoSolutionError);

  const auto expect_unbounded = [](const auto& plan, const char* what) {
    try {
      plan();
      ADD_FAILURE() << what << " was accepted";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("unbounded"), std::string::npos) << error.what();
    }
  };
  const Platform wire({host("S"), host("A")}, {link(0, 1, 0.0)}, "wire");
  expect_unbounded([&] { plan_steady_scatter(wire, 0, {}); }, "a zero-cost route");
  // Free edges and free computing: the tree pricing's master is unbounded;
  // the full LP reports it.
  const Platform free_reduce({host("S"), host("A")}, {link(1, 0, 0.0)}, "free");
  expect_unbounded([&] { plan_steady_reduce(free_reduce, 0, {}); }, "an unbounded reduce");

  const Platform with_router({host("S"), router("R"), host("A")}, {link(0, 1, 1), link(1, 2, 1)}, "router");
  EXPECT_THROW(plan_steady_scatter(with_router, 0, {1}), InputError);        // a router as target
  EXPECT_THROW(plan_steady_reduce(with_router, 1, {0, 2}), InputError);      // root not a participant
  EXPECT_THROW(plan_steady_reduce(with_router, 0, {0}), InputError);         // one participant
  EXPECT_THROW(plan_steady_reduce(with_router, 0, {0, 1, 2}), InputError);   // a router participant
  SteadyOptions zero_period;
  zero_period.period_max = BigInteger(0);
  EXPECT_THROW(plan_steady_scatter(with_router, 0, {2}, zero_period), InputError);
}

// Seeded random platforms: strongly connected (a ring plus random chords),
// decimal costs, some routers, some nodes without speed.
Platform random_platform(std::mt19937& random, int nodes) {
  std::vector<PlatformNode> list;
  std::uniform_int_distribution<int> speed(1, 4);
  for (int v = 0; v < nodes; ++v) {
    auto node = host(std::string("n").append(std::to_string(v)));
    if (v > 1 && random() % 5 == 0) node.router = true;
    if (random() % 4 != 0) node.speed = speed(random);
    list.push_back(node);
  }
  std::vector<PlatformEdge> edges;
  const auto cost = [&] { return (1 + static_cast<int>(random() % 20)) / 10.0; };
  for (int v = 0; v < nodes; ++v) {
    edges.push_back(link(v, (v + 1) % nodes, cost()));
    edges.push_back(link((v + 1) % nodes, v, cost()));
  }
  for (int extra = 0; extra < nodes; ++extra) {
    const int a = static_cast<int>(random() % static_cast<unsigned>(nodes));
    const int b = static_cast<int>(random() % static_cast<unsigned>(nodes));
    if (a != b) edges.push_back(link(a, b, cost()));
  }
  return Platform(list, edges, "random");
}

// The default scatter formulation (by source, |E| columns) against the
// paper's per-type one (|T| x |E|): the same exact optimum on seeded random
// platforms with random sources and target subsets, every plan verified.
TEST(SteadyScatter, DefaultBySourceMatchesPerTypeExactlyOnRandomPlatforms) {
  std::mt19937 random(26);
  int compared = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const auto platform = random_platform(random, 4 + trial % 6);
    SCOPED_TRACE("trial " + std::to_string(trial));
    const auto hosts = platform.participants();
    const ProcessorIndex source = hosts[random() % hosts.size()];
    std::vector<ProcessorIndex> targets;
    for (auto v : hosts) {
      if (v != source && random() % 3 != 0) targets.push_back(v);
    }
    if (targets.empty()) continue;
    SteadyOptions per_type;
    per_type.formulation = PersonalFormulation::per_type;
    const auto by_default = plan_steady_scatter(platform, source, targets);
    const auto paper = plan_steady_scatter(platform, source, targets, per_type);
    EXPECT_EQ(by_default.algorithm, "personal-by-source");
    EXPECT_EQ(paper.algorithm, "personal-per-type");
    EXPECT_EQ(by_default.throughput_bound, paper.throughput_bound);
    EXPECT_EQ(by_default.throughput, paper.throughput);
    EXPECT_TRUE(by_default.optimal());
    expect_valid(platform, by_default);
    expect_valid(platform, paper);
    ++compared;
  }
  EXPECT_GE(compared, 30);
}

// Gossip by routing generation (the default) against the whole by-source
// LP: the same exact optimum, and the generated plan's certificate (the
// whole LP's dual, rebuilt from shortest distances) passes verify/.
TEST(SteadyGossip, RoutingGenerationMatchesTheWholeLpExactlyOnRandomPlatforms) {
  std::mt19937 random(2603);
  int compared = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const auto platform = random_platform(random, 4 + trial % 7);
    SCOPED_TRACE("trial " + std::to_string(trial));
    const auto hosts = platform.participants();
    std::vector<ProcessorIndex> sources, targets;
    for (auto v : hosts) {
      if (random() % 3 != 0) sources.push_back(v);
      if (random() % 4 != 0) targets.push_back(v);
    }
    if (sources.size() < 2 || targets.empty()) continue;
    if (targets.size() == 1 && std::count(sources.begin(), sources.end(), targets[0]) && sources.size() < 2) continue;
    SteadyOptions whole;
    whole.personal_full_lp = true;
    const auto generated = plan_steady_gossip(platform, sources, targets);
    const auto full = plan_steady_gossip(platform, sources, targets, whole);
    EXPECT_EQ(generated.throughput_bound, full.throughput_bound);
    EXPECT_EQ(generated.throughput, full.throughput);
    EXPECT_TRUE(generated.optimal());
    EXPECT_NE(generated.steady_stats.lp_method.find("routing generation"), std::string::npos) << generated.steady_stats.lp_method;
    expect_valid(platform, generated);
    ++compared;
  }
  EXPECT_GE(compared, 20);
  // A source whose only target is itself sends nothing (it must not force TP = 0).
  const auto platform = random_platform(random, 6);
  SteadyOptions whole;
  whole.personal_full_lp = true;
  const auto generated = plan_steady_gossip(platform, {0, 1}, {0});
  EXPECT_EQ(generated.throughput_bound, plan_steady_gossip(platform, {0, 1}, {0}, whole).throughput_bound);
  EXPECT_GT(generated.throughput, 0);
  EXPECT_NE(generated.steady_stats.lp_method.find("routing generation"), std::string::npos) << generated.steady_stats.lp_method;
  expect_valid(platform, generated);
}

TEST(SteadyPlanners, RandomPlatformsAreExactVerifiedAndFormulationsAgree) {
  std::mt19937 random(2024);
  int fixed_runs = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const auto platform = random_platform(random, 5 + trial % 3);
    SCOPED_TRACE("trial " + std::to_string(trial));
    SteadyOptions per_type;
    per_type.formulation = PersonalFormulation::per_type;
    SteadyOptions by_source;
    by_source.formulation = PersonalFormulation::by_source;

    const auto scatter = plan_steady_scatter(platform, 0, {}, per_type);
    const auto scatter_aggregated = plan_steady_scatter(platform, 0, {}, by_source);
    EXPECT_EQ(scatter.throughput, scatter_aggregated.throughput);
    EXPECT_NEAR(scatter.steady_stats.lp_floating_throughput, to_double(scatter.throughput), 1e-9);
    expect_valid(platform, scatter);
    expect_valid(platform, scatter_aggregated);

    const auto gossip = plan_steady_gossip(platform, {}, {}, by_source);
    const auto gossip_per_type = plan_steady_gossip(platform, {}, {}, per_type);
    EXPECT_EQ(gossip.throughput, gossip_per_type.throughput);
    EXPECT_NEAR(gossip.steady_stats.lp_floating_throughput, to_double(gossip.throughput), 1e-9);
    expect_valid(platform, gossip);
    expect_valid(platform, gossip_per_type);

    const auto reduce = plan_steady_reduce(platform, 0, {});
    EXPECT_NEAR(reduce.steady_stats.lp_floating_throughput, to_double(reduce.throughput), 1e-9);
    expect_valid(platform, reduce);
    // The reduce LP by column generation: the same exact optimum.
    const auto view = make_steady_platform(platform, std::nullopt);
    const auto generated = solve_reduce_lp(view, {0, reduce.participants}, {}, ReduceLpMethod::column_generation);
    EXPECT_EQ(generated.throughput, reduce.throughput);

    // Whole messages and a fixed period keep the plans valid.
    SteadyOptions whole;
    whole.split_messages = false;
    const auto scatter_whole = plan_steady_scatter(platform, 0, {}, whole);
    EXPECT_EQ(scatter_whole.throughput, scatter.throughput);
    EXPECT_EQ(scatter_whole.period % scatter_aggregated.period, 0);
    expect_valid(platform, scatter_whole);
    expect_valid(platform, plan_steady_reduce(platform, 0, {}, whole));

    SteadyOptions fixed;
    fixed.period_max = BigInteger(50);
    if (reduce.period > 50) {
      ++fixed_runs;
      const auto reduce_fixed = plan_steady_reduce(platform, 0, {}, fixed);
      expect_valid(platform, reduce_fixed);
      EXPECT_LE(reduce_fixed.throughput, reduce.throughput);
      // Prop. 4: at most (number of trees) / T_fixed lost.
      EXPECT_LE(reduce.throughput - reduce_fixed.throughput, Rational(static_cast<long>(reduce.trees.size()), 50L));
      EXPECT_EQ(reduce_fixed.period, 50);
    }
    if (gossip.period > 50) {
      ++fixed_runs;
      const auto gossip_fixed = plan_steady_gossip(platform, {}, {}, fixed);
      expect_valid(platform, gossip_fixed);
      EXPECT_LE(gossip_fixed.throughput, gossip.throughput);
    }
  }
  EXPECT_GE(fixed_runs, 4);  // the fixed-period branch really ran
}

// The default reduce solver (reduction-tree pricing) against the full LP
// solved two other ways (Clp + exact basis, QSopt_ex): the same exact
// optimum, and the tree-priced plan — whose certificate is built for the
// full LP — passes verify/. Random participant subsets, orders and roots.
TEST(SteadyReduce, TreePricingMatchesTheFullLpExactly) {
  std::mt19937 random(907);
  for (int trial = 0; trial < 10; ++trial) {
    const auto platform = random_platform(random, 5 + trial % 4);
    SCOPED_TRACE("trial " + std::to_string(trial));
    std::vector<ProcessorIndex> participants;
    for (ProcessorIndex v = 0; v < platform.size(); ++v) {
      if (!platform.node(v).router && random() % 5 != 0) participants.push_back(v);
    }
    if (participants.size() < 2) continue;
    std::shuffle(participants.begin(), participants.end(), random);
    const auto root = participants[random() % participants.size()];
    const auto view = make_steady_platform(platform, std::nullopt);
    const ReduceProblem problem{root, participants};

    const auto by_trees = solve_reduce_lp(view, problem);
    EXPECT_NE(by_trees.stats.method.find("reduction-tree pricing"), std::string::npos) << by_trees.stats.method;
    const auto full = solve_reduce_lp(view, problem, {}, ReduceLpMethod::full);
    EXPECT_EQ(by_trees.throughput, full.throughput);
    EXPECT_EQ(by_trees.certificate.bound, full.certificate.bound);
    lp::SolveOptions exact_only;
    exact_only.exact_solver_only = true;
    EXPECT_EQ(solve_reduce_lp(view, problem, exact_only).throughput, by_trees.throughput);

    const auto plan = plan_steady_reduce(platform, root, participants);
    EXPECT_EQ(plan.throughput, by_trees.throughput);
    EXPECT_NE(plan.steady_stats.lp_method.find("reduction-tree pricing"), std::string::npos);
    expect_valid(platform, plan);
  }
}

TEST(SteadyPlanners, HugePeriodsAreBuiltWithoutEnumeratingTimeSteps) {
  // Four-digit decimal costs on 8 nodes: the gossip's period has over 20
  // digits; the schedule still has a handful of matchings.
  std::mt19937 random(2);
  std::vector<PlatformNode> nodes;
  for (int v = 0; v < 8; ++v) nodes.push_back(host(std::string("n").append(std::to_string(v))));
  std::vector<PlatformEdge> edges;
  const auto cost = [&] { return (1000 + static_cast<int>(random() % 9000)) / 10000.0; };
  for (int v = 0; v < 8; ++v) {
    for (int w = 0; w < 8; ++w) {
      if (v != w && random() % 3 == 0) edges.push_back(link(v, w, cost()));
    }
    edges.push_back(link(v, (v + 1) % 8, cost()));
  }
  const Platform platform(nodes, edges, "decimals");
  const auto plan = plan_steady_gossip(platform, {}, {});
  EXPECT_GT(plan.period, BigInteger("100000000000000000000"));
  expect_valid(platform, plan);
  EXPECT_LE(plan.steady_stats.matchings, static_cast<int>(platform.edges().size() + platform.size()));
  SteadyOptions whole;
  whole.split_messages = false;
  expect_valid(platform, plan_steady_gossip(platform, {}, {}, whole));
}

TEST(SteadyVerify, CatchesBrokenPlans) {
  const Platform platform = legrand_marchal_robert_figure6_platform();
  const auto plan = plan_steady_reduce(platform, 0, {});
  expect_valid(platform, plan);

  auto faster = plan;  // claims more than the schedule does
  faster.throughput = 2;
  faster.operations_per_period *= 2;
  EXPECT_FALSE(verify_periodic_plan(platform, faster).valid);

  auto wrong_dual = plan;  // a dual that no longer proves the bound
  ASSERT_FALSE(wrong_dual.certificate.duals.empty());
  wrong_dual.certificate.duals.erase(wrong_dual.certificate.duals.begin());
  EXPECT_FALSE(verify_periodic_plan(platform, wrong_dual).valid);

  auto overlap = plan;  // two sends of one node in one slot
  for (auto& slot : overlap.slots) {
    if (slot.transfers.empty()) continue;
    auto copy = slot.transfers.front();
    copy.to = copy.to == 1 ? 2 : (copy.from == 1 ? 2 : 1);
    if (copy.to == copy.from) copy.to = 0;
    slot.transfers.push_back(copy);
    break;
  }
  EXPECT_FALSE(verify_periodic_plan(platform, overlap).valid);

  auto short_period = plan;  // slots no longer fill the period
  short_period.period += 1;
  EXPECT_FALSE(verify_periodic_plan(platform, short_period).valid);

  auto bad_tree = plan;  // tree weights off by a little
  bad_tree.trees.front().weight += q(1, 1000);
  EXPECT_FALSE(verify_periodic_plan(platform, bad_tree).valid);
}

}  // namespace
}  // namespace hetcoll

#include "hetcoll/sim/periodic_simulator.h"

namespace hetcoll {
namespace {

// Simulating K operations: all complete, and K / makespan approaches the
// plan's throughput as K grows (Legrand, Marchal, Robert 2003 Props. 1, 3).
void expect_simulation_converges(const Platform& platform, const PeriodicPlan& plan) {
  double previous = 0;
  for (std::uint64_t k : {10u, 100u, 1000u}) {
    PeriodicSimulationOptions options;
    options.operations = k * static_cast<std::uint64_t>(plan.operations_per_period.get_ui());
    const auto result = simulate_periodic_plan(platform, plan, options);
    ASSERT_TRUE(result.finished) << "K = " << options.operations;
    EXPECT_EQ(result.completed, options.operations);
    EXPECT_LE(result.ratio, 1.0 + 1e-12);  // no schedule beats the LP bound
    EXPECT_GE(result.ratio, previous - 1e-12);
    previous = result.ratio;
  }
  EXPECT_GT(previous, 0.95);
}

TEST(SteadySimulation, ThroughputApproachesTheBound) {
  const Platform fig6 = legrand_marchal_robert_figure6_platform();
  expect_simulation_converges(fig6, plan_steady_reduce(fig6, 0, {}));

  const Platform routes({host("S"), router("A"), router("B"), router("C"), router("D"), host("T")},
                        {link(0, 1, 0.5), link(0, 2, 0.5), link(1, 3, 1), link(2, 4, 1), link(3, 5, 0.5),
                         link(4, 5, 0.5)},
                        "two routes");
  expect_simulation_converges(routes, plan_steady_scatter(routes, 0, {5}));

  std::mt19937 random(99);
  for (int trial = 0; trial < 4; ++trial) {
    const auto platform = random_platform(random, 6);
    SCOPED_TRACE("trial " + std::to_string(trial));
    SteadyOptions whole;
    whole.split_messages = trial % 2 == 0;
    const auto gossip = plan_steady_gossip(platform, {}, {}, whole);
    if (gossip.operations_per_period < 1000000) expect_simulation_converges(platform, gossip);
    const auto reduce = plan_steady_reduce(platform, 0, {}, whole);
    if (reduce.operations_per_period < 1000000) expect_simulation_converges(platform, reduce);
  }
}

}  // namespace
}  // namespace hetcoll

#include "hetcoll/model/participants.h"
#include "hetcoll/model/platform_io.h"
#include "support/test_support.h"

namespace hetcoll {
namespace {

// SimGrid platforms keep their topology on import: links and routers become
// forwarding nodes (FATPIPE links with unlimited ports). The steady-state
// planners route through them, never use them as sources, targets or
// participants, and every plan passes verify/ with its certificate.
TEST(SteadySimgrid, PlatformsWithRoutersAndLinksAreForwarders) {
  for (const char* file : {"examples/small_platform.xml", "tests/data/simgrid/small_platform_with_routers.xml",
                           "tests/data/simgrid/small_platform_fatpipe.xml", "tests/data/simgrid/cluster_backbone.xml"}) {
    SCOPED_TRACE(file);
    const auto loaded = load_platform_file(testing::source_path(file));
    ASSERT_FALSE(loaded.is_cluster());
    const Platform& imported = loaded.graph();
    std::vector<std::string> hosts;
    int forwarders = 0;
    for (ProcessorIndex v = 0; v < imported.size(); ++v) {
      if (!imported.node(v).router && hosts.size() < 4) {
        hosts.push_back(imported.id(v));
      } else {
        ++forwarders;
      }
    }
    ASSERT_GE(hosts.size(), 3u);
    ASSERT_GT(forwarders, 0);
    const Platform platform = with_participants(imported, hosts);
    SteadyOptions options;
    options.message_size = 1e6;
    const auto lan = platform.participants();
    ASSERT_EQ(lan.size(), hosts.size());
    for (const auto& plan : {plan_steady_scatter(platform, lan.front(), {}, options),
                             plan_steady_gossip(platform, {}, {}, options),
                             plan_steady_reduce(platform, lan.front(), {lan[0], lan[1], lan[2]}, options)}) {
      SCOPED_TRACE(to_string(plan.operation));
      const auto report = verify_periodic_plan(platform, plan);
      EXPECT_TRUE(report.valid) << report.summary();
      EXPECT_TRUE(report.certificate_checked);
      EXPECT_TRUE(plan.optimal());
      // Some transfer leaves a forwarder: the routes really go through the
      // network elements.
      bool forwarded = false;
      for (const auto& flow : plan.flows) forwarded = forwarded || platform.node(flow.from).router;
      EXPECT_TRUE(forwarded);
    }
  }
}

}  // namespace
}  // namespace hetcoll

namespace hetcoll {
namespace {

// The practical period (Prop. 4 with T chosen): on SimGrid's small platform
// the exact period is astronomically long; the practical one is a round
// number of seconds whose loss bound is at most the fraction asked for, the
// loss itself stays within that bound, and the plan is verified. A platform
// whose exact period is already short keeps its exact, optimal plan.
TEST(SteadyPlanners, PracticalPeriodLosesAtMostTheFractionAskedFor) {
  const auto loaded = load_platform_file(testing::source_path("examples/small_platform.xml"));
  const Platform& platform = loaded.graph();
  SteadyOptions options;
  options.message_size = 1e6;
  options.practical_loss = 0.01;
  const auto source = platform.participants().front();
  for (const auto& plan : {plan_steady_scatter(platform, source, {}, options),
                           plan_steady_gossip(platform, {}, {}, options),
                           plan_steady_reduce(platform, source, {}, options)}) {
    SCOPED_TRACE(to_string(plan.operation));
    expect_valid(platform, plan);
    ASSERT_TRUE(plan.exact_period.has_value());
    ASSERT_TRUE(plan.loss_bound.has_value());
    EXPECT_GT(*plan.exact_period, plan.period);
    EXPECT_EQ(plan.period_limit, plan.period);
    // A round period: 1, 2 or 5 times a power of ten.
    std::string digits = plan.period.get_str();
    EXPECT_TRUE(digits[0] == '1' || digits[0] == '2' || digits[0] == '5') << digits;
    EXPECT_EQ(digits.find_first_not_of('0', 1), std::string::npos) << digits;
    const Rational lost = plan.throughput_bound - plan.throughput;
    EXPECT_GE(lost, 0);
    EXPECT_LE(lost, *plan.loss_bound);
    EXPECT_LE(*plan.loss_bound, Rational(1, 100) * plan.throughput_bound);
    // The shortest such period: the step below (T / 2 or T / 2.5) would allow more.
    EXPECT_GT(*plan.loss_bound * Rational(5, 2), Rational(1, 100) * plan.throughput_bound);
  }
  // Legrand, Marchal, Robert 2003 Fig. 6: the exact period is short, kept.
  const auto fig6 = plan_steady_reduce(legrand_marchal_robert_figure6_platform(), 0, {}, options);
  EXPECT_TRUE(fig6.optimal());
  EXPECT_FALSE(fig6.exact_period.has_value());
  EXPECT_FALSE(fig6.period_limit.has_value());
}

}  // namespace
}  // namespace hetcoll
