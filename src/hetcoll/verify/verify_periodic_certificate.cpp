// Periodic plans: the claims (throughput, bound) and the dual certificate,
// whose rows are re-derived from the platform for each formulation.
#include "hetcoll/verify/verify_periodic_internal.h"

namespace hetcoll::periodic_check {

void PeriodicChecker::check_claims() {
  if (plan_.period < 1) return;
  if (Rational(plan_.operations_per_period) != plan_.throughput * Rational(plan_.period)) {
    violation("operations_per_period {} differs from throughput x period = {}", plan_.operations_per_period.get_str(),
              to_string(plan_.throughput * Rational(plan_.period)));
  }
  if (plan_.throughput <= 0) violation("throughput: must be positive, got {}", to_string(plan_.throughput));
  if (plan_.throughput > plan_.throughput_bound) {
    violation("throughput {} exceeds the claimed bound {}", readable(plan_.throughput), readable(plan_.throughput_bound));
  }
  for (const auto& contradiction : plan_.stated_contradictions) violation("{}", contradiction);
  if (plan_.period_limit && plan_.period > *plan_.period_limit) {
    violation("period {} exceeds the period_limit {} the plan claims to keep", plan_.period.get_str(),
              plan_.period_limit->get_str());
  }
  if (!plan_.period_limit && plan_.throughput != plan_.throughput_bound) {
    violation("throughput {} differs from the bound {} although no period limit applied", readable(plan_.throughput),
              readable(plan_.throughput_bound));
  }
  // An optimality claim needs the proof: a certificate of the bound and
  // the throughput equal to it (no certificate, no optimal claim).
  if (plan_.claimed_optimal && *plan_.claimed_optimal != plan_.optimal()) {
    violation("optimal: the plan claims {}, but {}", *plan_.claimed_optimal ? "true" : "false",
              plan_.certificate.empty() ? "it carries no certificate of its bound"
              : plan_.throughput != plan_.throughput_bound
                  ? fmt::format("its throughput {} is below its proven bound {}", readable(plan_.throughput),
                                readable(plan_.throughput_bound))
                  : std::string("its certificate proves its throughput optimal"));
  }
}

std::optional<ProcessorIndex> PeriodicChecker::node_key(const std::string& key) const {
  auto v = platform_.find(key);
  if (v && platform_.id(*v) == key) return v;
  return std::nullopt;
}

std::optional<int> PeriodicChecker::int_key(const std::string& key) {
  int value = 0;
  auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), value);
  if (error != std::errc() || end != key.data() + key.size()) return std::nullopt;
  return value;
}

void PeriodicChecker::check_certificate() {
  const auto& certificate = plan_.certificate;
  if (certificate.empty()) return;
  if (certificate.bound != plan_.throughput_bound) {
    violation("certificate: bound {} differs from throughput_bound {}", to_string(certificate.bound),
              to_string(plan_.throughput_bound));
  }
  const auto n = static_cast<std::size_t>(platform_.size());
  send_port_.assign(n, Rational(0));
  receive_port_.assign(n, Rational(0));
  compute_.assign(n, Rational(0));
  Rational bound = 0;
  bool ok = true;
  const auto bad = [&](std::size_t i, const std::string& what) {
    violation("certificate.duals[{}]: {}", i, what);
    ok = false;
  };
  if (plan_.operation == SteadyOperation::broadcast || certificate.formulation == "ssb-broadcast") {
    if (plan_.operation != SteadyOperation::broadcast || certificate.formulation != "ssb-broadcast") {
      violation("certificate: formulation \"{}\" does not prove a {} bound", certificate.formulation,
                to_string(plan_.operation));
      return;
    }
    check_ssb_certificate();
    return;
  }
  const bool per_type = certificate.formulation == "personal-per-type";
  const bool by_source = certificate.formulation == "personal-by-source";
  const bool reduce = certificate.formulation == "reduce";
  if ((per_type || by_source) == (plan_.operation == SteadyOperation::reduce) ||
      (!per_type && !by_source && !reduce)) {
    violation("certificate: formulation \"{}\" does not prove a {} bound", certificate.formulation,
              to_string(plan_.operation));
    return;
  }
  for (std::size_t i = 0; i < certificate.duals.size(); ++i) {
    const auto& entry = certificate.duals[i];
    const auto& keys = entry.row.keys;
    const auto& value = entry.value;
    if (entry.row.kind == "send_port" || entry.row.kind == "receive_port" || entry.row.kind == "compute") {
      const auto v = keys.size() == 1 ? node_key(keys[0]) : std::nullopt;
      if (!v) {
        bad(i, "needs one node id");
        continue;
      }
      if (value < 0) bad(i, entry.row.kind + " duals must be >= 0");
      if (entry.row.kind == "compute") {
        if (!reduce || position_[static_cast<std::size_t>(*v)] < 0 || !view_.compute_time[static_cast<std::size_t>(*v)]) {
          bad(i, "no compute row for " + keys[0]);
          continue;
        }
        compute_[static_cast<std::size_t>(*v)] += value;
      } else {
        if (!view_.one_port[static_cast<std::size_t>(*v)]) {
          bad(i, keys[0] + " has unlimited ports: it has no port row");
          continue;
        }
        (entry.row.kind == "send_port" ? send_port_ : receive_port_)[static_cast<std::size_t>(*v)] += value;
      }
      bound += value;
    } else if (entry.row.kind == "conservation" && per_type && keys.size() == 3) {
      const auto v = node_key(keys[0]);
      const auto s = node_key(keys[1]);
      const auto t = node_key(keys[2]);
      if (!v || !s || !t || !pairs_.count({*s, *t}) || *v == *s || *v == *t) {
        bad(i, "not a conservation row of this plan");
        continue;
      }
      pair_potential_[{*s, *t}][*v] += value;
    } else if (entry.row.kind == "throughput" && per_type && keys.size() == 2) {
      const auto s = node_key(keys[0]);
      const auto t = node_key(keys[1]);
      if (!s || !t || !pairs_.count({*s, *t})) {
        bad(i, "not a throughput row of this plan");
        continue;
      }
      pair_throughput_[{*s, *t}] += value;
    } else if (entry.row.kind == "conservation" && by_source && keys.size() == 2) {
      const auto v = node_key(keys[0]);
      const auto s = node_key(keys[1]);
      if (!v || !s || !is_source(*s) || *v == *s) {
        bad(i, "not a conservation row of this plan");
        continue;
      }
      source_potential_[*s][*v] += value;
    } else if (entry.row.kind == "conservation" && reduce && keys.size() == 3) {
      const auto v = node_key(keys[0]);
      const auto first = int_key(keys[1]);
      const auto last = int_key(keys[2]);
      if (!v || !first || !last || *first < 0 || *first > *last || *last >= count_ ||
          exempt(*v, *first, *last)) {
        bad(i, "not a conservation row of this plan");
        continue;
      }
      value_potential_[{*v, *first, *last}] += value;
    } else if (entry.row.kind == "throughput" && reduce && keys.empty()) {
      reduce_throughput_ += value;
    } else {
      bad(i, "unknown row \"" + entry.row.kind + "\" for formulation " + certificate.formulation);
    }
  }
  if (!ok) return;
  if (bound != certificate.bound) {
    violation("certificate: the duals of the rows with right-hand side 1 sum to {}, not to the bound {}",
              to_string(bound), to_string(certificate.bound));
    return;
  }
  const std::size_t before = report_.violation_count;
  if (per_type) check_per_type_duals();
  if (by_source) check_by_source_duals();
  if (reduce) check_reduce_duals();
  report_.certificate_checked = report_.violation_count == before;
}

bool PeriodicChecker::is_source(ProcessorIndex s) {
  if (pair_sources_.empty()) {
    for (const auto& pair : pairs_) pair_sources_.insert(pair.first);
  }
  return pair_sources_.count(s) > 0;
}

bool PeriodicChecker::exempt(ProcessorIndex v, int first, int last) const {
  if (first == last && position_[static_cast<std::size_t>(v)] == first) return true;
  return v == plan_.root && first == 0 && last == count_ - 1;
}

// c(e) x (send-port dual of its tail + receive-port dual of its head),
// counting only ports the edge uses.
Rational PeriodicChecker::port_price(std::size_t e) const {
  Rational price = 0;
  const auto& edge_ref = platform_.edges()[e];
  if (uses_sender_port(e)) price += view_.cost[e] * send_port_[static_cast<std::size_t>(edge_ref.from)];
  if (uses_receiver_port(e)) price += view_.cost[e] * receive_port_[static_cast<std::size_t>(edge_ref.to)];
  return price;
}

Rational PeriodicChecker::lookup(const std::map<ProcessorIndex, Rational>& potentials, ProcessorIndex v) {
  auto it = potentials.find(v);
  return it == potentials.end() ? Rational(0) : it->second;
}

void PeriodicChecker::reduced_cost_violation(const std::string& column, const Rational& value, const Rational& needed) {
  violation("certificate: dual constraint of {} fails: {} < {}", column, to_string(value), to_string(needed));
}

void PeriodicChecker::check_per_type_duals() {
  const auto& edges = platform_.edges();
  Rational throughput_sum = 0;
  for (const auto& pair : pairs_) {
    const auto [s, t] = pair;
    const auto& potential = pair_potential_[pair];
    const Rational lambda = pair_throughput_.count(pair) ? pair_throughput_[pair] : Rational(0);
    throughput_sum += lambda;
    for (std::size_t e = 0; e < edges.size(); ++e) {
      if (!view_.usable[e] || edges[e].to == s || edges[e].from == t) continue;
      Rational reduced = port_price(e);
      if (edges[e].to == t) {
        reduced += lambda;
      } else {
        reduced += lookup(potential, edges[e].to);
      }
      if (edges[e].from != s) reduced -= lookup(potential, edges[e].from);
      if (reduced < 0) {
        reduced_cost_violation(fmt::format("send({} -> {}, {} -> {})", id(edges[e].from), id(edges[e].to), id(s), id(t)),
                               reduced, Rational(0));
        return;
      }
    }
  }
  // Column TP: -(sum of the throughput duals) >= 1.
  if (-throughput_sum < 1) reduced_cost_violation("TP", -throughput_sum, Rational(1));
}

void PeriodicChecker::check_by_source_duals() {
  const auto& edges = platform_.edges();
  Rational demand_sum = 0;
  std::map<ProcessorIndex, std::vector<ProcessorIndex>> targets_of;
  for (const auto& pair : pairs_) targets_of[pair.first].push_back(pair.second);
  std::vector<Rational> price(edges.size());
  for (std::size_t e = 0; e < edges.size(); ++e) {
    if (view_.usable[e]) price[e] = port_price(e);
  }
  std::vector<Rational> potential_of(static_cast<std::size_t>(platform_.size()));
  for (const auto& [s, targets] : targets_of) {
    // This source's potentials as a dense vector (0 where absent).
    for (auto& value : potential_of) value = 0;
    for (const auto& [v, value] : source_potential_[s]) potential_of[static_cast<std::size_t>(v)] = value;
    for (auto t : targets) demand_sum += potential_of[static_cast<std::size_t>(t)];
    for (std::size_t e = 0; e < edges.size(); ++e) {
      if (!view_.usable[e] || edges[e].to == s) continue;
      Rational reduced = price[e] + potential_of[static_cast<std::size_t>(edges[e].to)];
      if (edges[e].from != s) reduced -= potential_of[static_cast<std::size_t>(edges[e].from)];
      if (reduced < 0) {
        reduced_cost_violation(fmt::format("send({} -> {}, from {})", id(edges[e].from), id(edges[e].to), id(s)),
                               reduced, Rational(0));
        return;
      }
    }
  }
  // Column TP appears with -1 in the conservation row of every target.
  if (-demand_sum < 1) reduced_cost_violation("TP", -demand_sum, Rational(1));
}

// The dual of the balance of v[first,last] on v: the throughput row for
// the result on the root, 0 for exempt values, the conservation row else.
Rational PeriodicChecker::value_price(ProcessorIndex v, int first, int last) const {
  if (v == plan_.root && first == 0 && last == count_ - 1) return reduce_throughput_;
  if (exempt(v, first, last)) return 0;
  auto it = value_potential_.find({v, first, last});
  return it == value_potential_.end() ? Rational(0) : it->second;
}

void PeriodicChecker::check_reduce_duals() {
  const auto& edges = platform_.edges();
  for (std::size_t e = 0; e < edges.size(); ++e) {
    if (!view_.usable[e]) continue;
    const auto from = edges[e].from;
    const auto to = edges[e].to;
    const Rational price = port_price(e);
    for (int first = 0; first < count_; ++first) {
      for (int last = first; last < count_; ++last) {
        if (first == last && position_[static_cast<std::size_t>(to)] == first) continue;
        if (from == plan_.root && first == 0 && last == count_ - 1) continue;
        const Rational reduced = price + value_price(to, first, last) - value_price(from, first, last);
        if (reduced < 0) {
          reduced_cost_violation(fmt::format("send({} -> {}, v[{},{}])", id(from), id(to), first, last), reduced,
                                 Rational(0));
          return;
        }
      }
    }
  }
  for (auto p : plan_.participants) {
    const auto& time = view_.compute_time[static_cast<std::size_t>(p)];
    const Rational compute_price = time ? *time * compute_[static_cast<std::size_t>(p)] : Rational(0);
    for (int first = 0; first < count_; ++first) {
      for (int last = first + 1; last < count_; ++last) {
        const Rational produced = value_price(p, first, last);
        for (int split = first; split < last; ++split) {
          const Rational reduced =
              compute_price + produced - value_price(p, first, split) - value_price(p, split + 1, last);
          if (reduced < 0) {
            reduced_cost_violation(fmt::format("cons({}, T[{},{},{}])", id(p), first, split, last), reduced,
                                   Rational(0));
            return;
          }
        }
      }
    }
  }
  if (-reduce_throughput_ < 1) reduced_cost_violation("TP", -reduce_throughput_, Rational(1));
}

}  // namespace hetcoll::periodic_check
