// The split rows (makespan/split/): messages cut into pieces, each piece
// spread or reduced by another participant.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/split/split_allreduce_nic.h"
#include "hetcoll/makespan/split/split_broadcast.h"
#include "hetcoll/makespan/split/split_reduce.h"
#include "hetcoll/model/nic_network.h"
#include "hetcoll/registry/registry.h"
#include "hetcoll/registry/rows_internal.h"

namespace hetcoll {

namespace {

const Platform& platform_of(const PlannerProblem& problem, const char* name) {
  if (!problem.platform) throw InputError("problem", fmt::format("{} plans on a platform graph", name));
  return *problem.platform;
}

// The elements of the message: request.elements, else message_size bytes
// of element_bytes each (at least one).
std::size_t element_count(const PlannerRequest& request) {
  if (request.elements > 0) return request.elements;
  if (!request.message_size || !(request.element_bytes > 0)) {
    throw InputError("message_size", "the split plans need the message size (bytes) or an element count");
  }
  return static_cast<std::size_t>(std::max(1.0, std::ceil(*request.message_size / request.element_bytes)));
}

// The index of `processor` among the participants (the root by default).
std::size_t member_index(const std::vector<ProcessorIndex>& members, ProcessorIndex processor) {
  if (processor == kNoProcessor) return 0;
  auto it = std::find(members.begin(), members.end(), processor);
  if (it == members.end()) throw InputError("root", "the source/root is not a participant of the platform");
  return static_cast<std::size_t>(it - members.begin());
}

PlannerEntry split_row(std::string name, Operation operation, CommunicationModel model, std::string summary,
                       std::string complexity, std::string reference) {
  PlannerEntry row;
  row.name = std::move(name);
  row.operation = operation;
  row.model = model;
  row.guarantee.kind = Guarantee::Kind::heuristic;
  row.guarantee.stopped_kind = Guarantee::Kind::heuristic;
  row.guarantee.text = "none (heuristic); the plan states its lower bound";
  row.complexity = std::move(complexity);
  row.reference = std::move(reference);
  row.summary = std::move(summary);
  row.is_default = true;
  row.capabilities.splits_messages = true;
  row.capabilities.needs_message_size = true;
  return row;
}

}  // namespace

void add_split_planners(std::vector<PlannerEntry>& rows) {
  auto broadcast = split_row(
      "split", Operation::broadcast, CommunicationModel::split,
      "the source scatters pieces sized to the links to spreaders, each spreader sends its piece to everyone, in "
      "chunks (eager model, affine costs)",
      "O(K k^2) per schedule of K chunks; about 8 x 60 schedules plus two eager matrices",
      "Barnett et al., InterCom, 1994 (scatter + all-gather); Thakur, Rabenseifner, Gropp 2005; sizing to "
      "heterogeneous links: hetcoll");
  broadcast.run_plan = [](const PlannerProblem& problem, const PlannerRequest& request) {
    const Platform& platform = platform_of(problem, "the split broadcast");
    const auto members = platform.participants();
    const SplitCosts costs = SplitCosts::of(platform, members);
    return PlanVariant(plan_split_broadcast(costs, member_index(members, request.makespan.root), element_count(request),
                                            request.element_bytes));
  };
  rows.push_back(std::move(broadcast));

  auto allreduce = split_row(
      "split", Operation::allreduce, CommunicationModel::fluid,
      "a reduce-scatter of pieces sized to the links to aggregators, then an all-gather from them, in chunks; "
      "planned in the NIC fluid model, with its own-data and traffic lower bounds",
      "O(E (F + n)) per simulation of E events, F flows in flight; a bounded number of simulations",
      "Rabenseifner 2004 (reduce-scatter + all-gather); Thakur, Rabenseifner, Gropp 2005; sizing to heterogeneous "
      "links: hetcoll");
  allreduce.run_plan = [](const PlannerProblem& problem, const PlannerRequest& request) {
    const Platform& platform = platform_of(problem, "the split all-reduce");
    const NicNetwork network = nic_network_from_platform(platform);
    auto plan = plan_split_allreduce_nic(network, element_count(request), request.element_bytes);
    const auto members = platform.participants();
    for (auto& member : plan.members) member = members[static_cast<std::size_t>(member)];
    return PlanVariant(std::move(plan));
  };
  rows.push_back(std::move(allreduce));

  auto reduce = split_row(
      "split", Operation::reduce, CommunicationModel::fluid,
      "every processor sends each piece of its contribution to that piece's aggregator, which forwards the reduced "
      "piece to the root; pieces sized in the NIC fluid model (up and down links shared by concurrent flows)",
      "O(M (M + n) n) per simulation of M messages, a bounded number of simulations",
      "Rabenseifner 2004 (reduce-scatter + gather); sizing to heterogeneous links: hetcoll");
  reduce.run_plan = [](const PlannerProblem& problem, const PlannerRequest& request) {
    const Platform& platform = platform_of(problem, "the split reduce");
    const auto members = platform.participants();
    const NicNetwork network = nic_network_from_platform(platform);
    return PlanVariant(plan_split_reduce(network, static_cast<ProcessorIndex>(member_index(members, request.makespan.root)),
                                         element_count(request), request.element_bytes));
  };
  rows.push_back(std::move(reduce));
}

}  // namespace hetcoll
