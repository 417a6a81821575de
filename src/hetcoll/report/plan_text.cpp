#include "hetcoll/report/plan_text.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "hetcoll/core/wording.h"

namespace hetcoll {

namespace {

std::string format_time(double value) { return fmt::format("{:.6g}", value); }

// "3.6 ms" when the platform declares its unit, else "3.6".
std::string format_time(double value, const std::string& unit) {
  return unit.empty() ? format_time(value) : fmt::format("{:.6g} {}", value, unit);
}

// Wall-clock durations: "43 µs", "2.5 ms", "1.2 s".
std::string format_seconds(double seconds) {
  if (seconds < 1e-3) return fmt::format("{:.3g} µs", seconds * 1e6);
  if (seconds < 1) return fmt::format("{:.3g} ms", seconds * 1e3);
  return fmt::format("{:.3g} s", seconds);
}

}  // namespace

std::string plan_summary(const MakespanPlan& plan, const Cluster& cluster, const VerifyReport& report) {
  std::string text;
  auto line = [&](std::string_view label, const std::string& value) {
    text += fmt::format("  {:<13}{}\n", label, value);
  };
  const bool is_reduce = plan.operation == Operation::reduce || plan.operation == Operation::allreduce;
  const std::string& unit = cluster.time_unit();
  text += fmt::format("{} of {}, {} {} (t = {}), algorithm {}\n", to_string(plan.operation),
                      count_of(cluster.size(), "processor"), is_reduce ? "root" : "source", cluster.id(plan.root),
                      format_time(cluster.transmission_time(plan.root), unit), plan.algorithm);
  if (plan.operation == Operation::multicast) {
    std::string targets;
    for (size_t i = 0; i < plan.targets.size() && i < 12; ++i) targets += (i ? ", " : "") + cluster.id(plan.targets[i]);
    if (plan.targets.size() > 12) targets += fmt::format(", ... ({} in all)", plan.targets.size());
    line("targets", targets);
  }
  line("makespan", format_time(plan.makespan, unit));
  std::string bound = format_time(plan.lower_bound, unit);
  if (plan.lower_bound > 0) bound += fmt::format("   (makespan / bound = {:.4f})", plan.makespan / plan.lower_bound);
  line("lower bound", bound);
  line("guarantee", plan.guarantee.text);
  line("optimal", plan.optimal ? "yes — " + plan.optimality_proof : "not proven");
  if (plan.limit_reached()) {
    line("status", plan.status == SearchStatus::refused
                       ? "refused to run (predicted time or memory beyond the limit): a fallback plan"
                       : fmt::format("stopped ({}): the best plan found so far", to_string(plan.status)));
  }
  line("valid", report.valid ? "yes (one-port, causality, completeness and claims checked)"
                             : fmt::format("NO — {} violation(s)", report.violation_count));
  line("messages", fmt::format("{}", plan.transfers.size()));
  if (plan.stats.nodes) line("search", count_of(plan.stats.nodes, "search-tree node") + " examined");
  if (plan.stats.table_references) {
    line("DP table", count_of(plan.stats.table_references, "look-up") + " in the dynamic program's table");
  }
  line("planned in", format_seconds(plan.stats.seconds));
  for (const auto& note : plan.notes) line("note", note);
  return text;
}

std::string tree_text(const MakespanPlan& plan, const Cluster& cluster, std::size_t max_lines) {
  // children[p] = indices of transfers whose tree parent is p, in time order.
  // Broadcast edges go sender -> receiver; reduce edges receiver -> sender
  // (the tree hangs from the root).
  const auto n = static_cast<size_t>(cluster.size());
  std::vector<std::vector<size_t>> broadcast_children(n), reduce_children(n);
  for (size_t i = 0; i < plan.transfers.size(); ++i) {
    const auto& t = plan.transfers[i];
    if (t.payload == Payload::partial_reduction) {
      reduce_children[static_cast<size_t>(t.to)].push_back(i);
    } else {
      broadcast_children[static_cast<size_t>(t.from)].push_back(i);
    }
  }
  auto by_start = [&](size_t a, size_t b) { return plan.transfers[a].start < plan.transfers[b].start; };
  for (auto& list : broadcast_children) std::sort(list.begin(), list.end(), by_start);
  for (auto& list : reduce_children) std::sort(list.begin(), list.end(), by_start);

  std::string text;
  size_t lines = 0;
  size_t omitted = 0;
  auto emit = [&](const std::string& line) {
    if (lines < max_lines) {
      text += line + "\n";
      ++lines;
    } else {
      ++omitted;
    }
  };
  std::function<void(ProcessorIndex, const std::string&, bool)> walk = [&](ProcessorIndex p, const std::string& prefix,
                                                                           bool reduce) {
    const auto& children = (reduce ? reduce_children : broadcast_children)[static_cast<size_t>(p)];
    for (size_t k = 0; k < children.size(); ++k) {
      const auto& t = plan.transfers[children[k]];
      const bool last = k + 1 == children.size();
      const ProcessorIndex child = reduce ? t.from : t.to;
      emit(fmt::format("{}{}{} (t={}) {} {}..{}", prefix, last ? "└── " : "├── ", cluster.id(child),
                       format_time(cluster.transmission_time(child)), reduce ? "sends" : "receives",
                       format_time(t.start), format_time(t.end)));
      if (lines >= max_lines) {
        ++omitted;
        continue;
      }
      walk(child, prefix + (last ? "    " : "│   "), reduce);
    }
  };
  const std::string root = fmt::format("{} (t={}{})", cluster.id(plan.root),
                                       format_time(cluster.transmission_time(plan.root)),
                                       cluster.time_unit().empty() ? "" : "; times in " + cluster.time_unit());
  if (plan.operation == Operation::reduce || plan.operation == Operation::allreduce) {
    emit(root + " — reduce root; senders below, each after its own children");
    walk(plan.root, "", true);
  }
  if (plan.operation != Operation::reduce) {
    emit(root + (plan.operation == Operation::allreduce ? " — broadcasts the result" : " — source"));
    walk(plan.root, "", false);
  }
  if (omitted > 0) text += fmt::format("... (tree cut at {} lines; the tree picture shows it whole)\n", max_lines);
  return text;
}

}  // namespace hetcoll
