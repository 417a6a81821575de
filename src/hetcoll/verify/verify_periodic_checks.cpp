// Independent checking of periodic plans (verify_periodic.h): the entry
// point, the header, the slots (one-port, slot by slot) and the flows. The
// checker is declared in verify_periodic_internal.h.
#include "hetcoll/verify/verify_periodic_internal.h"

namespace hetcoll::periodic_check {

PeriodicVerifyReport PeriodicChecker::run() {
  try {
    view_ = make_steady_platform(platform_, message_size_);
  } catch (const InputError& error) {
    violation("platform: {}", error.what());
    return std::move(report_);
  }
  if (!check_header()) return std::move(report_);
  check_slots();
  check_flows();
  if (plan_.operation == SteadyOperation::broadcast) {
    check_broadcast_trees();
  } else if (plan_.operation == SteadyOperation::reduce) {
    check_reduce_conservation();
    check_reduce_trees();
  } else {
    check_personal_conservation();
    check_personal_trees();
  }
  check_claims();
  check_certificate();
  return std::move(report_);
}

bool PeriodicChecker::takes_part(ProcessorIndex v, const char* role) {
  if (!known(v)) {
    violation("{}: unknown node", role);
    return false;
  }
  const auto& node = platform_.node(v);
  if (node.kind != NodeKind::host || node.router) {
    violation("{}: {} is a router or network element, not a participant", role, id(v));
    return false;
  }
  return true;
}

bool PeriodicChecker::check_header() {
  bool ok = true;
  switch (plan_.operation) {
    case SteadyOperation::scatter:
      ok = takes_part(plan_.root, "source") && ok;
      for (auto t : plan_.targets) ok = takes_part(t, "targets") && ok;
      if (plan_.targets.empty()) {
        violation("targets: none");
        ok = false;
      }
      if (ok) {
        for (auto t : plan_.targets) {
          if (t != plan_.root) pairs_.insert({plan_.root, t});
        }
      }
      break;
    case SteadyOperation::gossip:
      for (auto s : plan_.sources) ok = takes_part(s, "sources") && ok;
      for (auto t : plan_.targets) ok = takes_part(t, "targets") && ok;
      if (ok) {
        for (auto s : plan_.sources) {
          for (auto t : plan_.targets) {
            if (s != t) pairs_.insert({s, t});
          }
        }
      }
      break;
    case SteadyOperation::reduce: {
      count_ = static_cast<int>(plan_.participants.size());
      position_.assign(static_cast<std::size_t>(platform_.size()), -1);
      for (int r = 0; r < count_; ++r) {
        const auto p = plan_.participants[static_cast<std::size_t>(r)];
        if (!takes_part(p, "participants")) {
          ok = false;
          continue;
        }
        if (position_[static_cast<std::size_t>(p)] >= 0) {
          violation("participants: {} is listed twice", id(p));
          ok = false;
        }
        position_[static_cast<std::size_t>(p)] = r;
      }
      if (count_ < 2) {
        violation("participants: a reduce needs at least two");
        ok = false;
      }
      if (ok && (!known(plan_.root) || position_[static_cast<std::size_t>(plan_.root)] < 0)) {
        violation("root: not a participant");
        ok = false;
      }
      break;
    }
    case SteadyOperation::broadcast:
      ok = takes_part(plan_.root, "source") && ok;
      for (auto t : plan_.targets) {
        ok = takes_part(t, "targets") && ok;
        if (t == plan_.root) {
          violation("targets: the source {} is not a target of its own broadcast", id(t));
          ok = false;
        }
      }
      if (plan_.targets.empty()) {
        violation("targets: none");
        ok = false;
      }
      break;
    case Operation::multicast:
    case Operation::allreduce:
    case Operation::allgather:
      break;  // makespan operations: never a periodic plan's (the reader refuses them)
  }
  if (plan_.period < 1) {
    violation("period: must be at least 1, got {}", plan_.period.get_str());
    ok = false;
  }
  if (plan_.operation != SteadyOperation::reduce && plan_.operation != SteadyOperation::broadcast && ok &&
      pairs_.empty()) {
    violation("targets: no (source, target) pair");
    ok = false;
  }
  return ok;
}

bool PeriodicChecker::valid_type(const MessageType& type) const {
  if (plan_.operation == SteadyOperation::broadcast) return type.kind == MessageType::Kind::broadcast;
  if (plan_.operation == SteadyOperation::reduce) {
    return type.kind == MessageType::Kind::partial && type.first >= 0 && type.first <= type.last &&
           type.last < count_;
  }
  return type.kind == MessageType::Kind::personal && pairs_.count({type.source, type.target});
}

// The usable edge from -> to, with a violation when there is none.
std::optional<std::size_t> PeriodicChecker::edge(ProcessorIndex from, ProcessorIndex to, const std::string& where) {
  if (!known(from) || !known(to)) {
    violation("{}: unknown node", where);
    return std::nullopt;
  }
  auto e = view_.edge_between(from, to);
  if (!e) violation("{}: the platform has no edge {} -> {}", where, id(from), id(to));
  return e;
}

bool PeriodicChecker::uses_sender_port(std::size_t e) const {
  return view_.cost[e] > 0 && view_.one_port[static_cast<std::size_t>(platform_.edges()[e].from)];
}

bool PeriodicChecker::uses_receiver_port(std::size_t e) const {
  return view_.cost[e] > 0 && view_.one_port[static_cast<std::size_t>(platform_.edges()[e].to)];
}

void PeriodicChecker::check_slots() {
  Rational total = 0;
  for (std::size_t s = 0; s < plan_.slots.size(); ++s) {
    const auto& slot = plan_.slots[s];
    if (slot.length < 0) violation("slots[{}]: negative length {}", s, to_string(slot.length));
    total += slot.length;
    std::map<ProcessorIndex, std::size_t> sending_on;
    std::map<ProcessorIndex, std::size_t> receiving_on;
    std::map<std::size_t, Rational> busy;
    for (std::size_t t = 0; t < slot.transfers.size(); ++t) {
      const auto& transfer = slot.transfers[t];
      const std::string where = fmt::format("slots[{}].transfers[{}]", s, t);
      const auto e = edge(transfer.from, transfer.to, where);
      if (!e) continue;
      if (!valid_type(transfer.type)) {
        violation("{}: message type {} is not one of this {}", where, type_name(transfer.type), to_string(plan_.operation));
        continue;
      }
      if (transfer.messages <= 0) violation("{}: messages must be positive, got {}", where, to_string(transfer.messages));
      if (!plan_.split_messages && transfer.messages.get_den() != 1) {
        violation("{}: {} messages: split_messages is false, so counts must be whole", where, to_string(transfer.messages));
      }
      if (uses_sender_port(*e)) {
        auto [it, inserted] = sending_on.try_emplace(transfer.from, *e);
        if (!inserted && it->second != *e) {
          violation("slots[{}]: {} sends on two edges at once (one-port)", s, id(transfer.from));
        }
      }
      if (uses_receiver_port(*e)) {
        auto [it, inserted] = receiving_on.try_emplace(transfer.to, *e);
        if (!inserted && it->second != *e) {
          violation("slots[{}]: {} receives on two edges at once (one-port)", s, id(transfer.to));
        }
      }
      if (uses_sender_port(*e) || uses_receiver_port(*e)) busy[*e] += transfer.messages * view_.cost[*e];
      slot_total_[{*e, transfer.type}] += transfer.messages;
      if (transfer.tree >= 0) {
        slot_tree_total_[{*e, transfer.type, transfer.tree}] += transfer.messages;
        ++labelled_transfers_;
      } else {
        ++unlabelled_transfers_;
      }
    }
    for (const auto& [e, time] : busy) {
      if (time > slot.length) {
        violation("slots[{}]: edge {} -> {} is busy {} in a slot of length {}", s, id(platform_.edges()[e].from),
                  id(platform_.edges()[e].to), to_string(time), to_string(slot.length));
      }
    }
  }
  if (total != Rational(plan_.period)) {
    violation("slots: lengths sum to {}, not to the period {}", to_string(total), plan_.period.get_str());
  }
}

void PeriodicChecker::check_flows() {
  if (plan_.flows.empty()) {
    flow_total_ = slot_total_;
    return;
  }
  for (std::size_t f = 0; f < plan_.flows.size(); ++f) {
    const auto& flow = plan_.flows[f];
    const std::string where = fmt::format("flows[{}]", f);
    const auto e = edge(flow.from, flow.to, where);
    if (!e) continue;
    if (!valid_type(flow.type)) {
      violation("{}: message type {} is not one of this operation", where, type_name(flow.type));
      continue;
    }
    flow_total_[{*e, flow.type}] += flow.messages;
  }
  compare_totals(flow_total_, slot_total_, "flows", "the slots");
}

void PeriodicChecker::compare_totals(const std::map<EdgeType, Rational>& expected,
                                     const std::map<EdgeType, Rational>& actual, const char* expected_name,
                                     const char* actual_name) {
  std::set<EdgeType> keys;
  for (const auto& [key, value] : expected) keys.insert(key);
  for (const auto& [key, value] : actual) keys.insert(key);
  for (const auto& key : keys) {
    const auto a = expected.count(key) ? expected.at(key) : Rational(0);
    const auto b = actual.count(key) ? actual.at(key) : Rational(0);
    if (a != b) {
      const auto& e = platform_.edges()[key.first];
      violation("{} carry {} messages {} over {} -> {} per period, {} carry {}", expected_name, to_string(a),
                type_name(key.second), id(e.from), id(e.to), actual_name, to_string(b));
    }
  }
}

}  // namespace hetcoll::periodic_check

namespace hetcoll {

PeriodicVerifyReport verify_periodic_plan(const Platform& platform, const PeriodicPlan& plan,
                                          std::optional<double> message_size) {
  return periodic_check::PeriodicChecker(platform, plan, message_size).run();
}

}  // namespace hetcoll
