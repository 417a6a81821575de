#include "hetcoll/report/plan_text.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "hetcoll/core/units.h"
#include "hetcoll/core/wording.h"
#include "hetcoll/model/element_names.h"

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

// How the text names the nodes of a plan: a cluster's processors (with
// their time t), or a platform's nodes (with the route a message takes).
struct Labels {
  std::size_t count = 0;
  std::function<std::string_view(ProcessorIndex)> id;
  std::function<std::string(ProcessorIndex)> node;  // "p3 (t=2)" or "a0"
  std::function<std::string(const Transfer&)> route;  // " via sw, wan" or ""
  std::string header;                                  // "8 processors, source p0 (t = 1)"
  std::string model;                                   // a line for the summary, or ""
  std::string checked;                                 // what "valid" means, or "" (the cluster rules)
  std::string unit;                                    // the platform's time unit, or ""
  std::string root;                                    // the tree's first line: "p0 (t=1; times in ms)"
};

std::string summary(const MakespanPlan& plan, const Labels& labels, const VerifyReport& report) {
  std::string text;
  auto line = [&](std::string_view label, const std::string& value) {
    text += fmt::format("  {:<13}{}\n", label, value);
  };
  const std::string& unit = labels.unit;
  text += fmt::format("{} of {}, algorithm {}\n", to_string(plan.operation), labels.header, plan.algorithm);
  if (!labels.model.empty()) line("model", labels.model);
  if (!plan.claims_scope.empty()) line("claims for", plan.claims_scope + " (not the platform graph)");
  if (plan.operation == Operation::multicast) {
    std::string targets;
    for (size_t i = 0; i < plan.targets.size() && i < 12; ++i) {
      if (i) targets += ", ";
      targets += labels.id(plan.targets[i]);
    }
    if (plan.targets.size() > 12) targets += fmt::format(", ... ({} in all)", plan.targets.size());
    line("targets", targets);
  }
  // With their unit; "time units" when the platform declares none.
  line("makespan", time_text(plan.makespan, unit));
  std::string bound = time_text(plan.lower_bound, unit);
  if (plan.lower_bound > 0) bound += fmt::format("   (makespan / bound = {:.4f})", plan.makespan / plan.lower_bound);
  line("lower bound", bound);
  line("guarantee", plan.guarantee.text);
  line("optimal", plan.optimal ? "yes — " + plan.optimality_proof : "not proven");
  if (plan.limit_reached()) {
    line("status", plan.status == SearchStatus::refused
                       ? "refused to run (predicted time or memory beyond the limit): a fallback plan"
                       : fmt::format("stopped ({}): the best plan found so far", to_string(plan.status)));
  }
  line("valid", report.valid ? (labels.checked.empty() ? "yes (one-port, causality, completeness and claims checked)"
                                                        : "yes (" + labels.checked + ")")
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

std::string tree(const MakespanPlan& plan, const Labels& labels, std::size_t max_lines) {
  // children[p] = indices of transfers whose tree parent is p, in time order.
  // Broadcast edges go sender -> receiver; reduce edges receiver -> sender
  // (the tree hangs from the root).
  const auto n = labels.count;
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
  // Stable: an eager plan's sends share their start and are listed in send order.
  for (auto& list : broadcast_children) std::stable_sort(list.begin(), list.end(), by_start);
  for (auto& list : reduce_children) std::stable_sort(list.begin(), list.end(), by_start);

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
      emit(fmt::format("{}{}{} {} {}..{}{}", prefix, last ? "└── " : "├── ", labels.node(child),
                       reduce ? "sends" : "receives", format_time(t.start), format_time(t.end), labels.route(t)));
      if (lines >= max_lines) {
        ++omitted;
        continue;
      }
      walk(child, prefix + (last ? "    " : "│   "), reduce);
    }
  };
  const std::string root = labels.root;
  if (is_exchange_allreduce(plan)) {
    // No tree: the pairwise exchanges in time order.
    std::vector<size_t> order(plan.transfers.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), by_start);
    emit("exchanges in time order (every processor ends with the result; no tree)");
    for (size_t i : order) {
      const auto& t = plan.transfers[i];
      emit(fmt::format("{} → {} {}..{} {}{}", labels.node(t.from), labels.node(t.to), format_time(t.start),
                       format_time(t.end),
                       t.payload == Payload::partial_reduction ? "partial result (combined)"
                                                               : "combined value (replaces the receiver's)",
                       labels.route(t)));
    }
    if (omitted > 0) text += fmt::format("... (cut at {} lines)\n", max_lines);
    return text;
  }
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

Labels cluster_labels(const MakespanPlan& plan, const Cluster& cluster) {
  Labels labels;
  labels.count = static_cast<std::size_t>(cluster.size());
  labels.id = [&cluster](ProcessorIndex p) -> std::string_view { return cluster.id(p); };
  labels.node = [&cluster](ProcessorIndex p) {
    return fmt::format("{} (t={})", cluster.id(p), format_time(cluster.transmission_time(p)));
  };
  labels.route = [](const Transfer&) { return std::string(); };
  const bool is_reduce = plan.operation == Operation::reduce || plan.operation == Operation::allreduce;
  labels.unit = cluster.time_unit();
  labels.header = fmt::format("{}, {} {} (t = {})", count_of(cluster.size(), "processor"), is_reduce ? "root" : "source",
                              cluster.id(plan.root), format_time(cluster.transmission_time(plan.root), labels.unit));
  if (is_exchange_allreduce(plan)) {
    labels.header = fmt::format("{}, no root (rank 0 is {})", count_of(cluster.size(), "processor"), cluster.id(plan.root));
  }
  labels.root = fmt::format("{} (t={}{})", cluster.id(plan.root), format_time(cluster.transmission_time(plan.root)),
                            labels.unit.empty() ? "" : "; times in " + labels.unit);
  return labels;
}

Labels graph_labels(const MakespanPlan& plan, const GraphNetwork& network) {
  const Platform& platform = network.platform();
  Labels labels;
  labels.count = static_cast<std::size_t>(platform.size());
  labels.id = [&platform](ProcessorIndex p) -> std::string_view { return platform.id(p); };
  labels.node = [&platform](ProcessorIndex p) { return platform.id(p); };
  labels.route = [&platform](const Transfer& t) { return route_via_text(platform, t.route, /*figures=*/true); };
  const bool is_reduce = plan.operation == Operation::reduce || plan.operation == Operation::allreduce;
  const std::size_t participants = network.participants().size();
  const std::size_t others = static_cast<std::size_t>(platform.size()) - participants;
  labels.unit = platform.time_unit();
  labels.root = platform.id(plan.root) + (labels.unit.empty() ? "" : " (times in " + labels.unit + ")");
  labels.header = fmt::format("{}{}, {} {}", count_of(participants, "participant"),
                              others ? fmt::format(" ({})", network_elements_text(platform)) : std::string(),
                              is_reduce ? "root" : "source", platform.id(plan.root));
  const std::string size =
      network.message_size() ? fmt::format(", {} messages", byte_size_text(*network.message_size())) : std::string();
  if (plan.model == PlanModel::eager && is_reduce) {
    labels.model = "eager model: platform routes; each node sends once, after its children's messages have "
                   "arrived; its link receives one message at a time (size / bandwidth, at the end of each "
                   "transfer), latencies overlapping" + size;
    labels.checked = "routes, eager receive windows, causality, completeness and claims checked on the platform";
  } else if (plan.model == PlanModel::eager) {
    labels.model = "eager model: platform routes; a node sends to all its children without waiting, its link "
                   "carrying one message at a time (size / bandwidth), latencies overlapping" + size;
    labels.checked = "routes, eager send times, causality, completeness and claims checked on the platform";
  } else {
    labels.model = fmt::format(
        "platform graph: platform routes, one-port nodes, {}{}",
        network.one_port_rule() == OnePortRule::bidirectional ? "send and receive at once" : "one message at a time",
        size);
    labels.checked = "routes, one-port, causality, completeness and claims checked on the platform";
  }
  return labels;
}

}  // namespace

std::string plan_summary(const MakespanPlan& plan, const Cluster& cluster, const VerifyReport& report) {
  return summary(plan, cluster_labels(plan, cluster), report);
}

std::string tree_text(const MakespanPlan& plan, const Cluster& cluster, std::size_t max_lines) {
  return tree(plan, cluster_labels(plan, cluster), max_lines);
}

std::string plan_summary(const MakespanPlan& plan, const GraphNetwork& network, const VerifyReport& report) {
  return summary(plan, graph_labels(plan, network), report);
}

std::string tree_text(const MakespanPlan& plan, const GraphNetwork& network, std::size_t max_lines) {
  return tree(plan, graph_labels(plan, network), max_lines);
}

}  // namespace hetcoll
