#include "hetcoll/report/program_choice_text.h"

#include <cmath>

#include <fmt/format.h>

#include "hetcoll/plan/plan_json.h"

namespace hetcoll {
namespace {

std::string call_heading(const CallShape& call, int ranks) {
  if (call.operation == Operation::allgather) {
    return fmt::format("allgather of {} element(s) of {} byte(s) per rank on {} ranks", call.count, call.element_bytes,
                       ranks);
  }
  return fmt::format("{} of {} element(s) of {} byte(s) on {} ranks{}", to_string(call.operation), call.count,
                     call.element_bytes, ranks,
                     call.operation == Operation::allreduce ? "" : fmt::format(", root {}", call.root));
}

std::string seconds_json(double seconds) {
  return std::isfinite(seconds) ? fmt::format("{:.9g}", seconds) : "null";
}

std::string call_json_fields(const CallShape& call, int ranks) {
  return fmt::format("\"operation\": \"{}\", \"root\": {}, \"count\": {}, \"element_bytes\": {}, \"ranks\": {}",
                     to_string(call.operation),
                     call.operation == Operation::allreduce || call.operation == Operation::allgather ? -1 : call.root,
                     call.count,
                     call.element_bytes, ranks);
}

std::string bound_json_fields(const FlowLowerBound& bound) {
  return fmt::format("\"lower_bound_seconds\": {}, \"lower_bound_kind\": {}", seconds_json(bound.seconds),
                     json_quote(bound.binding));
}

}  // namespace

std::string flow_lower_bound_text(const FlowLowerBound& bound) {
  return fmt::format("lower bound: {:.4g} s for every schedule in the flow model ({} bound)\n", bound.seconds,
                     bound.binding.empty() ? "nothing to move" : bound.binding);
}

std::string flow_lower_bound_json(const FlowLowerBound& bound, const CallShape& call, int ranks) {
  return fmt::format("{{{}, {}}}", call_json_fields(call, ranks), bound_json_fields(bound));
}

std::string program_choice_text(const ProgramChoice& choice, const CallShape& call, int ranks,
                                const std::string& platform_name, const FlowLowerBound* bound) {
  std::string text = fmt::format("{} ({}): predicted by the flow model (SimGrid CM02, SMPI's sends)\n",
                                 call_heading(call, ranks), platform_name);
  std::size_t width = 9;
  for (const auto& candidate : choice.candidates) width = std::max(width, candidate.name.size());
  const bool versus_default = std::isfinite(choice.default_seconds);
  text += fmt::format("    {:<{}}  {:>13}{}\n", "candidate", width, "predicted",
                      versus_default ? "  speed-up over mpi:default" : "");
  for (const auto& candidate : choice.candidates) {
    const bool chosen = candidate.name == choice.chosen;
    if (candidate.refused.empty()) {
      text += fmt::format("  {} {:<{}}  {:>11.4g} s{}\n", chosen ? "*" : " ", candidate.name, width,
                          candidate.predicted_seconds,
                          versus_default && candidate.predicted_seconds > 0
                              ? fmt::format("  {:.2f}x", choice.default_seconds / candidate.predicted_seconds)
                              : "");
    } else {
      text += fmt::format("    {:<{}}  not a candidate: {}\n", candidate.name, width, candidate.refused);
    }
  }
  if (bound != nullptr) {
    const double fastest = choice.candidates.empty() ? 0 : choice.candidates.front().predicted_seconds;
    text += fmt::format("lower bound: {:.4g} s for every schedule in the flow model ({} bound){}\n", bound->seconds,
                        bound->binding.empty() ? "nothing to move" : bound->binding,
                        bound->seconds > 0 && std::isfinite(fastest)
                            ? fmt::format("; the fastest candidate takes {:.2f}x it", fastest / bound->seconds)
                            : "");
  }
  text += fmt::format("runs: {} ({})\n",
                      choice.runs_library_default() ? "the MPI library's own call (mpi:default)" : choice.chosen,
                      choice.reason);
  return text;
}

std::string program_choice_json(const ProgramChoice& choice, const CallShape& call, int ranks,
                                const FlowLowerBound* bound) {
  std::string candidates;
  for (const auto& candidate : choice.candidates) {
    candidates += fmt::format("{}{{\"name\": {}, \"predicted_seconds\": {}, \"refused\": {}}}",
                              candidates.empty() ? "" : ", ", json_quote(candidate.name),
                              candidate.refused.empty() ? seconds_json(candidate.predicted_seconds) : "null",
                              json_quote(candidate.refused));
  }
  return fmt::format(
      "{{{}, \"chosen\": {}, \"chosen_seconds\": {}, \"default_seconds\": {}, \"reason\": {}, \"candidates\": "
      "[{}]{}}}",
      call_json_fields(call, ranks), json_quote(choice.chosen), seconds_json(choice.chosen_seconds),
      seconds_json(choice.default_seconds), json_quote(choice.reason), candidates,
      bound != nullptr ? ", " + bound_json_fields(*bound) : std::string());
}

}  // namespace hetcoll
