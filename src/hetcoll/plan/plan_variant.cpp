#include "hetcoll/plan/plan_variant.h"

namespace hetcoll {

namespace {

template <class... Handlers>
struct Overloaded : Handlers... {
  using Handlers::operator()...;
};
template <class... Handlers>
Overloaded(Handlers...) -> Overloaded<Handlers...>;

}  // namespace

const PlanHeader& plan_header(const PlanVariant& plan) {
  return std::visit([](const PlanHeader& header) -> const PlanHeader& { return header; },
                    static_cast<const PlanAlternatives&>(plan));
}

PlanHeader& plan_header(PlanVariant& plan) {
  return std::visit([](PlanHeader& header) -> PlanHeader& { return header; }, static_cast<PlanAlternatives&>(plan));
}

std::string plan_algorithm(const PlanVariant& plan) { return plan_header(plan).algorithm; }

double plan_predicted_time(const PlanVariant& plan) {
  return std::visit(Overloaded{
                        [](const MakespanPlan& p) { return p.makespan; },
                        [](const SplitBroadcastPlan& p) { return p.makespan; },
                        [](const SplitAllreducePlan& p) { return p.makespan; },
                        [](const SplitReducePlan& p) { return p.predicted_seconds; },
#if HETCOLL_WITH_LP
                        [](const PeriodicPlan& p) { return sgn(p.throughput) > 0 ? 1 / to_double(p.throughput) : 0.0; },
                        [](const PipelinedTreePlan& p) { return p.makespan ? p.makespan->makespan : 0.0; },
#endif
                    },
                    static_cast<const PlanAlternatives&>(plan));
}

}  // namespace hetcoll
