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

std::string plan_algorithm(const PlanVariant& plan) {
  return std::visit(Overloaded{
                        [](const MakespanPlan& p) { return p.algorithm; },
                        [](const SplitBroadcastPlan& p) { return p.description; },
                        [](const SplitAllreducePlan& p) { return p.description; },
                        [](const SplitReducePlan& p) { return p.description; },
#if HETCOLL_WITH_LP
                        [](const PeriodicPlan& p) { return p.algorithm; },
                        [](const PipelinedTreePlan& p) { return p.heuristic; },
#endif
                    },
                    static_cast<const PlanAlternatives&>(plan));
}

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
