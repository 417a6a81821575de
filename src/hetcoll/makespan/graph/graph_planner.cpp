#include "hetcoll/makespan/graph/graph_planner.h"

#include <algorithm>
#include <deque>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/core/listed_once.h"
#include "hetcoll/makespan/graph/graph_bounds.h"
#include "hetcoll/makespan/graph/graph_schedule.h"
#include "hetcoll/model/element_names.h"

namespace hetcoll {

ProcessorIndex graph_request_root(const GraphNetwork& network, const MakespanRequest& request) {
  const auto& participants = network.participants();
  if (participants.empty()) throw InputError("the platform has no participants (every node is a router)");
  if (request.root == kNoProcessor) return participants.front();
  if (request.root < 0 || request.root >= network.node_count()) {
    throw InputError("the source/root is not a node of the platform");
  }
  if (!network.is_participant(request.root)) {
    throw InputError(fmt::format("the source/root is {}, not a participating host; only hosts taking part hold data",
                                 describe_element(network.platform(), request.root)));
  }
  return request.root;
}

void require_reachable(const GraphNetwork& network, ProcessorIndex source, const std::vector<ProcessorIndex>& nodes,
                       bool towards_source) {
  const Platform& platform = network.platform();
  std::vector<char> seen(static_cast<std::size_t>(platform.size()), 0);
  std::deque<ProcessorIndex> queue{source};
  seen[static_cast<std::size_t>(source)] = 1;
  while (!queue.empty()) {
    ProcessorIndex v = queue.front();
    queue.pop_front();
    for (auto e : towards_source ? platform.in_edges(v) : platform.out_edges(v)) {
      const auto& edge = platform.edges()[e];
      ProcessorIndex w = towards_source ? edge.from : edge.to;
      if (!seen[static_cast<std::size_t>(w)]) {
        seen[static_cast<std::size_t>(w)] = 1;
        queue.push_back(w);
      }
    }
  }
  for (auto v : nodes) {
    if (!seen[static_cast<std::size_t>(v)]) {
      throw NoSolutionError(fmt::format("{} {} {}: no path joins them in the platform graph", platform.id(v),
                                        towards_source ? "cannot reach" : "cannot be reached from",
                                        platform.id(source)));
    }
  }
}

namespace {

struct Phase {
  std::vector<Transfer> transfers;
  double completion = 0;
  bool proven_optimal = false;
  SearchStatus status = SearchStatus::finished;
  std::string proof;
  SearchStats stats;
  std::vector<std::string> notes;
};

void absorb(Phase& phase, EngineResult&& result) {
  phase.proven_optimal = result.proven_optimal;
  phase.status = result.status;
  phase.proof = std::move(result.proof);
  phase.stats = result.stats;
  phase.notes = std::move(result.notes);
}

BroadcastTask task_for(const GraphNetwork& network, ProcessorIndex source, const std::vector<char>& must_receive_node,
                       bool reversed, double source_ready) {
  BroadcastTask task;
  task.source = source;
  task.members = network.participants();
  task.reversed = reversed;
  task.source_ready = source_ready;
  task.must_receive.reserve(task.members.size());
  for (auto v : task.members) task.must_receive.push_back(v != source && must_receive_node[static_cast<std::size_t>(v)]);
  return task;
}

Phase broadcast_phase(const GraphNetwork& network, ProcessorIndex source, const std::vector<char>& must_receive_node,
                      double source_ready, const BroadcastEngine& engine) {
  Phase phase;
  EngineResult result = engine(network, task_for(network, source, must_receive_node, false, source_ready));
  phase.transfers = std::move(result.transfers);
  for (auto& t : phase.transfers) t.payload = Payload::broadcast_value;
  phase.completion = source_ready;
  for (const auto& t : phase.transfers) phase.completion = std::max(phase.completion, t.end);
  absorb(phase, std::move(result));
  return phase;
}

Phase reduce_phase(const GraphNetwork& network, ProcessorIndex root, const BroadcastEngine& engine) {
  Phase phase;
  std::vector<char> everyone(static_cast<std::size_t>(network.node_count()), 1);
  EngineResult result = engine(network, task_for(network, root, everyone, true, 0.0));
  MakespanPlan reduce = reduce_from_reversed(network, root, result.transfers);
  phase.transfers = std::move(reduce.transfers);
  phase.completion = reduce.makespan;
  absorb(phase, std::move(result));
  return phase;
}

std::vector<char> all_participants(const GraphNetwork& network) {
  std::vector<char> mask(static_cast<std::size_t>(network.node_count()), 0);
  for (auto v : network.participants()) mask[static_cast<std::size_t>(v)] = 1;
  return mask;
}

void add_stats(SearchStats& total, const SearchStats& more) {
  total.nodes += more.nodes;
  total.table_references += more.table_references;
}

}  // namespace

MakespanPlan plan_on_graph(const GraphNetwork& network, const MakespanRequest& request, const GraphAlgorithmInfo& info,
                           const BroadcastEngine& engine) {
  MakespanPlan plan;
  plan.operation = request.operation;
  plan.algorithm = info.name;
  plan.model = PlanModel::platform_graph;
  plan.message_size = network.message_size();
  plan.guarantee = info.guarantee;
  const auto& participants = network.participants();
  bool proven = false;
  std::string proof;

  auto take_phase = [&](Phase&& phase) {
    plan.transfers.insert(plan.transfers.end(), std::make_move_iterator(phase.transfers.begin()),
                          std::make_move_iterator(phase.transfers.end()));
    if (phase.status != SearchStatus::finished) plan.status = phase.status;
    add_stats(plan.stats, phase.stats);
    for (auto& note : phase.notes) {
      if (std::find(plan.notes.begin(), plan.notes.end(), note) == plan.notes.end()) plan.notes.push_back(note);
    }
  };

  switch (request.operation) {
    case Operation::broadcast:
    case Operation::multicast: {
      const ProcessorIndex source = graph_request_root(network, request);
      plan.root = source;
      std::vector<char> must_receive = all_participants(network);
      std::vector<ProcessorIndex> receivers = participants;
      if (request.operation == Operation::multicast) {
        if (request.targets.empty()) throw InputError("targets", "the multicast's target list is empty");
        require_listed_once(request.targets, network.node_count(), "targets",
                            [&](ProcessorIndex p) { return network.platform().id(p); });
        std::fill(must_receive.begin(), must_receive.end(), 0);
        for (auto t : request.targets) {
          if (t < 0 || t >= network.node_count()) throw InputError("multicast: a target is not a node of the platform");
          if (!network.is_participant(t)) {
            throw InputError(fmt::format("multicast: a target is {}, not a participating host; only hosts taking "
                                         "part hold data",
                                         describe_element(network.platform(), t)));
          }
          must_receive[static_cast<std::size_t>(t)] = 1;
        }
        receivers = request.targets;
        plan.targets = request.targets;
      }
      require_reachable(network, source, receivers, false);
      Phase phase = broadcast_phase(network, source, must_receive, 0.0, engine);
      proven = phase.proven_optimal;
      proof = phase.proof;
      plan.makespan = phase.completion;
      take_phase(std::move(phase));
      plan.lower_bound = request.operation == Operation::broadcast
                             ? graph_broadcast_lower_bound(network, source)
                             : graph_multicast_lower_bound(network, source, request.targets);
      if (request.operation == Operation::multicast) {
        std::vector<char> is_target(static_cast<std::size_t>(network.node_count()), 0);
        for (auto t : request.targets) is_target[static_cast<std::size_t>(t)] = 1;
        for (const auto& t : plan.transfers) {
          if (!is_target[static_cast<std::size_t>(t.to)] &&
              std::find(plan.helpers.begin(), plan.helpers.end(), t.to) == plan.helpers.end()) {
            plan.helpers.push_back(t.to);
          }
        }
      }
      break;
    }
    case Operation::reduce: {
      const ProcessorIndex root = graph_request_root(network, request);
      plan.root = root;
      require_reachable(network, root, participants, true);
      Phase phase = reduce_phase(network, root, engine);
      proven = phase.proven_optimal;
      proof = phase.proof;
      plan.makespan = phase.completion;
      take_phase(std::move(phase));
      plan.lower_bound = graph_reduce_lower_bound(network, root);
      break;
    }
    case Operation::allreduce: {
      std::vector<ProcessorIndex> roots;
      if (request.root != kNoProcessor) {
        roots.push_back(graph_request_root(network, request));
      } else if (participants.size() <= kAllreduceRootTrials) {
        roots = participants;
      } else {
        roots.push_back(participants.front());
        plan.notes.push_back(fmt::format("all-reduce root: the first participant ({} participants; every root is "
                                         "tried up to {})",
                                         participants.size(), kAllreduceRootTrials));
      }
      const std::vector<char> everyone = all_participants(network);
      double best = kNoRoute;
      Phase best_reduce, best_broadcast;
      bool all_proven = true;  // for reduce-then-broadcast plans only
      SearchStats searched;
      for (auto root : roots) {
        require_reachable(network, root, participants, true);
        require_reachable(network, root, participants, false);
        Phase reduce = reduce_phase(network, root, engine);
        Phase broadcast = broadcast_phase(network, root, everyone, reduce.completion, engine);
        all_proven = all_proven && reduce.proven_optimal && broadcast.proven_optimal;
        add_stats(searched, reduce.stats);
        add_stats(searched, broadcast.stats);
        if (broadcast.completion < best) {
          best = broadcast.completion;
          plan.root = root;
          best_reduce = std::move(reduce);
          best_broadcast = std::move(broadcast);
        }
      }
      plan.makespan = best;
      take_phase(std::move(best_reduce));
      take_phase(std::move(best_broadcast));
      plan.stats.nodes = searched.nodes;
      plan.stats.table_references = searched.table_references;
      // Both phases optimal makes the plan the best reduce-then-broadcast
      // through its root, not the best all-reduce: exchanges (both ends
      // sending at once) can beat it, so this is a note, never `optimal`.
      if (all_proven) {
        plan.notes.push_back(
            request.root != kNoProcessor || roots.size() == participants.size()
                ? "both phases proven optimal: no plan that reduces into one root and then broadcasts from it is "
                  "faster (other all-reduce schedules are not covered)"
                : "both phases proven optimal for the root tried (other roots and other all-reduce schedules are not "
                  "covered)");
      }
      plan.lower_bound = graph_allreduce_lower_bound(network, request.root);
      break;
    }
    case Operation::scatter:
    case Operation::gossip:
    case Operation::allgather:
      break;  // steady-state operations: never a makespan plan's (the readers refuse them)
  }
  if (!proven && plan.guarantee.kind == Guarantee::Kind::exact) {
    plan.guarantee = Guarantee::none();
    plan.guarantee.text = request.operation == Operation::allreduce
                              ? "none for all-reduce (the exact search covers reduce-then-broadcast plans only)"
                              : "none (the exact search stopped at a limit; best plan found)";
  }
  if (proven) {
    plan.guarantee = Guarantee::exact();
    plan.optimal = true;
    plan.optimality_proof = proof;
    plan.lower_bound = plan.makespan;  // the proof is the bound
  } else if (plan.makespan - plan.lower_bound <= kRelativeTimeTolerance * plan.makespan) {
    plan.optimal = true;
    plan.optimality_proof = "the makespan meets the lower bound (farthest target's path, or one-port doubling)";
    plan.lower_bound = plan.makespan;
  }
  return plan;
}

}  // namespace hetcoll
