// Building blocks shared by the graph planners (makespan/graph/*): a list
// schedule of ports, and a broadcast under construction over a
// RouteMatrix. Not an algorithm: the planners decide who sends to whom, these
// classes place each decision as early as the model allows
// (model/graph_network.h) and record it.
//
// Ports are only appended to (a transfer never fills an idle gap before an
// already placed one), so a plan built here is exactly what the simulator
// computes when it replays the plan in the same order: planned and simulated
// makespans agree.
//
// Reduces are planned as broadcasts of the time-reversed problem (a
// RouteMatrix built `reversed`): the reversed schedule read backwards is a
// reduce schedule on the platform's own routes and ports. A node's combines become, in reversed
// time, one computation of 1/speed before each of its sends; the builder
// places those on the node's processor. to_reduce_plan() maps the result back
// and re-times it forwards (the combines as the model places them, in arrival
// order), which can only make it earlier.
#pragma once

#include <chrono>

#include <cstddef>
#include <span>
#include <vector>

#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// Port availability (model/graph_network.h): each port is free from a time on.
class PortTimeline {
 public:
  explicit PortTimeline(const GraphNetwork& network) : PortTimeline(&network) {}
  // nullptr: an empty placeholder on which nothing may be placed.
  explicit PortTimeline(const GraphNetwork* network);

  // Earliest start >= `ready` of a transfer holding `ports`.
  double earliest_start(std::span<const PortId> ports, double ready) const;
  void occupy(std::span<const PortId> ports, double end);

 private:
  std::vector<double> free_;
};

// A broadcast (or multicast) from one member of a RouteMatrix, built one
// transfer at a time. Member indices throughout.
class BroadcastBuilder {
 public:
  // `source_ready`: when the source holds the message. `combine_before_send`
  // (reversed reduces): per member, the computation its every send needs
  // first; empty = none.
  BroadcastBuilder(const GraphNetwork& network, const RouteMatrix& table, std::size_t source, PortTimeline& timeline,
                   double source_ready = 0, std::vector<double> combine_before_send = {});

  const RouteMatrix& table() const { return table_; }
  bool informed(std::size_t member) const { return informed_at_[member] < kNoRoute; }
  double informed_at(std::size_t member) const { return informed_at_[member]; }
  std::size_t informed_count() const { return informed_count_; }

  // When `from` could next start a send (its data and its computation).
  double ready_to_send(std::size_t from) const;
  // Start and end of from -> to if it were placed now (end = kNoRoute when
  // the pair has no route).
  struct Window {
    double start, end;
  };
  Window window(std::size_t from, std::size_t to) const;
  // On a through_hub() table, window(from, to).start is
  // max(sender_free(from), receiver_free(to)): when `from` and the ports on
  // its side of the hub are free, and when the ports on `to`'s side are.
  double sender_free(std::size_t from) const;
  double receiver_free(std::size_t to) const;
  // Places from -> to at its window; `to` becomes informed at its end.
  void send(std::size_t from, std::size_t to);

  // The transfers placed so far, in placement order, with their routes (of the
  // reversed problem's direction when the table is reversed).
  const std::vector<Transfer>& transfers() const { return transfers_; }
  double last_end() const { return last_end_; }

 private:
  const GraphNetwork& network_;
  const RouteMatrix& table_;
  PortTimeline& timeline_;
  std::vector<double> informed_at_;
  std::vector<double> combine_before_send_;
  std::vector<double> compute_free_;
  std::vector<Transfer> transfers_;
  std::vector<std::size_t> joined_route_;  // scratch: a route given in two parts
  std::size_t informed_count_ = 0;
  double last_end_ = 0;
};

// The route matrix, timeline and builder of a flat (one-level) greedy
// planner for a task of graph_planner.h. Refuses tasks of more than
// kMaxFlatMembers participants (the table holds a route per pair), naming
// the planner.
struct BroadcastTask;
inline constexpr std::size_t kMaxFlatMembers = 1024;
// `shared_timeline`: place the transfers on it (a hierarchical plan's levels
// share one) instead of a fresh one.
struct FlatBroadcast {
  FlatBroadcast(const GraphNetwork& network, const BroadcastTask& task, const char* planner,
                PortTimeline* shared_timeline = nullptr);
  FlatBroadcast(const FlatBroadcast&) = delete;
  FlatBroadcast& operator=(const FlatBroadcast&) = delete;

  RouteMatrix table;
  PortTimeline own_timeline;
  BroadcastBuilder builder;
  std::vector<char> must_receive;  // per member
  std::size_t waiting = 0;         // members that must receive and have not yet
  std::chrono::steady_clock::time_point deadline;  // the task's

  void send(std::size_t from, std::size_t to) {
    if (must_receive[to] && !builder.informed(to)) --waiting;
    builder.send(from, to);
  }
};

// Per member of a reversed table, the combine time of that node (empty when
// computing is free everywhere): what BroadcastBuilder needs for a reduce.
std::vector<double> combine_times(const GraphNetwork& network, const RouteMatrix& table);

// Transfers of a broadcast planned on a reversed table, turned into the
// reduce they describe (partial results flowing to the source) and re-timed
// forwards on the platform, combines included: a reduce plan whose makespan
// is the root's last combine.
MakespanPlan reduce_from_reversed(const GraphNetwork& network, ProcessorIndex root,
                                  const std::vector<Transfer>& reversed_broadcast);

}  // namespace hetcoll
