#include "hetcoll/verify/plan_checks_internal.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

namespace hetcoll::verify_detail {

PlanChecker::PlanChecker(const MakespanPlan& plan, StructureRules rules, double tolerance, VerifyReport& report)
    : plan_(plan), rules_(std::move(rules)), tolerance_(tolerance), report_(report) {}

std::string PlanChecker::describe(std::size_t i) const {
  const auto& t = plan_.transfers[i];
  return fmt::format("transfers[{}] ({} -> {}, {}..{})", i, name(t.from), name(t.to), t.start, t.end);
}

void PlanChecker::check_no_overlap(std::vector<Busy> busy, std::size_t resource_count,
                                   const std::function<std::string(std::size_t)>& what) {
  // Counting sort by resource, then each resource's intervals by start time.
  std::vector<std::size_t> first(resource_count + 1, 0);
  for (const auto& b : busy) ++first[b.resource + 1];
  for (std::size_t r = 0; r < resource_count; ++r) first[r + 1] += first[r];
  std::vector<Busy> sorted(busy.size());
  std::vector<std::size_t> fill(first.begin(), first.end() - 1);
  for (const auto& b : busy) sorted[fill[b.resource]++] = b;
  for (std::size_t r = 0; r < resource_count; ++r) {
    auto begin = sorted.begin() + static_cast<std::ptrdiff_t>(first[r]);
    auto end = sorted.begin() + static_cast<std::ptrdiff_t>(first[r + 1]);
    if (end - begin < 2) continue;
    std::sort(begin, end, [](const Busy& a, const Busy& b) {
      return a.start != b.start ? a.start < b.start : a.transfer < b.transfer;
    });
    for (auto it = begin; it + 1 != end; ++it) {
      if ((it + 1)->start < it->end - tolerance_) {
        violation("{}: {} and {} overlap", what(r), describe(it->transfer), describe((it + 1)->transfer));
      }
    }
  }
}

double PlanChecker::check_operation() {
  std::vector<std::size_t> all(plan_.transfers.size());
  std::iota(all.begin(), all.end(), 0);
  double completion = last_completion(plan_.transfers);
  switch (plan_.operation) {
    case Operation::broadcast:
    case Operation::multicast:
      check_broadcast(all, /*value_available_at=*/0.0);
      break;
    case Operation::reduce:
      completion = std::max(completion, check_reduce(all));
      break;
    case Operation::allreduce: {
      std::vector<std::size_t> reduce_phase, broadcast_phase;
      for (std::size_t i = 0; i < plan_.transfers.size(); ++i) {
        (plan_.transfers[i].payload == Payload::partial_reduction ? reduce_phase : broadcast_phase).push_back(i);
      }
      const double result_ready = check_reduce(reduce_phase);
      check_broadcast(broadcast_phase, result_ready);
      completion = std::max(completion, result_ready);
      break;
    }
    case Operation::scatter:
    case Operation::gossip:
    case Operation::allgather:
      break;  // steady-state operations: never a makespan plan's (the readers refuse them)
  }
  check_claims(completion);
  return completion;
}

// The transfers `indices` carry a value from plan_.root, which holds it from
// `value_available_at`. Every participant must receive it exactly once (or,
// for a multicast, every target at least once) and forward it only after.
void PlanChecker::check_broadcast(const std::vector<std::size_t>& indices, double value_available_at) {
  const auto n = static_cast<std::size_t>(rules_.node_count);
  std::vector<double> received_at(n, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> receive_count(n, 0);
  received_at[static_cast<std::size_t>(plan_.root)] = value_available_at;
  for (auto i : indices) {
    const auto& t = plan_.transfers[i];
    if (t.to == plan_.root) {
      violation("{}: the source {} receives its own broadcast", describe(i), name(t.to));
      continue;
    }
    auto to = static_cast<std::size_t>(t.to);
    if (++receive_count[to] > 1) violation("{}: {} receives the message a second time", describe(i), name(t.to));
    received_at[to] = std::min(received_at[to], t.end);
  }
  for (auto i : indices) {
    const auto& t = plan_.transfers[i];
    double holds_from = received_at[static_cast<std::size_t>(t.from)];
    if (!(t.start >= holds_from - tolerance_)) {
      if (std::isinf(holds_from)) {
        violation("{}: causality: {} never receives the message it sends", describe(i), name(t.from));
      } else {
        violation("{}: causality: {} sends at {} but holds the message only from {}", describe(i), name(t.from),
                  t.start, holds_from);
      }
    }
  }
  if (plan_.operation == Operation::multicast) {
    for (auto target : plan_.targets) {
      if (target != plan_.root && receive_count[static_cast<std::size_t>(target)] == 0) {
        violation("completeness: target {} never receives the message", name(target));
      }
    }
  } else {
    for (std::size_t p = 0; p < n; ++p) {
      const auto processor = static_cast<ProcessorIndex>(p);
      if (processor != plan_.root && receive_count[p] == 0 && participates(processor)) {
        violation("completeness: {} never receives the message", name(processor));
      }
    }
  }
}

// Returns the time at which the root holds every contribution combined.
double PlanChecker::check_reduce(const std::vector<std::size_t>& indices) {
  const auto n = static_cast<std::size_t>(rules_.node_count);
  const std::vector<std::size_t> send_of = reduce_send_of(
      plan_, indices, n, [this](std::size_t i) { return describe(i); },
      [this](ProcessorIndex p) -> std::string_view { return name(p); }, report_);
  // A node combines each arriving partial result, one at a time in arrival
  // order, as early as possible: the earliest it can hold its combined value.
  std::vector<std::vector<double>> arrivals(n);
  for (auto i : indices) {
    const auto& t = plan_.transfers[i];
    arrivals[static_cast<std::size_t>(t.to)].push_back(t.end);
  }
  std::vector<double> combined_at(n, 0.0);
  for (std::size_t p = 0; p < n; ++p) {
    auto& list = arrivals[p];
    if (list.empty()) continue;
    std::sort(list.begin(), list.end());
    const double combine = rules_.combine_time ? rules_.combine_time(static_cast<ProcessorIndex>(p)) : 0.0;
    double done = 0;
    for (double arrival : list) done = std::max(done, arrival) + combine;
    combined_at[p] = done;
  }
  for (std::size_t p = 0; p < n; ++p) {
    const auto processor = static_cast<ProcessorIndex>(p);
    if (processor == plan_.root || !participates(processor)) continue;
    if (send_of[p] == SIZE_MAX) {
      violation("completeness: {} never sends its contribution", name(processor));
      continue;
    }
    const auto& send = plan_.transfers[send_of[p]];
    if (!(send.start >= combined_at[p] - tolerance_)) {
      const double last_arrival = arrivals[p].empty() ? 0.0 : arrivals[p].back();
      if (combined_at[p] > last_arrival) {
        violation("{}: causality: {} sends its combined value at {} before it can have combined its {} input(s) "
                  "(last arrival {}, combined at {} at the earliest)",
                  describe(send_of[p]), name(processor), send.start, arrivals[p].size(), last_arrival,
                  combined_at[p]);
      } else {
        violation("{}: causality: {} sends its combined value at {} before its last incoming message arrives at {}",
                  describe(send_of[p]), name(processor), send.start, last_arrival);
      }
    }
  }
  // Each contribution follows the unique chain of sends; it must end at the root.
  for (ProcessorIndex p : contributions_in_cycles(plan_, send_of)) {
    violation("completeness: the contribution of {} travels in a cycle and never reaches the root", name(p));
  }
  return combined_at[static_cast<std::size_t>(plan_.root)];
}

std::vector<std::size_t> reduce_send_of(const MakespanPlan& plan, const std::vector<std::size_t>& indices,
                                        std::size_t node_count,
                                        const std::function<std::string(std::size_t)>& describe,
                                        const std::function<std::string_view(ProcessorIndex)>& name,
                                        VerifyReport& report) {
  std::vector<std::size_t> send_of(node_count, SIZE_MAX);
  for (auto i : indices) {
    const auto& t = plan.transfers[i];
    auto from = static_cast<std::size_t>(t.from);
    if (t.from == plan.root) {
      report.add_violation(fmt::format("{}: the root {} sends; it must only receive", describe(i), name(t.from)));
      continue;
    }
    if (send_of[from] != SIZE_MAX) {
      report.add_violation(fmt::format("{}: {} sends a second time (it already sent in transfers[{}])", describe(i),
                                       name(t.from), send_of[from]));
      continue;
    }
    send_of[from] = i;
  }
  return send_of;
}

std::vector<ProcessorIndex> contributions_in_cycles(const MakespanPlan& plan, const std::vector<std::size_t>& send_of) {
  // state: 0 unknown, 1 on the current path, 2 reaches the root, 3 does not.
  const std::size_t n = send_of.size();
  std::vector<ProcessorIndex> in_cycles;
  std::vector<std::uint8_t> state(n, 0);
  state[static_cast<std::size_t>(plan.root)] = 2;
  std::vector<std::size_t> path;
  for (std::size_t start = 0; start < n; ++start) {
    std::size_t p = start;
    path.clear();
    while (state[p] == 0 && send_of[p] != SIZE_MAX) {
      state[p] = 1;
      path.push_back(p);
      p = static_cast<std::size_t>(plan.transfers[send_of[p]].to);
    }
    const bool reaches_root = state[p] == 2;
    if (!reaches_root && state[p] == 1) in_cycles.push_back(static_cast<ProcessorIndex>(start));
    for (auto q : path) state[q] = reaches_root ? 2 : 3;
  }
  return in_cycles;
}

void check_stated_facts(const MakespanPlan& plan, std::int64_t participants, const std::string& time_unit,
                        std::size_t node_count, const std::function<std::string_view(ProcessorIndex)>& name,
                        VerifyReport& report) {
  if (plan.stated_processors && *plan.stated_processors != participants) {
    report.add_violation(fmt::format("processors: the plan states {} but the platform has {}",
                                     *plan.stated_processors, participants));
  }
  if (plan.stated_time_unit && *plan.stated_time_unit != time_unit) {
    report.add_violation(fmt::format("time_unit: the plan states \"{}\" but the platform's times are {}",
                                     *plan.stated_time_unit,
                                     time_unit.empty() ? std::string("without a unit") : "in " + time_unit));
  }
  const bool reduce = plan.operation == Operation::reduce;
  const bool carries_value = plan.operation == Operation::broadcast || plan.operation == Operation::multicast;
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < plan.transfers.size(); ++i) {
    const Payload payload = plan.transfers[i].payload;
    if ((reduce && payload != Payload::partial_reduction) || (carries_value && payload != Payload::broadcast_value)) {
      if (wrong++ == 0) {
        report.add_violation(fmt::format("transfers[{}].payload: a {} moves {}, not \"{}\"", i, to_string(plan.operation),
                                         reduce ? "partial results (\"partial\")" : "the value (\"value\")",
                                         to_string(payload)));
      }
    }
  }
  if (wrong > 1) report.add_violation(fmt::format("payload: {} more transfers carry the wrong payload", wrong - 1));
  if (plan.operation != Operation::multicast || !plan.stated_helpers) return;
  std::vector<char> role(node_count, 0);  // 1 target, 2 listed helper, 4 receives
  for (auto t : plan.targets) role[static_cast<std::size_t>(t)] |= 1;
  for (auto h : plan.helpers) {
    if (role[static_cast<std::size_t>(h)] & 1) {
      report.add_violation(fmt::format("helpers: {} is a target, not a helper", name(h)));
    }
    role[static_cast<std::size_t>(h)] |= 2;
  }
  for (const auto& t : plan.transfers) role[static_cast<std::size_t>(t.to)] |= 4;
  for (std::size_t p = 0; p < node_count; ++p) {
    const auto processor = static_cast<ProcessorIndex>(p);
    if (processor == plan.root) continue;
    if (role[p] == 4) {
      report.add_violation(fmt::format("helpers: {} receives the message but is neither a target nor a listed helper",
                                       name(processor)));
    } else if (role[p] == 2) {
      report.add_violation(fmt::format("helpers: {} is listed as a helper but never receives", name(processor)));
    }
  }
}

void PlanChecker::check_claims(double completion) {
  report_.measured_makespan = completion;
  if (!std::isfinite(plan_.makespan)) {
    violation("claims: the makespan must be a finite number, got {}", plan_.makespan);
  } else if (!(std::fabs(plan_.makespan - completion) <= tolerance_)) {
    violation("claims: the plan claims makespan {} but it completes at {}", plan_.makespan, completion);
  }
  if (!std::isfinite(plan_.lower_bound)) {
    violation("claims: the lower bound must be a finite number, got {}", plan_.lower_bound);
  } else if (plan_.lower_bound > completion + tolerance_) {
    violation("claims: the claimed lower bound {} exceeds the makespan {}", plan_.lower_bound, completion);
  }
  // optimal means proven: the plan's own lower bound must meet its makespan.
  if (plan_.model != PlanModel::sender_speed && plan_.optimal && plan_.lower_bound < completion - tolerance_) {
    violation("claims: the plan claims to be optimal but its lower bound {} is below its makespan {}",
              plan_.lower_bound, completion);
  }
  if (plan_.guarantee.kind == Guarantee::Kind::exact && !plan_.optimal) {
    violation("claims: the guarantee is exact but the plan does not claim to be optimal");
  }
  if (plan_.guarantee.kind == Guarantee::Kind::ratio &&
      !(std::isfinite(plan_.guarantee.ratio) && plan_.guarantee.ratio >= 1)) {
    violation("claims: a ratio guarantee must be a finite number >= 1, got {}", plan_.guarantee.ratio);
  }
}

}  // namespace hetcoll::verify_detail
