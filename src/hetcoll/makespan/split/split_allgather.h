// Split all-gather: every rank sends its block to a hub rank, which then
// broadcasts all the blocks with the split broadcast (split_broadcast.h:
// pieces sized to the spreaders' links, each piece spread by its spreader).
//
// Problem: MPI_Allgather of `count` elements per rank (each `element_bytes`
// bytes) on a platform graph with latencies and bandwidths. MPI's own
// algorithms (ring, Bruck, recursive doubling, SMPI's all-at-once
// exchange) make every rank send p - 1 blocks' worth through its own link,
// so the slowest link sets the time: about (p - 1) · block / b_min. Here a
// slow rank sends its block once; the fast ranks' links carry the
// forwarding.
//
// Program (plan/comm_program.h): phase 1, every rank Isends its block to
// the hub, which posts every receive at once and waits for all; phase 2,
// the split broadcast of the p blocks from the hub, its sends paced at
// their planned times shifted by phase 1's predicted end at the hub.
// Hubs tried: the `hub_candidates` ranks with the fastest links out (mean
// seconds per byte to the others, SplitCosts); each composed program is
// predicted in the flow model (sim/program_simulation.h) and the fastest
// kept.
// Guarantee: none (a heuristic; its prediction is exact in the flow model,
// which the chooser compares with MPI's algorithms). Complexity: per hub,
// one split broadcast plan (split_broadcast.h) and two predictions.
// Reference: the split broadcast's (Barnett et al. 1994; Thakur,
// Rabenseifner, Gropp 2005) after a gather; the hub and sizing to
// heterogeneous links are hetcoll's.
#pragma once

#include <cstddef>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/model/platform.h"
#include "hetcoll/plan/comm_program.h"
#include "hetcoll/sim/program_simulation.h"

namespace hetcoll {

struct SplitAllgatherOptions {
  std::size_t hub_candidates = 3;
  double envelope_bytes = 0;  // planned for each message plus this
  sim::FlowModelOptions flow;
};

struct SplitAllgather {
  CommProgram program;     // buffer 0: every rank's block, `count` elements each
  int hub = 0;             // the rank that gathers
  double predicted_seconds = 0;
};

// Throws InputError naming the parameter (count, element_bytes, members).
SplitAllgather plan_split_allgather(const Platform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                                    const FlowNetwork& network, std::size_t count, std::size_t element_bytes,
                                    const SplitAllgatherOptions& options = {});

}  // namespace hetcoll
