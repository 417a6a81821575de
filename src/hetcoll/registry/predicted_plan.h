// The default plan on a platform graph with latencies and bandwidths
// (`hetcoll broadcast|reduce|allreduce --platform P --message-size S`, the
// graph row "predicted"): of the whole-message plans the command can print,
// the one predicted to finish first when MPI runs it, the prediction made
// in the flow model (model/flow_network.h, sim/program_simulation.h: routes
// with their latency, links shared max-min at their real capacity, SMPI's
// eager and rendezvous sends) — the model the MPI drop-in's chooser
// compares MPI's own algorithms in (registry/program_chooser.h).
//
// Candidates, each planned for the message size and lowered to the program
// the runtime runs (plan/plan_program.h): the graph planners auto,
// hierarchical, look-ahead, ECEF and MPI's binomial tree (one-port model,
// each forward a synchronous send), and for broadcasts and reduces the eager
// model's auto, flat, binomial and 4-nomial trees (a node posts all its
// sends, or receives, at once). A candidate that cannot plan the call (too many participants) is
// skipped, with its reason.
// Rule: the smallest prediction; ties go to the earlier candidate above.
// What the plan then claims: its makespan, lower bound, guarantee and
// optimality are those of its own model (one-port graph or eager), as
// printed; the flow model's time is a prediction (within a few per cent of
// SMPI on the benchmark platforms, docs/RESULTS.md), no bound. The notes say
// which candidate won and every candidate's prediction.
// Where it does not apply (fixed-cost edges, no message size, multicast):
// the graph planners' auto, with a note.
// Complexity: the candidates' planners, plus one prediction each
// (program_simulation.h) on the participants' flow network (O(k² · route
// length) to build for k participants).
#pragma once

#include <string>
#include <vector>

#include "hetcoll/makespan/request.h"
#include "hetcoll/model/graph_network.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct PredictedCandidate {
  std::string name;                 // "auto", "binomial", "eager auto", ...
  double predicted_seconds = 0;     // flow model; +inf when skipped
  std::string skipped;              // why it is not a candidate; empty if it is
};

// Every candidate's prediction (fastest first, skipped ones last) and the
// chosen plan, notes added. Throws like the graph planners when no
// candidate can plan the request.
struct PredictedPlan {
  MakespanPlan plan;
  std::vector<PredictedCandidate> candidates;
};
PredictedPlan plan_by_flow_prediction(const GraphNetwork& network, const MakespanRequest& request);

// Whether the prediction applies: a message size and no fixed-cost edge,
// and a broadcast, reduce or all-reduce.
bool flow_prediction_applies(const GraphNetwork& network, Operation operation);

}  // namespace hetcoll
