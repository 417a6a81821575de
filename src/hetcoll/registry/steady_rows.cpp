// The steady-state rows (steady/): the optimal throughput of a series of
// scatters, gossips, reduces or broadcasts, proven by an exact dual
// certificate (Legrand, Marchal, Robert 2003; Beaumont, Marchal, Robert 2004).
#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/registry/rows_internal.h"
#include "hetcoll/steady/broadcast/steady_broadcast.h"
#include "hetcoll/steady/steady_planner.h"

namespace hetcoll {

namespace {

const Platform& steady_platform_of(const PlannerProblem& problem, const char* name) {
  if (!problem.platform) throw InputError("problem", fmt::format("{} plans on a platform graph", name));
  return *problem.platform;
}

ProcessorIndex root_or_first(const Platform& platform, const PlannerRequest& request) {
  return request.makespan.root == kNoProcessor ? platform.participants().front() : request.makespan.root;
}

PlannerEntry steady_row(std::string name, Operation operation, std::string summary, std::string complexity,
                        std::string reference) {
  PlannerEntry row;
  row.name = std::move(name);
  row.operation = operation;
  row.model = CommunicationModel::steady_state;
  row.guarantee.kind = Guarantee::Kind::exact;
  row.guarantee.stopped_kind = Guarantee::Kind::heuristic;
  row.guarantee.text = "optimal throughput, proven by an exact dual certificate (with --period-max: within the "
                       "stated loss)";
  row.complexity = std::move(complexity);
  row.reference = std::move(reference);
  row.summary = std::move(summary);
  row.is_default = true;
  return row;
}

SteadyOptions steady_options(const PlannerRequest& request) {
  SteadyOptions options;
  options.message_size = request.message_size;
  return options;
}

}  // namespace

void add_steady_planners(std::vector<PlannerEntry>& rows) {
  auto scatter = steady_row("lp", Operation::scatter,
                            "linear program over the source's message flows (by source), then periodic one-port slots",
                            "the LP (Clp, exact re-solve), then polynomial steps",
                            "Legrand, Marchal, Robert 2003 sec. 3 (SSSP)");
  scatter.run_plan = [](const PlannerProblem& problem, const PlannerRequest& request) {
    const Platform& platform = steady_platform_of(problem, "the steady scatter");
    return PlanVariant(plan_steady_scatter(platform, root_or_first(platform, request), request.makespan.targets,
                                           steady_options(request)));
  };
  rows.push_back(std::move(scatter));

  auto gossip = steady_row("lp", Operation::gossip,
                           "linear program over per-source flows (personalised all-to-all) by routing generation, "
                           "then periodic slots",
                           "the LP by routing generation (Dijkstra pricing, exact re-solve), then polynomial steps",
                           "Legrand, Marchal, Robert 2003 sec. 5 (gossip)");
  gossip.run_plan = [](const PlannerProblem& problem, const PlannerRequest& request) {
    return PlanVariant(plan_steady_gossip(steady_platform_of(problem, "the steady gossip"), request.sources,
                                          request.makespan.targets, steady_options(request)));
  };
  rows.push_back(std::move(gossip));

  auto reduce = steady_row("lp", Operation::reduce,
                           "linear program over partial-result rates, reduction trees by tree pricing, periodic slots",
                           "the LP by tree pricing (column generation), then polynomial steps",
                           "Legrand, Marchal, Robert 2003 sec. 4 (SSR)");
  reduce.run_plan = [](const PlannerProblem& problem, const PlannerRequest& request) {
    const Platform& platform = steady_platform_of(problem, "the steady reduce");
    return PlanVariant(plan_steady_reduce(platform, root_or_first(platform, request), request.participants,
                                          steady_options(request)));
  };
  rows.push_back(std::move(reduce));

  auto broadcast = steady_row("multi-tree", Operation::broadcast,
                              "the SSB linear program's optimum, packed into weighted broadcast trees and periodic "
                              "one-port slots",
                              "the SSB LP by cut generation, then a max-flow per tree",
                              "Beaumont, Marchal, Robert 2004 sec. 4.1, eq. 2 (SSB); the tree packing is hetcoll's");
  broadcast.capabilities.splits_messages = true;
  broadcast.run_plan = [](const PlannerProblem& problem, const PlannerRequest& request) {
    const Platform& platform = steady_platform_of(problem, "the steady broadcast");
    const ProcessorIndex source = root_or_first(platform, request);
    // The schedule unverified: the registry's callers verify every plan.
    SteadyBroadcastOptions options;
    options.slice_size = request.slice_size;
    options.stage = SteadyBroadcastStage::schedule;
    return PlanVariant(std::move(plan_steady_broadcast(platform, source, options).schedule));
  };
  rows.push_back(std::move(broadcast));
}

}  // namespace hetcoll
