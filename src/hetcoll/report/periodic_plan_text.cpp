#include "hetcoll/report/periodic_plan_text.h"

#include <fmt/format.h>

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

// Scatter types are named by their target (the source is the plan's).
std::string type_text(const PeriodicPlan& plan, const MessageType& type, const Platform& platform) {
  if (plan.operation == SteadyOperation::scatter && type.kind == MessageType::Kind::personal) {
    return platform.id(type.target);
  }
  return message_type_name(type, platform);
}

std::string big(const BigInteger& value) {
  const auto text = value.get_str();
  if (text.size() <= 15) return text;
  // Scientific notation from the digits: a double overflows past 308 digits.
  return fmt::format("{} ({} digits, ~{}.{}e+{})", text.substr(0, 12) + "...", text.size(), text[0], text.substr(1, 3),
                     text.size() - 1);
}

}  // namespace

std::string periodic_plan_summary(const PeriodicPlan& plan, const Platform& platform,
                                  const PeriodicVerifyReport& report) {
  std::string text;
  switch (plan.operation) {
    case SteadyOperation::scatter:
      text += fmt::format("series of scatters from {} to {} target(s): {}\n", platform.id(plan.root), plan.targets.size(),
                          nodes_text(plan.targets, platform));
      break;
    case SteadyOperation::gossip:
      text += fmt::format("series of gossips (personalised all-to-all): {} source(s), {} target(s)\n",
                          plan.sources.size(), plan.targets.size());
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
      break;  // makespan operations: never a periodic plan's (the reader refuses them)
  }
  text += fmt::format("  throughput   {} operation{} per time unit\n", exact_and_decimal(plan.throughput),
                      plan.throughput == 1 ? "" : "s");
  if (plan.optimal()) {
    text += fmt::format("  optimal      yes — the LP bound {} is proven by a dual certificate{}\n",
                        to_string(plan.throughput_bound), report.certificate_checked ? " (checked exactly)" : "");
  } else if (!plan.certificate.empty()) {
    text += fmt::format("  optimal      no — LP bound {}; lost {} to the period limit\n",
                        exact_and_decimal(plan.throughput_bound), to_string(plan.throughput_bound - plan.throughput));
  }
  text += fmt::format("  period       {} time unit{}, {} operation{} per period{}\n", big(plan.period),
                      plan.period == 1 ? "" : "s",
                      big(plan.operations_per_period), plan.operations_per_period == 1 ? "" : "s", plan.split_messages ? "" : ", whole messages");
  std::size_t idle = 0;
  for (const auto& slot : plan.slots) idle += slot.transfers.empty() ? 1 : 0;
  text += fmt::format("  schedule     {} slot(s) ({} matchings{}), {} {}\n", plan.slots.size(), plan.stats.matchings,
                      idle ? ", 1 idle" : "", plan.trees.size(),
                      plan.operation == SteadyOperation::reduce ? "reduction tree(s)" : "weighted path(s)");
  if (plan.stats.lp_rows > 0) {
    text += fmt::format("  LP           {} ({} rows, {} columns, {} nonzeros), {}, {:.3g} s (Clp {:.3g} s, exact {:.3g} s); "
                        "floating optimum {:.10g}\n",
                        plan.algorithm, plan.stats.lp_rows, plan.stats.lp_columns, plan.stats.lp_nonzeros,
                        plan.stats.lp_method, plan.stats.lp_seconds, plan.stats.lp_floating_seconds,
                        plan.stats.lp_exact_seconds, plan.stats.lp_floating_throughput);
    if (plan.stats.lp_generation_rounds > 0) {
      text += fmt::format("               column generation: Clp saw {} of the {} columns ({} rounds); every column "
                          "priced exactly\n",
                          plan.stats.lp_columns_loaded, plan.stats.lp_columns, plan.stats.lp_generation_rounds);
    }
    if (!plan.stats.lp_fallback_reason.empty()) {
      text += fmt::format("               (exact fallback: {})\n", plan.stats.lp_fallback_reason);
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
                                        std::size_t max_trees) {
  std::string text = fmt::format("one period ({} time units; \"A->B 2xT\": 2 messages of type T over A->B):\n",
                                 big(plan.period));
  for (std::size_t s = 0; s < plan.slots.size() && s < max_slots; ++s) {
    const auto& slot = plan.slots[s];
    text += fmt::format("  slot {:<3} length {:<10}", s + 1, to_string(slot.length));
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
                          to_string(transfer.messages), type_text(plan, transfer.type, platform));
      ++shown;
    }
    text += "\n";
  }
  if (plan.slots.size() > max_slots) text += fmt::format("  ... {} more slots\n", plan.slots.size() - max_slots);
  if (plan.trees.empty() || max_trees == 0) return text;
  text += plan.operation == SteadyOperation::reduce ? "reduction trees (weight = operations per time unit):\n"
                                                    : "paths (weight = messages per time unit):\n";
  for (std::size_t t = 0; t < plan.trees.size() && t < max_trees; ++t) {
    const auto& tree = plan.trees[t];
    text += fmt::format("  {:<10}", to_string(tree.weight));
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
