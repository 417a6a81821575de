#include "hetcoll/report/program_plan_text.h"

#include <algorithm>

#include <fmt/format.h>

#include "hetcoll/core/units.h"

namespace hetcoll {

std::string program_plan_summary(const ProgramPlan& plan, const Platform& platform, const ProgramPlanVerifyReport& check,
                                 const DefaultPlan* runners_up) {
  std::string text;
  std::string root;
  if (plan.operation != Operation::allreduce && plan.root >= 0 &&
      static_cast<std::size_t>(plan.root) < plan.participants.size()) {
    root = fmt::format(", {} {}", plan.operation == Operation::broadcast ? "source" : "root",
                       platform.id(plan.participants[static_cast<std::size_t>(plan.root)]));
  }
  text += fmt::format("{} of {} participants{}, program {}\n", to_string(plan.operation), plan.participants.size(), root,
                      plan.algorithm);
  if (!plan.description.empty()) text += fmt::format("  what         {}\n", plan.description);
  text += fmt::format("  model        flow model: routes' latencies, links shared at their capacity, MPI's eager and "
                      "rendezvous sends (as SimGrid SMPI runs them); {} messages ({} elements of {} byte{})\n",
                      byte_size_text(plan.message_bytes()), plan.element_count, plan.element_bytes,
                      plan.element_bytes == 1 ? "" : "s");
  text += fmt::format("  predicted    {:.6g} s   (a prediction in the flow model: no bound, no optimality claimed)\n",
                      plan.predicted_seconds);
  const VerifyReport& report = check;
  if (!report.valid) {
    text += fmt::format("  valid        NO: {}\n", report.violations.empty() ? "" : report.violations.front());
  } else if (check.symbolic_run) {
    text += fmt::format("  valid        yes (the steps compute the {} for every element: symbolic run; prediction "
                        "recomputed on the platform)\n",
                        to_string(plan.operation));
  } else {
    text += fmt::format("  valid        steps well-formed and prediction recomputed; the symbolic run that proves the "
                        "{} was skipped ({:.3g} element-ranks, more than {:.3g})\n",
                        to_string(plan.operation),
                        (static_cast<double>(plan.element_count)) * static_cast<double>(plan.participants.size()),
                        kMaxSymbolicElementRanks);
  }
  std::size_t steps = 0;
  for (const auto& rank : plan.program.steps) steps += rank.size();
  text += fmt::format("  program      {} ranks, {} messages, {} steps, {} scratch buffer{}{}\n", plan.program.ranks,
                      plan.program.message_count(), steps, plan.program.buffer_elements.size() - 1,
                      plan.program.buffer_elements.size() == 2 ? "" : "s",
                      plan.program.rank_order ? ", combines in rank order" : "");
  if (runners_up) {
    std::vector<std::pair<double, std::string>> others;
    for (const auto& candidate : runners_up->program_candidates) {
      if (candidate.name != plan.algorithm && candidate.refused.empty()) {
        others.emplace_back(candidate.predicted_seconds, candidate.name);
      }
    }
    for (const auto& candidate : runners_up->whole_message.candidates) {
      if (candidate.skipped.empty()) {
        others.emplace_back(candidate.predicted_seconds, fmt::format("{} (whole-message plan)", candidate.name));
      }
    }
    std::stable_sort(others.begin(), others.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    constexpr std::size_t kShown = 5;
    std::string list;
    for (std::size_t i = 0; i < others.size() && i < kShown; ++i) {
      list += fmt::format("{}{} {:.6g} s", i ? ", " : "", others[i].second, others[i].first);
    }
    if (others.size() > kShown) list += fmt::format(", and {} more", others.size() - kShown);
    if (!list.empty()) text += fmt::format("  runners-up   {}\n", list);
  }
  if (plan.stats.seconds > 0) text += fmt::format("  planned in   {}\n", time_text(plan.stats.seconds, "s"));
  for (const auto& note : plan.notes) text += fmt::format("  note         {}\n", note);
  return text;
}

}  // namespace hetcoll
