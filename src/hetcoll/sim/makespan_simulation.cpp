#include "hetcoll/sim/makespan_simulation.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <span>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/sim/event_engine.h"

namespace hetcoll {

namespace {

// Lists per item in one flat pool (no allocation per item): the items of
// key k are pool[first[k] .. first[k + 1]).
template <typename T>
struct FlatLists {
  std::vector<std::uint32_t> first{0};  // 32-bit, like the engine's task ids
  std::vector<T> pool;
  std::span<const T> of(std::size_t k) const { return {pool.data() + first[k], pool.data() + first[k + 1]}; }
  void close() {  // ends the current key's list
    if (pool.size() > std::numeric_limits<std::uint32_t>::max()) {
      throw InputError("the plan is too large to simulate: more than 2^32 port holdings or dependencies");
    }
    first.push_back(static_cast<std::uint32_t>(pool.size()));
  }
  std::size_t size() const { return first.size() - 1; }
};

// What the model says about each transfer of the plan.
struct ExecutionModel {
  ProcessorIndex node_count = 0;
  std::size_t port_count = 0;
  std::vector<double> duration;                        // per transfer
  FlatLists<std::uint32_t> ports;                      // per transfer: the ports it holds
  std::vector<Route> routes;                           // per transfer: its route (graphs)
  std::function<double(ProcessorIndex)> combine_time;  // 0 = free
  std::function<std::string_view(ProcessorIndex)> name;
};

// The data each transfer waits for, from the plan's structure alone.
struct Dependencies {
  FlatLists<std::uint32_t> before_transfer;  // transfers whose end it waits for (no combines)
  FlatLists<std::uint32_t> combines_before;  // partial transfers whose combine it waits for
  std::vector<std::size_t> partials_into_root;  // the reduce's completion waits for their combines
};

Dependencies dependencies_of(const MakespanPlan& plan, const ExecutionModel& model) {
  const auto n = static_cast<std::size_t>(model.node_count);
  const auto& transfers = plan.transfers;
  Dependencies deps;
  deps.before_transfer.first.reserve(transfers.size() + 1);
  deps.combines_before.first.reserve(transfers.size() + 1);
  // The first message bringing the value to each node, and the partials each node receives.
  std::vector<std::size_t> value_arrival(n, SIZE_MAX);
  FlatLists<std::uint32_t> partials_into;  // per node
  {
    partials_into.first.assign(n + 1, 0);
    for (const auto& t : transfers) {
      if (t.payload == Payload::partial_reduction) ++partials_into.first[static_cast<std::size_t>(t.to) + 1];
    }
    for (std::size_t v = 0; v < n; ++v) partials_into.first[v + 1] += partials_into.first[v];
    partials_into.pool.resize(partials_into.first[n]);
    std::vector<std::uint32_t> fill(partials_into.first.begin(), partials_into.first.end() - 1);
    for (std::size_t i = 0; i < transfers.size(); ++i) {
      const auto& t = transfers[i];
      auto to = static_cast<std::size_t>(t.to);
      if (t.payload == Payload::partial_reduction) {
        partials_into.pool[fill[to]++] = static_cast<std::uint32_t>(i);
      } else if (value_arrival[to] == SIZE_MAX || t.end < transfers[value_arrival[to]].end) {
        value_arrival[to] = i;
      }
    }
  }
  if (is_exchange_allreduce(plan)) {
    // Recursive doubling: a message carries what its sender holds when it
    // starts, so it waits for every message into its sender that ends by
    // then in the plan (combined, for partial results); the operation
    // completes with the last combine.
    std::vector<std::vector<std::size_t>> values_into(n);
    for (std::size_t i = 0; i < transfers.size(); ++i) {
      if (transfers[i].payload == Payload::broadcast_value) values_into[static_cast<std::size_t>(transfers[i].to)].push_back(i);
      else deps.partials_into_root.push_back(i);
    }
    for (std::size_t i = 0; i < transfers.size(); ++i) {
      const auto& t = transfers[i];
      const auto from = static_cast<std::size_t>(t.from);
      const double by = t.start + kRelativeTimeTolerance * (t.end - t.start);  // core/ids.h
      for (std::size_t j : partials_into.of(from)) {
        if (transfers[j].end <= by) deps.combines_before.pool.push_back(static_cast<std::uint32_t>(j));
      }
      deps.combines_before.close();
      for (std::size_t j : values_into[from]) {
        if (transfers[j].end <= by) deps.before_transfer.pool.push_back(static_cast<std::uint32_t>(j));
      }
      deps.before_transfer.close();
    }
    return deps;
  }
  const bool has_reduce = plan.operation == Operation::reduce || plan.operation == Operation::allreduce;
  if (has_reduce) {
    const auto into_root = partials_into.of(static_cast<std::size_t>(plan.root));
    deps.partials_into_root.assign(into_root.begin(), into_root.end());
  }
  deps.before_transfer.pool.reserve(transfers.size());
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const auto& t = transfers[i];
    auto from = static_cast<std::size_t>(t.from);
    if (t.payload == Payload::partial_reduction || t.from == plan.root) {
      // A reducer's value (or, for the root's broadcast phase, the result) is
      // ready once everything it receives is combined; the source of a
      // broadcast holds it from time 0.
      if (t.payload != Payload::broadcast_value || has_reduce) {
        const auto partials = partials_into.of(from);
        deps.combines_before.pool.insert(deps.combines_before.pool.end(), partials.begin(), partials.end());
      }
    } else {
      if (value_arrival[from] == SIZE_MAX) {
        throw InputError(fmt::format("the plan is not executable: transfers[{}]: {} sends the message but never "
                                     "receives it",
                                     i, model.name(t.from)));
      }
      deps.before_transfer.pool.push_back(static_cast<std::uint32_t>(value_arrival[from]));
    }
    deps.before_transfer.close();
    deps.combines_before.close();
  }
  return deps;
}

MakespanSimulation run_simulation(const MakespanPlan& plan, const ExecutionModel& model,
                                  const SimulationOptions& options) {
  const std::size_t operations = std::max<std::size_t>(options.operations, 1);
  const auto n = static_cast<std::size_t>(model.node_count);
  const auto& transfers = plan.transfers;
  const Dependencies deps = dependencies_of(plan, model);

  sim::EventEngine engine;
  // Resources: the model's ports, served in plan order; then each node's
  // processor (combines, first come first served).
  const auto processor = [&](ProcessorIndex v) {
    return static_cast<sim::ResourceId>(model.port_count + static_cast<std::size_t>(v));
  };
  engine.reserve(operations * transfers.size(), operations * model.ports.pool.size(),
                 operations * (deps.before_transfer.pool.size() + deps.combines_before.pool.size()));
  for (std::size_t r = 0; r < model.port_count; ++r) engine.add_resource(sim::Discipline::in_order);
  for (std::size_t v = 0; v < n; ++v) engine.add_resource(sim::Discipline::first_ready);

  // Tasks are added in an order where predecessors come first: transfers by
  // planned start (data always flows forward in time in a valid plan), each
  // partial's combine right after its transfer.
  std::vector<std::uint32_t> order(transfers.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return transfers[a].start < transfers[b].start;
  });

  MakespanSimulation result;
  result.operations = operations;
  result.operation_completion.assign(operations, 0.0);
  std::vector<std::vector<sim::TaskId>> transfer_task(operations, std::vector<sim::TaskId>(transfers.size()));
  std::vector<std::vector<sim::TaskId>> combine_task(operations, std::vector<sim::TaskId>(transfers.size(), UINT32_MAX));
  std::vector<char> added(transfers.size());
  std::vector<sim::ResourceId> resources;
  std::vector<sim::TaskId> predecessors;

  // Adding a task needs its predecessors' ids; a plan whose data flows
  // backwards in time is handled by adding transfers as their dependencies
  // are met (a cycle means the plan cannot be executed).
  for (std::size_t k = 0; k < operations; ++k) {
    std::fill(added.begin(), added.end(), 0);
    std::size_t remaining = transfers.size();
    while (remaining > 0) {
      std::size_t progress = 0;
      for (std::size_t i : order) {
        if (added[i]) continue;
        bool ready = true;
        for (auto d : deps.before_transfer.of(i)) ready = ready && added[d];
        for (auto d : deps.combines_before.of(i)) ready = ready && added[d];
        if (!ready) continue;
        const auto& t = transfers[i];
        predecessors.clear();
        for (auto d : deps.before_transfer.of(i)) predecessors.push_back(transfer_task[k][d]);
        for (auto d : deps.combines_before.of(i)) {
          predecessors.push_back(combine_task[k][d] != UINT32_MAX ? combine_task[k][d] : transfer_task[k][d]);
        }
        const auto held_ports = model.ports.of(i);
        resources.assign(held_ports.begin(), held_ports.end());
        sim::SimTask task;
        task.duration = model.duration[i];
        task.order_major = k;
        task.order_minor = t.start;
        transfer_task[k][i] = engine.add_task(task, resources, predecessors);
        if (t.payload == Payload::partial_reduction) {
          const double combine = model.combine_time ? model.combine_time(t.to) : 0.0;
          if (combine > 0) {
            sim::SimTask compute;
            compute.duration = combine;
            compute.order_major = k;
            compute.order_minor = t.end;
            const sim::ResourceId held[] = {processor(t.to)};
            const sim::TaskId after[] = {transfer_task[k][i]};
            combine_task[k][i] = engine.add_task(compute, held, after);
          }
        }
        added[i] = 1;
        --remaining;
        ++progress;
      }
      if (progress == 0) {
        throw InputError("the plan is not executable: its messages depend on each other in a cycle");
      }
    }
  }

  const sim::SimOutcome outcome = engine.run();
  if (!outcome.completed()) {
    throw InputError(fmt::format("the plan is not executable: {} message(s) can never start (the order of "
                                 "messages on a port or link contradicts the data they wait for)",
                                 outcome.stuck.size()));
  }
  for (std::size_t k = 0; k < operations; ++k) {
    double completion = 0;
    for (std::size_t i = 0; i < transfers.size(); ++i) {
      completion = std::max(completion, outcome.end[transfer_task[k][i]]);
    }
    for (auto i : deps.partials_into_root) {
      if (combine_task[k][i] != UINT32_MAX) completion = std::max(completion, outcome.end[combine_task[k][i]]);
    }
    result.operation_completion[k] = completion;
    result.makespan = std::max(result.makespan, completion);
  }
  result.first_operation = transfers;
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    auto& t = result.first_operation[i];
    t.start = outcome.start[transfer_task[0][i]];
    t.end = outcome.end[transfer_task[0][i]];
    if (t.route.empty() && i < model.routes.size()) t.route = model.routes[i];
  }
  return result;
}

void check_nodes(const MakespanPlan& plan, ProcessorIndex node_count) {
  auto known = [&](ProcessorIndex p) { return p >= 0 && p < node_count; };
  if (!known(plan.root)) throw InputError("the plan is not executable: its source/root is not on the platform");
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const auto& t = plan.transfers[i];
    if (!known(t.from) || !known(t.to) || t.from == t.to) {
      throw InputError(fmt::format("the plan is not executable: transfers[{}] does not join two nodes of the "
                                   "platform",
                                   i));
    }
  }
}

}  // namespace

MakespanSimulation simulate(const GraphNetwork& network, const MakespanPlan& plan, const SimulationOptions& options) {
  const Platform& platform = network.platform();
  check_nodes(plan, network.node_count());
  ExecutionModel model;
  model.node_count = network.node_count();
  model.port_count = network.port_count();
  model.combine_time = [&network](ProcessorIndex v) { return network.combine_time(v); };
  model.name = [&platform](ProcessorIndex v) -> std::string_view { return platform.id(v); };
  const auto& transfers = plan.transfers;
  model.duration.resize(transfers.size());
  model.routes.resize(transfers.size());
  // Routes: the plan's, or the platform's (one search per sender).
  std::vector<std::size_t> missing;
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    const auto& t = transfers[i];
    for (auto end : {t.from, t.to}) {
      if (!network.is_participant(end)) {
        throw InputError(fmt::format("the plan is not executable: transfers[{}]: {} is a router and holds no data",
                                     i, platform.id(end)));
      }
    }
    if (t.route.empty()) {
      missing.push_back(i);
      continue;
    }
    if (auto problem = route_problem(platform, t.from, t.to, t.route)) {
      throw InputError(fmt::format("the plan is not executable: transfers[{}]: its route: {}", i, *problem));
    }
    model.routes[i] = t.route;
  }
  std::sort(missing.begin(), missing.end(), [&](std::size_t a, std::size_t b) {
    return transfers[a].from != transfers[b].from ? transfers[a].from < transfers[b].from : a < b;
  });
  RouteFinder finder = network.route_finder();
  std::vector<ProcessorIndex> receivers;
  for (std::size_t group = 0; group < missing.size();) {
    std::size_t group_end = group;
    receivers.clear();
    while (group_end < missing.size() && transfers[missing[group_end]].from == transfers[missing[group]].from) {
      receivers.push_back(transfers[missing[group_end]].to);
      ++group_end;
    }
    auto found = finder.routes_from(transfers[missing[group]].from, receivers);
    for (std::size_t k = group; k < group_end; ++k) {
      const auto i = missing[k];
      if (!found[k - group]) {
        throw InputError(fmt::format("the plan is not executable: transfers[{}]: no route from {} to {}", i,
                                     platform.id(transfers[i].from), platform.id(transfers[i].to)));
      }
      model.routes[i] = std::move(*found[k - group]);
    }
    group = group_end;
  }
  std::vector<PortId> ports;
  for (std::size_t i = 0; i < transfers.size(); ++i) {
    model.duration[i] = network.route_time(model.routes[i]);
    ports.clear();
    network.held_ports(transfers[i].from, transfers[i].to, model.routes[i], ports);
    model.ports.pool.insert(model.ports.pool.end(), ports.begin(), ports.end());
    model.ports.close();
  }
  return run_simulation(plan, model, options);
}

MakespanSimulation simulate(const Cluster& cluster, const MakespanPlan& plan, const SimulationOptions& options) {
  check_nodes(plan, cluster.size());
  ExecutionModel model;
  model.node_count = cluster.size();
  model.port_count = static_cast<std::size_t>(cluster.size());  // one port per processor
  model.name = [&cluster](ProcessorIndex v) -> std::string_view { return cluster.id(v); };
  model.duration.reserve(plan.transfers.size());
  model.ports.first.reserve(plan.transfers.size() + 1);
  model.ports.pool.reserve(2 * plan.transfers.size());
  for (const auto& t : plan.transfers) {
    model.duration.push_back(cluster.transmission_time(t.from));
    model.ports.pool.push_back(static_cast<std::uint32_t>(t.from));
    model.ports.pool.push_back(static_cast<std::uint32_t>(t.to));
    model.ports.close();
  }
  return run_simulation(plan, model, options);
}

MakespanPlan as_soon_as_possible(const GraphNetwork& network, MakespanPlan plan) {
  MakespanSimulation executed = simulate(network, plan);
  plan.transfers = std::move(executed.first_operation);
  plan.makespan = executed.makespan;
  return plan;
}

}  // namespace hetcoll
