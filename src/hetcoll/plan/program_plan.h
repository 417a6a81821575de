// A program plan: one collective call as the communication program every
// rank runs (plan/comm_program.h), with what it is for — the operation,
// root, element count and size, which platform host each rank plays — and
// what it is claimed to do: its completion time *predicted* in the flow
// model (model/flow_network.h, sim/program_simulation.h: routes with their
// latency, links shared max-min at their capacity, SMPI's eager and
// rendezvous sends). The prediction is no bound and no optimality claim.
//
// It is how the command line writes a default plan that is not a tree of
// whole messages (MPI's scatter + all-gather or Rabenseifner algorithms,
// hetcoll's split, pipelined and site programs): `--out`/`--json`
// (plan/program_plan_json.h, docs/FORMATS.md "Program plans"), and what
// `hetcoll validate` checks (verify_program for the operation, the
// prediction recomputed) and `hetcoll simulate` runs in the flow model.
//
// Header (plan_header.h): the operation (broadcast, reduce or allreduce),
// the algorithm (the candidate's name), model fluid (bandwidth shared
// max-min fair by concurrent flows; here the flow model of
// model/flow_network.h, along the platform's routes: files say "flow"),
// status finished, the notes, stats.seconds the time to choose and build
// it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/plan/comm_program.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// The flow model's settings a program plan's prediction was made with
// (sim::FlowModelOptions, kept here so that plans need not include sim/).
struct ProgramPlanFlowSettings {
  double envelope_bytes = 16;            // SMPI's message envelope
  double detached_below_bytes = 65536;   // SMPI's eager threshold
  double seconds_per_combined_byte = 0;  // combines free (SMPI without computation)
};

// One message as the flow model predicts it (ranks; seconds from the call).
struct ProgramTransfer {
  int from = 0, to = 0;
  double start = 0, end = 0;
  bool operator==(const ProgramTransfer&) const = default;
};

struct ProgramPlan : PlanHeader {
  ProgramPlan() { model = PlanModel::fluid; }
  int root = 0;                                // the root rank; -1 for allreduce
  std::size_t element_count = 0;               // elements of buffer 0
  std::size_t element_bytes = 1;               // bytes per element
  // Rank r plays the platform node participants[r] (a host).
  std::vector<ProcessorIndex> participants;
  // What the algorithm (the candidate's name, "mpi:scatter_rdb_allgather",
  // "hetcoll:split") is, in words.
  std::string description;
  double predicted_seconds = 0;  // in the flow model, with `flow`
  // What a file read claims beyond the prediction (hetcoll writes false
  // and no bound; validate rejects a file claiming optimality).
  bool claims_optimal = false;
  std::optional<double> claimed_makespan;     // a file's "makespan" (written: the prediction)
  std::optional<double> claimed_lower_bound;  // a file's "lower_bound" (written: 0, no bound)
  // Every message with its predicted start (both ends posted) and arrival,
  // in the order of the sends (rank by rank): the "transfers" of the file.
  std::vector<ProgramTransfer> transfers;
  ProgramPlanFlowSettings flow;
  CommProgram program;

  double message_bytes() const { return static_cast<double>(element_count) * static_cast<double>(element_bytes); }
};

}  // namespace hetcoll
