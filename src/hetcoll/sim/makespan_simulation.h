// Executing a makespan plan on a platform: what happens when the plan's
// messages are sent as a runtime would send them (an MPI rank posting its
// sends and receives in plan order, each message leaving as soon as its data
// and its ports allow), once or K times back to back.
//
// STABLE INTERFACE: simulate(), MakespanSimulation, SimulationOptions and
// as_soon_as_possible() (the CLI `simulate` command, the property tests and
// the planners' re-timing use them). Periodic (steady-state) plans are
// simulated by their own builder on sim/event_engine.h.
//
// Only the plan's structure is taken from the plan: who sends to whom, what
// (payload), and the order of the messages on each resource (by planned
// start time). Times come from the model:
//  * platform graph (model/graph_network.h): a transfer lasts its route's time
//    and holds the ports the model gives it (its sender's send port, its
//    receiver's receive port, both ports of every one-port node it crosses);
//    a transfer without a route takes the platform's. A node combines each
//    received partial result on its processor (1 / speed each, in arrival
//    order) and sends its own after its last combine.
//  * sender-speed cluster: a transfer lasts t(sender) and holds both ends'
//    single port.
// Data dependencies: a processor forwards the broadcast value after the
// first message that brings it; a reducer sends after everything it
// receives; the broadcast phase of an all-reduce starts once the root has
// combined everything. Operation k+1 of a K-operation run follows operation k
// on every port (same order), its data available from time 0.
//
// A plan whose planned times are as early as its model allows (every
// planner's, and every plan verify() accepts once re-timed) simulates to its
// own makespan; a plan made for another model (the sender-speed view of a
// graph) simulates to what it really takes on the platform.
// Complexity: O(K m log(K m)) for m transfers, plus one route search per
// sender when routes are missing.
#pragma once

#include <cstddef>
#include <vector>

#include "hetcoll/model/cluster.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct SimulationOptions {
  std::size_t operations = 1;  // K back-to-back operations
};

struct MakespanSimulation {
  std::size_t operations = 1;
  double makespan = 0;                        // when the last operation completed
  std::vector<double> operation_completion;   // per operation: when it completed
  // The plan's transfers as executed in the first operation (times from the
  // simulation, routes filled in on graphs), in plan order.
  std::vector<Transfer> first_operation;
};

// Throws InputError when the plan cannot be executed on this platform (a
// node outside it, a router sending or receiving, a pair without a route, a
// forwarder that never receives, an order that deadlocks); verify() says
// why in more detail.
MakespanSimulation simulate(const GraphNetwork& network, const MakespanPlan& plan,
                            const SimulationOptions& options = {});
MakespanSimulation simulate(const Cluster& cluster, const MakespanPlan& plan, const SimulationOptions& options = {});

// The plan re-timed by one simulated execution: same messages, same order on
// every resource, each as early as the model allows; routes filled in and
// `makespan` updated (never later than before for a valid plan).
MakespanPlan as_soon_as_possible(const GraphNetwork& network, MakespanPlan plan);

}  // namespace hetcoll
