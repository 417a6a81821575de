// The command line's default plan (`hetcoll broadcast|reduce|allreduce
// --platform P --message-size S`, `--algo predicted`) on a platform with
// latencies and bandwidths: whichever of every candidate the flow model
// (sim/program_simulation.h, SMPI's sends) predicts fastest — the
// whole-message plans of registry/predicted_plan.h (graph planners, MPI's
// binomial tree, eager trees), and the MPI drop-in chooser's programs
// (registry/program_chooser.h): MPI's own algorithms as SimGrid SMPI
// implements them (scatter + all-gather, Rabenseifner, ring, pipelines...)
// and hetcoll's split, site and paced-eager programs.
//
// Rule: the fastest whole-message plan, unless a program is predicted
// faster by more than `kDefaultPlanMargin` (2 %): then that program, as a
// program plan (plan/program_plan.h) — the fastest of MPI's algorithms
// (predicted within 0.5 % of SMPI) unless a hetcoll program is predicted
// faster than it by more than the margin too. Ties and near-ties keep the
// whole-message plan (the plans of small messages do not change), and MPI's
// algorithm over hetcoll's programs. hetcoll programs of more than 20,000
// messages or 256 ranks are not candidates (their cost to build, check and
// run grows faster than the call), nor are programs for a message of a
// fractional number of bytes.
// Claims: a program plan's time is a prediction in the flow model, no bound
// and no optimality; a whole-message plan keeps its own model's claims.
// Ranks: rank r is participant r (the platform's hosts in index order, or
// the given processor_of_rank).
//
// Complexity: predicted_plan.h's candidates, plus about 25 programs built
// and predicted (program_chooser.h's cost each).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/makespan/request.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/plan/comm_program.h"
#include "hetcoll/plan/program_plan.h"
#include "hetcoll/registry/predicted_plan.h"
#include "hetcoll/registry/program_chooser.h"

namespace hetcoll {

inline constexpr double kDefaultPlanMargin = 0.02;

struct DefaultPlan {
  // The whole-message plan predicted fastest and every whole-message
  // candidate's prediction (registry/predicted_plan.h).
  PredictedPlan whole_message;
  // Every program candidate's prediction, fastest first, refused ones last.
  std::vector<ProgramCandidate> program_candidates;
  // Set when a program is predicted faster than the whole-message plan by
  // more than the margin: that program, verified-ready, as a plan file holds it.
  std::optional<ProgramPlan> program;
  // The chosen plan's prediction (seconds in the flow model).
  double predicted_seconds = 0;
};

// For the command line: ranks are network.participants(); elements of
// `element_bytes` bytes (the message size must be a whole number of them:
// InputError naming "element_bytes" otherwise).
DefaultPlan plan_default(const GraphNetwork& network, const MakespanRequest& request, std::size_t element_bytes = 1);

// "hetcoll:predicted" for the benchmark and tests: the program the command
// line's default plan runs for `call` on the ranks (the whole-message plan
// lowered as the MPI runtime runs it, or the winning program), and its
// prediction. InputError where the flow model does not apply.
struct DefaultProgram {
  CommProgram program;
  std::string name;  // the candidate: "predicted (binomial)" or "mpi:scatter_rdb_allgather"
  double predicted_seconds = 0;
};
DefaultProgram default_plan_program(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                                    const CallShape& call);

// What a program candidate is, in words ("MPI's scatter_rdb_allgather
// broadcast (...), as SimGrid SMPI implements it").
std::string program_candidate_description(const std::string& name, Operation operation);

}  // namespace hetcoll
