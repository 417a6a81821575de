#include "hetcoll/plan/plan.h"

#include <algorithm>

#include <fmt/format.h>

namespace hetcoll {

const char* to_string(Payload payload) {
  switch (payload) {
    case Payload::broadcast_value: return "value";
    case Payload::partial_reduction: return "partial";
  }
  return "?";
}

std::optional<Payload> payload_from_string(std::string_view name) {
  for (auto payload : {Payload::broadcast_value, Payload::partial_reduction}) {
    if (name == to_string(payload)) return payload;
  }
  return std::nullopt;
}

Guarantee Guarantee::exact() { return {Kind::exact, 1.0, "optimal"}; }

Guarantee Guarantee::at_most(double ratio) {
  return {Kind::ratio, ratio, fmt::format("<= {:g} x optimal", ratio)};
}

Guarantee Guarantee::none() { return {Kind::heuristic, 0.0, "none (heuristic)"}; }

double last_completion(const std::vector<Transfer>& transfers) {
  double last = 0;
  for (const auto& transfer : transfers) last = std::max(last, transfer.end);
  return last;
}

bool is_exchange_allreduce(const MakespanPlan& plan) {
  if (plan.operation != Operation::allreduce) return false;
  std::vector<ProcessorIndex> senders;
  for (const auto& transfer : plan.transfers) {
    if (transfer.payload != Payload::partial_reduction) continue;
    if (transfer.from == plan.root) return true;
    senders.push_back(transfer.from);
  }
  std::sort(senders.begin(), senders.end());
  return std::adjacent_find(senders.begin(), senders.end()) != senders.end();
}

std::vector<ProcessorIndex> parents_of(const MakespanPlan& plan, ProcessorIndex processor_count) {
  std::vector<ProcessorIndex> parent(static_cast<size_t>(processor_count), kNoProcessor);
  std::vector<double> first_end(static_cast<size_t>(processor_count), 0);
  for (const auto& transfer : plan.transfers) {
    if (transfer.to < 0 || transfer.to >= processor_count) continue;
    auto to = static_cast<size_t>(transfer.to);
    if (parent[to] == kNoProcessor || transfer.end < first_end[to]) {
      parent[to] = transfer.from;
      first_end[to] = transfer.end;
    }
  }
  return parent;
}

}  // namespace hetcoll
