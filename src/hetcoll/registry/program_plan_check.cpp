#include "hetcoll/registry/program_plan_check.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/verify/verify_program.h"

namespace hetcoll {

sim::ProgramTiming predict_program_plan(const Platform& platform, const ProgramPlan& plan) {
  check_program(plan.program, plan.element_count, "program");
  const FlowNetwork network(platform, plan.participants);
  sim::FlowModelOptions options;
  options.envelope_bytes = plan.flow.envelope_bytes;
  options.detached_below_bytes = plan.flow.detached_below_bytes;
  options.seconds_per_combined_byte = plan.flow.seconds_per_combined_byte;
  return sim::predict_program(plan.program, network, plan.element_bytes, options);
}

ProgramPlanVerifyReport verify_program_plan(const Platform& platform, const ProgramPlan& plan) {
  ProgramPlanVerifyReport check;
  VerifyReport& report = check;
  if (plan.program.ranks != static_cast<int>(plan.participants.size())) {
    report.add_violation(fmt::format("program: {} ranks, {} participants", plan.program.ranks, plan.participants.size()));
    return check;
  }
  try {
    check_program(plan.program, plan.element_count, "program");
  } catch (const InputError& error) {
    report.add_violation(error.what());
    return check;
  }
  double elements = 0;
  for (auto size : plan.program.buffer_elements) elements += static_cast<double>(size);
  elements = (elements + static_cast<double>(plan.element_count)) * static_cast<double>(plan.participants.size());
  check.symbolic_run = elements <= kMaxSymbolicElementRanks;
  if (check.symbolic_run) {
    const auto semantic = verify_program(plan.program, plan.operation, plan.root, plan.element_count);
    report.add_violations(semantic);
  }
  if (plan.claims_optimal) {
    report.add_violation("optimal: true, but a program plan proves no optimality (its time is a prediction)");
  }
  const auto timing = predict_program_plan(platform, plan);
  if (!timing.completed()) {
    report.add_violation(fmt::format("the program does not complete in the flow model ({} ranks blocked for ever, "
                                     "the first rank {})",
                                     timing.stuck_ranks.size(), timing.stuck_ranks.front()));
    return check;
  }
  report.measured_makespan = timing.makespan;
  const auto differs = [&](double claimed) {
    return std::fabs(timing.makespan - claimed) > 1e-9 * std::max(timing.makespan, 1e-300);
  };
  if (plan.claimed_makespan && differs(*plan.claimed_makespan)) {
    report.add_violation(fmt::format("makespan: the plan claims {} s, the flow model predicts {} s on this platform",
                                     *plan.claimed_makespan, timing.makespan));
  }
  if (plan.claimed_lower_bound && *plan.claimed_lower_bound > 0) {
    report.add_violation(fmt::format("lower_bound: {} s claimed, but a program plan proves no bound (write 0)",
                                     *plan.claimed_lower_bound));
  }
  if (!plan.transfers.empty()) {
    if (plan.transfers.size() != timing.message_times.size()) {
      report.add_violation(fmt::format("transfers: {} listed, the program sends {} messages",
                                       plan.transfers.size(), timing.message_times.size()));
    } else {
      for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
        const auto& claimed = plan.transfers[i];
        const auto& predicted = timing.message_times[i];
        const auto close = [&](double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(timing.makespan, 1e-300); };
        if (claimed.from != predicted.from || claimed.to != predicted.to || !close(claimed.start, predicted.start) ||
            !close(claimed.end, predicted.end)) {
          report.add_violation(fmt::format("transfers[{}]: rank {} to rank {}, {} to {} s; the program's message {} is "
                                           "rank {} to rank {}, predicted {} to {} s",
                                           i, claimed.from, claimed.to, claimed.start, claimed.end, i, predicted.from,
                                           predicted.to, predicted.start, predicted.end));
          break;
        }
      }
    }
  }
  if (std::fabs(timing.makespan - plan.predicted_seconds) > 1e-9 * std::max(timing.makespan, 1e-300)) {
    report.add_violation(fmt::format("predicted_seconds: the plan claims {} s, the flow model predicts {} s on this "
                                     "platform",
                                     plan.predicted_seconds, timing.makespan));
  }
  return check;
}

}  // namespace hetcoll
