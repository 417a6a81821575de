// Choosing, for one collective call, what runs: the MPI library's own
// default, one of MPI libraries' algorithms, or one of hetcoll's plans, by
// one prediction. Every candidate is a communication program
// (plan/comm_program.h), timed by the same flow model
// (sim/program_simulation.h: SimGrid CM02 sharing, SMPI's eager and
// rendezvous sends) on the platform the ranks play.
//
// Candidates for (operation, root, count, element size):
//  * "mpi:NAME": every algorithm of makespan/mpi_algorithms/ that models
//    the call (SMPI's names); "mpi:default" is what the library runs when
//    nothing is forced, when the library's default selector is modelled
//    (ChooserOptions::library; under Open MPI, the prediction of the
//    program its fixed decision picks);
//  * "hetcoll:graph": the graph planners' default whole-message plan on the
//    platform (registry/plans_on_ranks.h), "hetcoll:sender-speed" the
//    sender-speed planners' on its sender-speed view, and "hetcoll:eager"
//    (broadcasts and reduces) the eager model's tree, whose ranks send to
//    all their children at once ("hetcoll:eager-paced": a broadcast's sends
//    each at its planned time); each lowered to the program the runtime
//    runs (plan/plan_program.h);
//  * "hetcoll:split": the split broadcast, reduce, all-reduce and
//    all-gather (makespan/split/), planned for the call's count and lowered
//    by plan/split_program.h; "hetcoll:split-nic": the split all-reduce
//    planned in the NIC fluid model (split_allreduce_nic.h) instead of the
//    eager model;
//  * "hetcoll:sites": on ranks in two or more sites, the site plan
//    (makespan/sites/site_collectives.h: the WAN crossed once per site in
//    segments, each site's best MPI algorithm inside).
// The command line's default plan for a call ("hetcoll:predicted" in the
// benchmark) is registry/default_plan.h's, which weighs these candidates.
// Rule: the library's default runs (PMPI_* unchanged) unless another
// candidate is predicted faster by more than `margin` (a fraction); then the
// fastest candidate runs. When the library's default is not modelled, a
// candidate replaces it only when predicted faster than every MPI algorithm
// by more than `margin` (the default is one of them, at best the fastest).
// Reduces and all-reduces of non-commutative operations always run the
// library's default (the candidates combine in arrival order).
//
// Complexity: one program and one prediction per candidate (about 25);
// each prediction O(E · (A + C · P + R²)) (program_simulation.h).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/model/platform_io.h"
#include "hetcoll/plan/comm_program.h"
#include "hetcoll/plan/plan.h"
#include "hetcoll/sim/program_simulation.h"

namespace hetcoll {

// One collective call, as every rank makes it.
struct CallShape {
  Operation operation = Operation::broadcast;  // broadcast, reduce, allreduce or allgather
  int root = 0;                                // ignored for allreduce and allgather
  std::size_t count = 0;                       // elements (allgather: each rank's block)
  std::size_t element_bytes = 1;
  bool commutative = true;
};

// Whose default selector the chooser models (mpi:default): SMPI's default
// selector, Open MPI 4.1's fixed decision (makespan/mpi_algorithms/
// stock_mpi.h: modelled where the algorithm it picks is; elsewhere the
// call is treated as under `unknown`), or none.
enum class MpiLibrary { smpi, openmpi, unknown };

struct ChooserOptions {
  double margin = 0.02;
  MpiLibrary library = MpiLibrary::smpi;
  sim::FlowModelOptions flow;
};

struct ProgramCandidate {
  std::string name;                // "mpi:binomial_tree", "hetcoll:graph"
  double predicted_seconds = 0;    // +inf when refused
  std::string refused;             // why it is not a candidate for this call; empty if it is
};

struct ProgramChoice {
  // Every candidate considered, fastest first, refused ones last.
  std::vector<ProgramCandidate> candidates;
  // The one that runs: "mpi:default" means PMPI_* unchanged.
  std::string chosen;
  // Its prediction; when the library's default runs and its selection is
  // not modelled (MpiLibrary::unknown), the fastest MPI algorithm's: a
  // lower bound on the default's time.
  double chosen_seconds = 0;
  // The library default's prediction (NaN when not modelled).
  double default_seconds = 0;
  std::string reason;  // one line, for verbose output
  // The chosen candidate's program, as predicted (empty when the library's
  // default runs): callers run it as is instead of planning it again.
  std::shared_ptr<const CommProgram> program;
  bool runs_library_default() const { return chosen == "mpi:default"; }
};

// The elements of a program's buffer 0 for `call` on `ranks` ranks (an
// allgather's holds every rank's block).
std::size_t call_data_elements(const CallShape& call, int ranks);

// Whether the chooser applies: a platform graph whose times depend on the
// message size (latencies and bandwidths). Clusters and fixed-cost graphs
// keep the sender-speed and graph planners' plans.
bool chooser_applies(const LoadedPlatform& platform);

// Every candidate for `call` on the ranks' processors, predicted; and the
// choice. Throws InputError when the chooser does not apply or the call is
// malformed (root out of range).
ProgramChoice choose_program(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                             const CallShape& call, const ChooserOptions& options = {});

// One candidate's prediction for `call` (seconds; +inf when the program
// does not complete in the model) on `network` (the ranks' FlowNetwork).
// Throws InputError like candidate_program.
double predict_candidate(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                         const FlowNetwork& network, const CallShape& call, const std::string& name,
                         const sim::FlowModelOptions& flow = {});

// The program of one candidate by name (what every rank builds once the
// choice is known). Throws InputError for an unknown or refused name.
CommProgram candidate_program(const LoadedPlatform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                              const CallShape& call, const std::string& name);

}  // namespace hetcoll
