// The eager model's rows (makespan/eager/): broadcast and reduce planners
// for eager MPI sends, on a platform graph.
#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/eager/eager_broadcast.h"
#include "hetcoll/makespan/eager/eager_reduce.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/registry/rows_internal.h"

namespace hetcoll {

namespace {

PlannerEntry eager_row(Operation operation, EagerHeuristic heuristic, std::string summary, std::string complexity,
                       std::string reference, std::string guarantee_text) {
  PlannerEntry row;
  row.name = to_string(heuristic);
  row.operation = operation;
  row.model = CommunicationModel::eager;
  row.guarantee.kind = Guarantee::Kind::heuristic;
  row.guarantee.stopped_kind = Guarantee::Kind::heuristic;
  row.guarantee.text = std::move(guarantee_text);
  row.complexity = std::move(complexity);
  row.reference = std::move(reference);
  row.summary = std::move(summary);
  row.is_default = heuristic == EagerHeuristic::automatic;
  row.is_selector = heuristic == EagerHeuristic::automatic;
  row.capabilities.needs_message_size = true;
  row.run_on_graph = [operation, heuristic](const GraphNetwork& network, const MakespanRequest& request) {
    const ProcessorIndex root = request.root == kNoProcessor ? network.platform().participants().front() : request.root;
    return operation == Operation::reduce ? plan_eager_reduce(network, root, heuristic)
                                          : plan_eager_broadcast(network, root, heuristic);
  };
  return row;
}

}  // namespace

void add_eager_planners(std::vector<PlannerEntry>& rows) {
  rows.push_back(eager_row(
      Operation::broadcast, EagerHeuristic::automatic,
      "the best in the eager model of the flat, shortest-path, greedy earliest-arrival and k-ary trees, each node's "
      "sends in Jackson's order",
      "O(k^3 log k) up to 64 participants, else O(k^2 log k) + about 1,600 trees of O(k log k); at most 4096 "
      "participants",
      "Bar-Noy, Kipnis 1994 (postal model); Jackson 1955 (send order)",
      "none (heuristic); optimal when the makespan meets the lower bound"));
  rows.push_back(eager_row(Operation::broadcast, EagerHeuristic::flat, "the source sends to every other participant",
                           "O(k log k) after the eager matrix (k route searches)",
                           "the flat tree of MPI's linear broadcast", "none (heuristic)"));
  rows.back().capabilities.baseline = true;
  for (auto heuristic : {EagerHeuristic::binomial, EagerHeuristic::knomial4}) {
    rows.push_back(eager_row(Operation::broadcast, heuristic,
                             fmt::format("MPI's {} tree over the participants in index order, each node posting "
                                         "its sends at once",
                                         to_string(heuristic)),
                             "O(k log k) after the eager matrix (k route searches)",
                             "Thakur, Rabenseifner, Gropp 2005 (MPICH binomial); MVAPICH2's knomial broadcast",
                             "none (heuristic)"));
    rows.back().capabilities.baseline = true;
  }
  rows.push_back(eager_row(
      Operation::reduce, EagerHeuristic::automatic,
      "the eager broadcast's auto tree from the root on the transposed costs, reversed in time (each node sends "
      "once; its link receives one message at a time)",
      "that of the eager broadcast's auto, plus O(k^2) for the transposed matrix; at most 4096 participants",
      "Bar-Noy, Kipnis 1994 (postal model); Jackson 1955 (receive order, reversed)",
      "none (heuristic); optimal when the makespan meets the lower bound (the broadcast's, through the reversal)"));
  rows.push_back(eager_row(Operation::reduce, EagerHeuristic::flat,
                           "every other participant sends to the root, paced so that the root's link receives one at "
                           "a time",
                           "O(k log k) after the eager matrix (k route searches)", "the flat tree of MPI's linear reduce",
                           "none (heuristic)"));
  rows.back().capabilities.baseline = true;
  for (auto heuristic : {EagerHeuristic::binomial, EagerHeuristic::knomial4}) {
    rows.push_back(eager_row(Operation::reduce, heuristic,
                             fmt::format("MPI's {} tree to the root over the participants in index order, each "
                                         "node receiving its children's values at once",
                                         to_string(heuristic)),
                             "O(k log k) after the eager matrix (k route searches)",
                             "Thakur, Rabenseifner, Gropp 2005 (MPICH binomial reduce); MVAPICH2's knomial reduce",
                             "none (heuristic)"));
    rows.back().capabilities.baseline = true;
  }
}

}  // namespace hetcoll
