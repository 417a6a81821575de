// Pipelined broadcast plans for the runtime from the platform-graph tree
// planners (steady/broadcast/: the best single tree, Beaumont, Marchal,
// Robert 2004 with local improvement, and the multi-tree packing that
// reaches the SSB optimum). Built with the steady-state layer
// (HETCOLL_WITH_LP).
//
// A platform tree's nodes include routers and link nodes, which forward in
// the network but are no MPI rank: a rank's parent in the runtime's tree is
// its nearest ancestor that a rank plays (the hops in between are one MPI
// message, routed by the network), and a rank serves its children in the
// order the planner added their edges.
#pragma once

#ifdef HETCOLL_WITH_LP

#include <string>
#include <vector>

#include "hetcoll/model/platform.h"
#include "hetcoll/mpi/pipelined_broadcast.h"
#include "hetcoll/steady/broadcast/broadcast_tree.h"

namespace hetcoll::mpi {

// The tree among the ranks; processor_of_rank[r] is a node of `platform`.
// Throws InputError when a rank's node is not reached by the tree.
PipelineTree rank_tree(const hetcoll::BroadcastTree& tree, const Platform& platform,
                       const std::vector<ProcessorIndex>& processor_of_rank);

struct PlatformPipeline {
  PipelinedBroadcastPlan plan;  // on ranks
  double predicted_seconds = 0; // the planner's own prediction for the message
  std::string description;
};

// method "tree": the best single tree (plan_pipelined_tree, default
// heuristic), its slice size and predicted makespan for `message_bytes`;
// "multi-tree": the SSB optimum's tree packing, weights as slice shares,
// the slice size that minimises predict_pipelined_broadcast.
// The ranks must play participants of `platform` (others become routers).
PlatformPipeline plan_platform_pipeline(const Platform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                                        int root_rank, const std::string& method, double message_bytes,
                                        int type_size);

}  // namespace hetcoll::mpi

#endif
