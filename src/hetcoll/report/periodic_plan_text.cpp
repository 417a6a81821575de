#include "hetcoll/report/periodic_plan_text.h"

#include <fmt/format.h>

#include "hetcoll/core/units.h"
#include "hetcoll/core/wording.h"
#include "hetcoll/plan/periodic_plan_json.h"

namespace hetcoll {

namespace {

std::string nodes_text(const std::vector<ProcessorIndex>& nodes, const Platform& platform, std::size_t max = 8) {
  std::string text;
  for (std::size_t i = 0; i < nodes.size() && i < max; ++i) text += (i ? ", " : "") + platform.id(nodes[i]);
  if (nodes.size() > max) text += fmt::format(", ... ({} in all)", nodes.size());
  return text;
}

std::string exact_and_decimal(const Rational& value) {
  const auto exact = to_string(value);
  const auto decimal = fmt::format("{:.6g}", to_double(value));
  return exact == decimal ? exact : exact + " (" + decimal + ")";
}

std::string decimal(const Rational& value) { return fmt::format("{:.6g}", to_double(value)); }

// A rational as the options ask: "0.5" or "1/2".
std::string number(const Rational& value, bool exact) { return exact ? to_string(value) : decimal(value); }

std::string unit_of(const Platform& platform, bool plural = true) {
  return time_unit_name(platform.time_unit(), plural);
}

// Scatter types are named by their target (the source is the plan's).
std::string type_text(const PeriodicPlan& plan, const MessageType& type, const Platform& platform) {
  if (plan.operation == SteadyOperation::scatter && type.kind == MessageType::Kind::personal) {
    return platform.id(type.target);
  }
  return message_type_name(type, platform);
}

// A whole number: every digit when exact or short, else 6 significant digits
// (from the digits themselves past 300 digits, where a double overflows).
std::string big(const BigInteger& value, bool exact) {
  const auto text = value.get_str();
  if (exact || text.size() <= 7) return text;
  if (text.size() <= 300) return fmt::format("{:.6g}", value.get_d());
  const std::size_t sign = text[0] == '-' ? 1 : 0;
  const std::string digits = text.substr(sign);
  std::string mantissa = digits.substr(0, 1);
  std::string rest = digits.substr(1, 5);
  while (!rest.empty() && rest.back() == '0') rest.pop_back();
  if (!rest.empty()) mantissa += "." + rest;
  return fmt::format("{}{}e+{:02}", sign ? "-" : "", mantissa, digits.size() - 1);
}

std::string percent(double fraction) { return fmt::format("{:.4g}%", 100 * fraction); }

}  // namespace

std::string periodic_rate_text(const Rational& throughput, const Platform& platform, bool exact) {
  return fmt::format("{} operation{} per {}", exact ? exact_and_decimal(throughput) : decimal(throughput),
                     throughput == 1 ? "" : "s", unit_of(platform, false));
}

std::string period_text(const BigInteger& period, const Platform& platform, bool exact) {
  const std::string digits = period.get_str();
  std::string text = big(period, exact);
  if (!exact && text != digits) text = "~" + text;
  return fmt::format("{} {}", text, unit_of(platform, period != 1));
}

std::string periodic_simulation_text(const PeriodicSimulationResult& result, const Platform& platform) {
  const std::string& unit = platform.time_unit();
  return fmt::format("{} operations in {}: {:.6g} per {} = {:.4f} x the throughput (start-up: first done at {})",
                     result.completed, time_text(to_double(result.makespan), unit),
                     to_double(result.measured_throughput), unit_of(platform, false), result.ratio,
                     time_text(to_double(result.first_completion), unit));
}

std::string periodic_plan_summary(const PeriodicPlan& plan, const Platform& platform,
                                  const PeriodicVerifyReport& report, const PeriodicTextOptions& options) {
  const bool exact = options.exact;
  std::string text;
  switch (plan.operation) {
    case SteadyOperation::scatter:
      text += fmt::format("series of scatters from {} to {}: {}\n", platform.id(plan.root),
                          count_of(plan.targets.size(), "target"), nodes_text(plan.targets, platform));
      break;
    case SteadyOperation::gossip:
      text += fmt::format("series of gossips (personalised all-to-all): {}, {}\n", count_of(plan.sources.size(), "source"),
                          count_of(plan.targets.size(), "target"));
      break;
    case SteadyOperation::reduce:
      text += fmt::format("series of reduces to {}: {} participants in order {}\n", platform.id(plan.root),
                          plan.participants.size(), nodes_text(plan.participants, platform));
      break;
    case SteadyOperation::broadcast:
      text += fmt::format("series of broadcasts from {}\n", platform.id(plan.root));
      break;
    case Operation::multicast:
    case Operation::allreduce:
    case Operation::allgather:
      break;  // makespan operations: never a periodic plan's (the reader refuses them)
  }
  if (plan.message_size) text += fmt::format("  messages     {} each\n", byte_size_text(*plan.message_size));
  const std::string unit = unit_of(platform, false);
  const std::string proof = fmt::format("proven by the LP's dual certificate{} in the bidirectional one-port model",
                                        report.certificate_checked ? " (checked exactly)" : "");
  const bool rounded = !plan.certificate.empty() && plan.throughput != plan.throughput_bound;
  if (rounded) {
    text += fmt::format("  throughput   {} ({} of the optimum, with a practical period)\n",
                        periodic_rate_text(plan.throughput, platform, exact),
                        percent(to_double(plan.throughput / plan.throughput_bound)));
    text += fmt::format("  optimal      no — the optimum, {}, is {}\n",
                        periodic_rate_text(plan.throughput_bound, platform, exact), proof);
  } else {
    text += fmt::format("  throughput   {}\n", periodic_rate_text(plan.throughput, platform, exact));
    if (plan.optimal()) text += fmt::format("  optimal      yes — {}\n", proof);
  }
  text += fmt::format("  period       {}, {} operation{} per period{}\n", period_text(plan.period, platform, exact),
                      big(plan.operations_per_period, exact), plan.operations_per_period == 1 ? "" : "s",
                      plan.split_messages ? "" : ", whole messages");
  if (plan.exact_period) {
    text += fmt::format("  exact period {} reaches the optimum{}\n", period_text(*plan.exact_period, platform, exact),
                        exact ? "" : " (--exact prints it)");
  }
  if (rounded) {
    const Rational lost = plan.throughput_bound - plan.throughput;
    std::string bound;
    if (plan.loss_bound) {
      const BigInteger count = floor_of(*plan.loss_bound * Rational(plan.period));
      bound = fmt::format(", within Prop. 4's bound {} = {}{} / {} (Legrand, Marchal, Robert 2003)",
                          number(*plan.loss_bound, exact),
                          count_of(count.get_ui(), plan.operation == SteadyOperation::reduce ? "tree" : "path"),
                          plan.operation == SteadyOperation::reduce  ? ""
                          : plan.operation == SteadyOperation::scatter ? " (the most to one target)"
                                                                       : " (the most of one source-target pair)",
                          period_text(plan.period, platform, exact));
    }
    text += fmt::format("  lost         {} operations per {} ({}){}\n", number(lost, exact), unit,
                        percent(to_double(lost / plan.throughput_bound)), bound);
  }
  std::size_t idle = 0;
  for (const auto& slot : plan.slots) idle += slot.transfers.empty() ? 1 : 0;
  text += fmt::format("  schedule     {} ({}{}), {}\n", count_of(plan.slots.size(), "slot"),
                      count_of(static_cast<std::uint64_t>(plan.steady_stats.matchings), "matching"), idle ? ", 1 idle" : "",
                      count_of(plan.trees.size(),
                               plan.operation == SteadyOperation::reduce ? "reduction tree" : "weighted path"));
  if (plan.steady_stats.lp_rows > 0) {
    text += fmt::format("  LP           {} ({} rows, {} columns, {} nonzeros), {}, {:.3g} s (Clp {:.3g} s, exact {:.3g} s); "
                        "floating optimum {:.10g}\n",
                        plan.algorithm, plan.steady_stats.lp_rows, plan.steady_stats.lp_columns, plan.steady_stats.lp_nonzeros,
                        plan.steady_stats.lp_method, plan.steady_stats.lp_seconds, plan.steady_stats.lp_floating_seconds,
                        plan.steady_stats.lp_exact_seconds, plan.steady_stats.lp_floating_throughput);
    if (plan.steady_stats.lp_generation_rounds > 0) {
      text += fmt::format("               column generation: Clp saw {} of the {} columns ({} rounds); every column "
                          "priced exactly\n",
                          plan.steady_stats.lp_columns_loaded, plan.steady_stats.lp_columns, plan.steady_stats.lp_generation_rounds);
    }
    if (!plan.steady_stats.lp_fallback_reason.empty()) {
      text += fmt::format("               (exact fallback: {})\n", plan.steady_stats.lp_fallback_reason);
    }
  }
  if (report.valid) {
    text += "  valid        yes (one-port in every slot, conservation, trees, claims";
    text += report.certificate_checked ? ", certificate — all exact)\n" : "; no certificate)\n";
  } else {
    text += fmt::format("  valid        NO — {} violation(s):\n{}", report.violation_count, report.summary());
  }
  for (const auto& note : plan.notes) text += "  note         " + note + "\n";
  return text;
}

std::string periodic_plan_schedule_text(const PeriodicPlan& plan, const Platform& platform, std::size_t max_slots,
                                        std::size_t max_trees, const PeriodicTextOptions& options) {
  const bool exact = options.exact;
  const std::string& unit = platform.time_unit();
  std::string text = fmt::format("one period ({}; \"A->B 2xT\": 2 messages of type T over A->B):\n",
                                 period_text(plan.period, platform, exact));
  for (std::size_t s = 0; s < plan.slots.size() && s < max_slots; ++s) {
    const auto& slot = plan.slots[s];
    const std::string length = exact ? to_string(slot.length) + (unit.empty() ? "" : " " + unit)
                                     : time_text(to_double(slot.length), unit);
    text += fmt::format("  slot {:<3} length {:<14}", s + 1, length);
    if (slot.transfers.empty()) {
      text += " idle\n";
      continue;
    }
    std::size_t shown = 0;
    for (const auto& transfer : slot.transfers) {
      if (shown == 6) {
        text += fmt::format(" ... (+{})", slot.transfers.size() - shown);
        break;
      }
      text += fmt::format(" {}->{} {}x{}", platform.id(transfer.from), platform.id(transfer.to),
                          number(transfer.messages, exact), type_text(plan, transfer.type, platform));
      ++shown;
    }
    text += "\n";
  }
  if (plan.slots.size() > max_slots) text += fmt::format("  ... {} more slots\n", plan.slots.size() - max_slots);
  if (plan.trees.empty() || max_trees == 0) return text;
  text += fmt::format("{} (weight = {} per {}):\n",
                      plan.operation == SteadyOperation::reduce ? "reduction trees" : "paths",
                      plan.operation == SteadyOperation::reduce ? "operations" : "messages", unit_of(platform, false));
  for (std::size_t t = 0; t < plan.trees.size() && t < max_trees; ++t) {
    const auto& tree = plan.trees[t];
    text += fmt::format("  {:<10}", number(tree.weight, exact));
    if (plan.operation == SteadyOperation::reduce) {
      for (const auto& task : tree.computations) {
        text += fmt::format(" {}:T[{},{},{}]", platform.id(task.node), task.first, task.split, task.last);
      }
      for (const auto& edge : tree.edges) {
        text += fmt::format(" {}->{}:{}", platform.id(edge.from), platform.id(edge.to), message_type_name(edge.type, platform));
      }
    } else if (!tree.edges.empty()) {
      text += " to " + type_text(plan, tree.edges.front().type, platform) + ": " + platform.id(tree.edges.front().from);
      for (const auto& edge : tree.edges) text += " -> " + platform.id(edge.to);
    }
    text += "\n";
  }
  if (plan.trees.size() > max_trees) text += fmt::format("  ... {} more\n", plan.trees.size() - max_trees);
  return text;
}

}  // namespace hetcoll
