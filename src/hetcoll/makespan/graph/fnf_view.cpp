#include "hetcoll/makespan/graph/fnf_view.h"

#include <algorithm>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/graph/graph_schedule.h"
#include "hetcoll/makespan/sender_speed/reduce/snf.h"
#include "hetcoll/sim/makespan_simulation.h"

namespace hetcoll {

namespace {

// The view of a matrix's members: one time per member, its costliest route
// (reversed: the costliest route out of the member in the reduce the
// reversed problem stands for).
Cluster view_of(const GraphNetwork& network, const RouteMatrix& table, bool reversed) {
  const std::size_t k = table.size();
  std::vector<std::string> ids;
  std::vector<double> times;
  for (std::size_t i = 0; i < k; ++i) {
    double slowest = 0;
    for (std::size_t j = 0; j < k; ++j) {
      if (i == j) continue;
      const double cost = reversed ? table.cost(j, i) : table.cost(i, j);
      if (!(cost < kNoRoute)) {
        // The view lets any processor send to any other: it needs every route.
        const auto from = table.member(reversed ? j : i), to = table.member(reversed ? i : j);
        throw InputError(fmt::format("fnf-view: the sender-speed view needs a route between every pair of "
                                     "participants; {} -> {} has none",
                                     network.platform().id(from), network.platform().id(to)));
      }
      slowest = std::max(slowest, cost);
    }
    ids.push_back(network.platform().id(table.member(i)));
    times.push_back(k > 1 && slowest > 0 ? slowest : 1.0);
  }
  return Cluster(ids, times, "sender-speed view");
}

void check_size(std::size_t members) {
  if (members > kMaxFlatMembers) {
    throw InputError(fmt::format("fnf-view: {} participants exceed its limit of {} (it needs every route's time)",
                                 members, kMaxFlatMembers));
  }
}

}  // namespace

Cluster sender_speed_view_of(const GraphNetwork& network) {
  check_size(network.participants().size());
  return view_of(network, RouteMatrix(network, network.participants()), false);
}

EngineResult broadcast_fnf_view(const GraphNetwork& network, const BroadcastTask& task) {
  check_size(task.members.size());
  const RouteMatrix table(network, task.members, task.reversed);
  const std::size_t k = table.size();
  const Cluster view = view_of(network, table, task.reversed);
  const auto source = static_cast<ProcessorIndex>(table.index_of(task.source));
  std::vector<ProcessorIndex> receivers;
  for (std::size_t i = 0; i < k; ++i) {
    if (task.must_receive[i] && static_cast<ProcessorIndex>(i) != source) receivers.push_back(static_cast<ProcessorIndex>(i));
  }

  EngineResult result;
  double predicted = 0;
  if (!task.reversed) {
    MakespanPlan executed;
    executed.model = PlanModel::platform_graph;
    executed.operation = Operation::broadcast;
    executed.root = task.source;
    for (auto t : fnf_transfers(view, source, receivers)) {
      predicted = std::max(predicted, t.end);
      t.from = table.member(static_cast<std::size_t>(t.from));
      t.to = table.member(static_cast<std::size_t>(t.to));
      executed.transfers.push_back(t);
    }
    executed = as_soon_as_possible(network, std::move(executed));
    for (auto& t : executed.transfers) {
      t.start += task.source_ready;
      t.end += task.source_ready;
    }
    result.transfers = std::move(executed.transfers);
  } else {
    // SNF in the view, then handed back as the time-reversed broadcast the
    // driver expects (it maps it back and executes it on the platform).
    MakespanPlan snf = plan_reduce_snf(view, source);
    predicted = snf.makespan;
    for (const auto& t : snf.transfers) {
      Transfer reversed = t;
      reversed.from = table.member(static_cast<std::size_t>(t.to));
      reversed.to = table.member(static_cast<std::size_t>(t.from));
      reversed.start = snf.makespan - t.end;
      reversed.end = snf.makespan - t.start;
      result.transfers.push_back(reversed);
    }
  }
  result.notes.push_back(fmt::format("the sender-speed view (each node's costliest route) predicted {:.6g}; this "
                                     "plan gives its tree and order, executed on the platform",
                                     predicted));
  return result;
}

}  // namespace hetcoll
