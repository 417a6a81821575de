// The plans hetcoll's MPI runtime makes for a communicator, computed
// without MPI: the processors of a platform that the ranks play
// (processor_of_rank[r] for rank r), planned by the registry's planners and
// returned on ranks (processor r of the plan is rank r), routes left to the
// network. The runtime (mpi/runtime.h), its chooser
// (registry/program_chooser.h), the benchmark and tests share them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/cluster.h"
#include "hetcoll/model/nic_network.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// "sender-speed" / "graph" / "eager" (plan/plan.h's names); throws
// InputError naming `parameter` otherwise.
PlanModel parse_plan_model(std::string_view text, std::string_view parameter);

// The plan the Runtime would run, computed without MPI (for tests, the
// benchmark's predictions and `hetcoll` itself): `algorithm` empty = default.
MakespanPlan plan_for_cluster(const Cluster& cluster, Operation operation, ProcessorIndex root,
                              const std::string& algorithm);

// The plan the Runtime would run on its ranks, computed without MPI:
// processor r of the plan is rank r, which plays processor_of_rank[r] of
// the platform. root_rank < 0: the algorithm's default (all-reduce). Under
// PlanModel::platform_graph the platform must be a graph (InputError otherwise) and
// the plan is made for exactly `message_bytes`; its makespan is the graph
// model's prediction. PlanModel::eager: the same, broadcasts and reduces
// (`algorithm` "auto", "flat" or empty), the eager model's prediction.
MakespanPlan plan_for_ranks(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                            Operation operation, int root_rank, double message_bytes, const std::string& algorithm,
                            PlanModel model);

// The sub-cluster of `processors` (in that order) of a platform for a
// message size: the sender-speed view restricted to those processors
// (t(p) = the slowest of p's routes to the others for a graph).
Cluster restrict_to_processors(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processors,
                               double message_bytes);

// The NIC fluid model (model/nic_network.h) of the ranks' processors:
// t_u(S) = L_u + S / U_u of each rank's sender-speed view, read at 1 byte
// and 1 + 65536 bytes; every message carries `envelope_bytes` more.
NicNetwork nic_network_of_ranks(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                                double envelope_bytes);

}  // namespace hetcoll
