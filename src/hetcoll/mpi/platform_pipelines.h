// Pipelined broadcast plans for the runtime from the platform-graph tree
// planners (steady/broadcast/: the best single tree, Beaumont, Marchal,
// Robert 2004 with local improvement, and the multi-tree packing that
// reaches the SSB optimum). Built with the steady-state layer
// (HETCOLL_WITH_LP).
//
// The plans are made on the rank route graph (rank_route_graph): one node
// per rank, one edge per ordered pair with the latency and bandwidth of the
// platform's route between them (SimGrid's time of one flow alone: sum of
// latencies + size / smallest bandwidth). That is the graph the runtime
// executes: each transfer is one MPI message that the network routes, and
// every rank sends and receives one message at a time (one-port), which is
// how a host's own NIC link is shared. What it leaves out is contention on
// links that several ranks' routes share inside the network (a backbone):
// the benchmarks show that gap beside SMPI's measurement. Planning on the
// topology graph itself (links as nodes) would let a tree branch at a link,
// which no MPI rank can do.
//
// rank_tree binds a tree of any platform to ranks: a rank's parent is its
// nearest ancestor that a rank plays (the hops in between are one MPI
// message), and a rank serves its children in the order the planner added
// their edges.
#pragma once

#ifdef HETCOLL_WITH_LP

#include <string>
#include <vector>

#include "hetcoll/model/platform.h"
#include "hetcoll/mpi/pipelined_broadcast.h"
#include "hetcoll/plan/broadcast_tree.h"

namespace hetcoll::mpi {

// The tree among the ranks; processor_of_rank[r] is a node of `platform`.
// Throws InputError when a rank's node is not reached by the tree.
PipelineTree rank_tree(const hetcoll::BroadcastTree& tree, const Platform& platform,
                       const std::vector<ProcessorIndex>& processor_of_rank);

// The rank route graph: node r is rank r's processor (its id and speed), and
// edge r -> s carries the latency and bandwidth of the platform's route from
// processor_of_rank[r] to processor_of_rank[s] (a cost of the latency alone
// when no link on the way limits the bandwidth). Throws InputError when a
// pair has no route.
Platform rank_route_graph(const Platform& platform, const std::vector<ProcessorIndex>& processor_of_rank);

struct PlatformPipeline {
  PipelinedBroadcastPlan plan;  // on ranks
  double predicted_seconds = 0; // the planner's own prediction for the message
  std::string description;
};

// method "tree": the best single tree (plan_pipelined_tree, default
// heuristic), its slice size and predicted makespan for `message_bytes`.
// "multi-tree": the latency-aware rounds schedule (plan_steady_broadcast
// with the message size, latency_aware.h): the SSB optimum's tree packing dealt out in
// rounds of R slices, tree i taking r_i of each (trees with r_i = 0 left
// out; r_i are the runtime's weights), at the slice size and R the rounds
// model chose for the message — few trees and big slices for a message
// that is latency-bound, more for a long one. Predicted by the runtime's
// one-port replay (predict_pipelined_broadcast); the description gives the
// rounds model's makespan too.
// "auto": the rounds schedule where the rounds model and the replay both
// say it beats the single tree, else the single tree.
// Planned on rank_route_graph(platform, processor_of_rank).
PlatformPipeline plan_platform_pipeline(const Platform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                                        int root_rank, const std::string& method, double message_bytes,
                                        int type_size);

}  // namespace hetcoll::mpi

#endif
