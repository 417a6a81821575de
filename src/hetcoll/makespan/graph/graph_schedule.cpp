#include "hetcoll/makespan/graph/graph_schedule.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/graph/broadcast_task.h"
#include "hetcoll/sim/makespan_simulation.h"

namespace hetcoll {

PortTimeline::PortTimeline(const GraphNetwork* network) {
  if (network) free_.assign(network->port_count(), 0.0);
}

double PortTimeline::earliest_start(std::span<const PortId> ports, double ready) const {
  double start = ready;
  for (auto port : ports) start = std::max(start, free_[port]);
  return start;
}

void PortTimeline::occupy(std::span<const PortId> ports, double end) {
  for (auto port : ports) free_[port] = end;
}

BroadcastBuilder::BroadcastBuilder(const GraphNetwork& network, const RouteMatrix& table, std::size_t source,
                                   PortTimeline& timeline, double source_ready,
                                   std::vector<double> combine_before_send)
    : network_(network),
      table_(table),
      timeline_(timeline),
      informed_at_(table.size(), kNoRoute),
      combine_before_send_(std::move(combine_before_send)),
      compute_free_(table.size(), 0.0) {
  informed_at_[source] = source_ready;
  informed_count_ = 1;
  last_end_ = source_ready;
}

double BroadcastBuilder::ready_to_send(std::size_t from) const {
  if (combine_before_send_.empty() || combine_before_send_[from] == 0) return informed_at_[from];
  return std::max(compute_free_[from], informed_at_[from]) + combine_before_send_[from];
}

BroadcastBuilder::Window BroadcastBuilder::window(std::size_t from, std::size_t to) const {
  const double cost = table_.cost(from, to);
  if (cost == kNoRoute) return {kNoRoute, kNoRoute};
  const auto ports = table_.port_parts(from, to);
  const double start = timeline_.earliest_start(ports.second, timeline_.earliest_start(ports.first, ready_to_send(from)));
  return {start, start + cost};
}

double BroadcastBuilder::sender_free(std::size_t from) const {
  return timeline_.earliest_start(table_.port_parts(from, from == 0 ? 1 : 0).first, ready_to_send(from));
}

double BroadcastBuilder::receiver_free(std::size_t to) const {
  return timeline_.earliest_start(table_.port_parts(to == 0 ? 1 : 0, to).second, 0.0);
}

void BroadcastBuilder::send(std::size_t from, std::size_t to) {
  const Window w = window(from, to);
  if (!combine_before_send_.empty() && combine_before_send_[from] > 0) compute_free_[from] = ready_to_send(from);
  const auto route = table_.route_parts(from, to);
  const auto ports = table_.port_parts(from, to);
  timeline_.occupy(ports.first, w.end);
  timeline_.occupy(ports.second, w.end);
  Transfer transfer;
  transfer.from = table_.member(from);
  transfer.to = table_.member(to);
  transfer.start = w.start;
  transfer.end = w.end;
  if (route.second.empty()) {
    transfer.route.assign(route.first.begin(), route.first.end());
  } else {
    joined_route_.assign(route.first.begin(), route.first.end());
    joined_route_.insert(joined_route_.end(), route.second.begin(), route.second.end());
    transfer.route.assign(joined_route_.begin(), joined_route_.end());
  }
  transfers_.push_back(std::move(transfer));
  if (!informed(to)) ++informed_count_;
  informed_at_[to] = std::min(informed_at_[to], w.end);
  last_end_ = std::max(last_end_, w.end);
}

namespace {
const std::vector<ProcessorIndex>& checked_members(const BroadcastTask& task, const char* planner) {
  if (task.members.size() > kMaxFlatMembers) {
    if (std::string_view(planner) == "hierarchical") {
      // One level of its split (a site, or a group of sites' gateways) is
      // too large to plan flat: there is no larger planner to recommend.
      throw InputError(fmt::format("hierarchical: one level of its split into sites holds {} participants, above the "
                                   "limit of {} for planning a level (it keeps a route for every pair of a level); "
                                   "the platform's sites are too large (add routers between groups of hosts, or "
                                   "plan on the sender-speed view)",
                                   task.members.size(), kMaxFlatMembers));
    }
    throw InputError(fmt::format("{}: {} participants exceed its limit of {} (it keeps a route for every pair); the "
                                 "hierarchical planner handles large platforms",
                                 planner, task.members.size(), kMaxFlatMembers));
  }
  return task.members;
}
}  // namespace

FlatBroadcast::FlatBroadcast(const GraphNetwork& network, const BroadcastTask& task, const char* planner,
                             PortTimeline* shared_timeline)
    : table(network, checked_members(task, planner), task.reversed),
      own_timeline(shared_timeline ? nullptr : &network),
      builder(network, table, table.index_of(task.source), shared_timeline ? *shared_timeline : own_timeline,
              task.source_ready,
              task.reversed ? combine_times(network, table) : std::vector<double>{}),
      must_receive(task.must_receive),
      deadline(task.deadline) {
  for (std::size_t i = 0; i < must_receive.size(); ++i) waiting += must_receive[i] && !builder.informed(i) ? 1 : 0;
}

std::vector<double> combine_times(const GraphNetwork& network, const RouteMatrix& table) {
  if (!network.has_computation()) return {};
  std::vector<double> times(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) times[i] = network.combine_time(table.member(i));
  return times;
}

MakespanPlan reduce_from_reversed(const GraphNetwork& network, ProcessorIndex root,
                                  const std::vector<Transfer>& reversed_broadcast) {
  double horizon = 0;
  for (const auto& t : reversed_broadcast) horizon = std::max(horizon, t.end);
  MakespanPlan reduce;
  reduce.operation = Operation::reduce;
  reduce.model = PlanModel::platform_graph;
  reduce.root = root;
  reduce.transfers.reserve(reversed_broadcast.size());
  for (const auto& t : reversed_broadcast) {
    Transfer back = t;
    std::swap(back.from, back.to);
    back.start = horizon - t.end;
    back.end = horizon - t.start;
    back.payload = Payload::partial_reduction;
    reduce.transfers.push_back(std::move(back));
  }
  return as_soon_as_possible(network, std::move(reduce));
}

}  // namespace hetcoll
