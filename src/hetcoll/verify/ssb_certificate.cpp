#include "hetcoll/verify/ssb_certificate.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

namespace hetcoll {

namespace {

constexpr std::size_t kNoIndex = std::numeric_limits<std::size_t>::max();

// The largest flow from `source` to `target` under `capacity`, exactly
// (Edmonds-Karp over rationals).
Rational max_flow(const Platform& platform, ProcessorIndex source, ProcessorIndex target,
                  const std::vector<Rational>& capacity) {
  const auto n = static_cast<std::size_t>(platform.size());
  std::vector<Rational> flow(platform.edges().size(), Rational(0));
  Rational total = 0;
  for (;;) {
    std::vector<std::pair<std::size_t, bool>> parent(n, {kNoIndex, true});
    std::vector<char> seen(n, 0);
    std::deque<ProcessorIndex> queue{source};
    seen[static_cast<std::size_t>(source)] = 1;
    while (!queue.empty() && !seen[static_cast<std::size_t>(target)]) {
      const auto u = queue.front();
      queue.pop_front();
      for (auto e : platform.out_edges(u)) {
        const auto v = static_cast<std::size_t>(platform.edges()[e].to);
        if (!seen[v] && flow[e] < capacity[e]) {
          seen[v] = 1;
          parent[v] = {e, true};
          queue.push_back(platform.edges()[e].to);
        }
      }
      for (auto e : platform.in_edges(u)) {
        const auto v = static_cast<std::size_t>(platform.edges()[e].from);
        if (!seen[v] && sgn(flow[e]) > 0) {
          seen[v] = 1;
          parent[v] = {e, false};
          queue.push_back(platform.edges()[e].from);
        }
      }
    }
    if (!seen[static_cast<std::size_t>(target)]) return total;
    Rational push = -1;
    for (auto v = static_cast<std::size_t>(target); v != static_cast<std::size_t>(source);) {
      const auto [e, forward] = parent[v];
      const Rational room = forward ? capacity[e] - flow[e] : flow[e];
      if (push < 0 || room < push) push = room;
      v = static_cast<std::size_t>(forward ? platform.edges()[e].from : platform.edges()[e].to);
    }
    for (auto v = static_cast<std::size_t>(target); v != static_cast<std::size_t>(source);) {
      const auto [e, forward] = parent[v];
      flow[e] += forward ? push : -push;
      v = static_cast<std::size_t>(forward ? platform.edges()[e].from : platform.edges()[e].to);
    }
    total += push;
  }
}

// The duals of the certificate, by the row each one names.
struct Duals {
  std::vector<Rational> send, receive;    // per node
  std::vector<Rational> link;             // per edge
  std::vector<std::pair<std::vector<char>, Rational>> cuts;  // (inside, dual)
  std::map<std::pair<std::size_t, std::size_t>, Rational> conservation;  // (target position, node)
  std::map<std::pair<std::size_t, std::size_t>, Rational> copy;          // (target position, edge)
  bool flow_rows = false;
};

std::optional<std::size_t> edge_of(const std::string& key, std::size_t edges) {
  std::size_t value = 0;
  if (key.empty() || key.size() > 18) return std::nullopt;
  for (char c : key) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  return value < edges ? std::optional<std::size_t>(value) : std::nullopt;
}

}  // namespace

std::string check_ssb_certificate(const Platform& platform, ProcessorIndex source,
                                  const std::vector<double>& slice_times, const std::vector<ProcessorIndex>& targets,
                                  const Rational& throughput, const std::vector<Rational>& edge_rates,
                                  const lp::LpCertificate& certificate) {
  const auto n = static_cast<std::size_t>(platform.size());
  const auto m = platform.edges().size();
  if (certificate.formulation != "ssb-broadcast") return "the certificate is not for the SSB program";
  if (certificate.bound != throughput) return "the certificate's bound is not the throughput";
  if (slice_times.size() != m || edge_rates.size() != m) return "edge costs or rates do not match the platform";
  std::vector<Rational> time(m);
  for (std::size_t e = 0; e < m; ++e) time[e] = rational_from_double(slice_times[e]);
  const auto one_port = [&](ProcessorIndex v) { return platform.node(v).ports != PortModel::unlimited; };
  std::map<ProcessorIndex, std::size_t> target_position;
  for (std::size_t i = 0; i < targets.size(); ++i) target_position[targets[i]] = i;

  Duals y;
  y.send.assign(n, Rational(0));
  y.receive.assign(n, Rational(0));
  y.link.assign(m, Rational(0));
  Rational bound = 0;
  for (std::size_t i = 0; i < certificate.duals.size(); ++i) {
    const auto& entry = certificate.duals[i];
    const auto& keys = entry.row.keys;
    const auto& kind = entry.row.kind;
    const auto where = [&](const std::string& what) { return fmt::format("duals[{}] ({}): {}", i, kind, what); };
    const auto node = [&](const std::string& id) { return platform.find(id); };
    if (kind != "conservation" && entry.value < 0) return where("a dual of a <= row must be >= 0");
    if (kind == "send_port" || kind == "receive_port") {
      const auto v = keys.size() == 1 ? node(keys[0]) : std::nullopt;
      if (!v) return where("needs one node id");
      const bool send = kind == "send_port";
      if (!one_port(*v) || (send ? platform.out_edges(*v) : platform.in_edges(*v)).empty()) {
        return where("the program has no such row for " + keys[0]);
      }
      (send ? y.send : y.receive)[static_cast<std::size_t>(*v)] += entry.value;
      bound += entry.value;
    } else if (kind == "link") {
      const auto e = keys.size() == 3 ? edge_of(keys[2], m) : std::nullopt;
      if (!e || platform.id(platform.edges()[*e].from) != keys[0] || platform.id(platform.edges()[*e].to) != keys[1]) {
        return where("not an edge of the platform");
      }
      if (one_port(platform.edges()[*e].from) && one_port(platform.edges()[*e].to)) {
        return where("edge " + keys[2] + " joins two one-port nodes: it has no link row");
      }
      y.link[*e] += entry.value;
      bound += entry.value;
    } else if (kind == "cut") {
      std::vector<char> inside(n, 0);
      bool has_target = false;
      for (const auto& id : keys) {
        const auto v = node(id);
        if (!v) return where("names an unknown node " + id);
        if (*v == source) return where("a cut holds the source");
        inside[static_cast<std::size_t>(*v)] = 1;
        has_target |= target_position.count(*v) > 0;
      }
      if (!has_target) return where("a cut holds no target");
      y.cuts.emplace_back(std::move(inside), entry.value);
    } else if (kind == "conservation" || kind == "copy") {
      y.flow_rows = true;
      const auto w = keys.empty() ? std::nullopt : node(keys[0]);
      if (!w || !target_position.count(*w)) return where("the first key must be a target");
      const std::size_t position = target_position[*w];
      if (kind == "conservation") {
        const auto v = keys.size() == 2 ? node(keys[1]) : std::nullopt;
        if (!v || *v == source) return where("not a conservation row (a node other than the source)");
        y.conservation[{position, static_cast<std::size_t>(*v)}] += entry.value;
      } else {
        const auto e = keys.size() == 4 ? edge_of(keys[3], m) : std::nullopt;
        if (!e || platform.id(platform.edges()[*e].from) != keys[1] || platform.id(platform.edges()[*e].to) != keys[2]) {
          return where("not an edge of the platform");
        }
        if (platform.edges()[*e].from == *w || platform.edges()[*e].to == source) {
          return where("the program has no copy row for this edge");
        }
        y.copy[{position, *e}] += entry.value;
      }
    } else {
      return where("not a row of the SSB program");
    }
  }
  if (bound != certificate.bound) {
    return fmt::format("the port and link duals sum to {}, not to the bound {}", to_string(bound),
                       to_string(certificate.bound));
  }
  // Column TP: sum of cut duals - sum of conservation duals at w for w >= 1.
  Rational tp = 0;
  for (const auto& [inside, value] : y.cuts) tp += value;
  for (const auto& [key, value] : y.conservation) {
    if (targets[key.first] == static_cast<ProcessorIndex>(key.second)) tp -= value;
  }
  if (tp < 1) return fmt::format("the dual constraint of TP fails: {} < 1", to_string(tp));
  // Columns n(e): c(e) (ports + link) - cuts entered by e - copies of e >= 0.
  std::vector<Rational> copies(m, Rational(0));
  for (const auto& [key, value] : y.copy) copies[key.second] += value;
  for (std::size_t e = 0; e < m; ++e) {
    const auto& edge = platform.edges()[e];
    Rational column = time[e] * (y.send[static_cast<std::size_t>(edge.from)] +
                                 y.receive[static_cast<std::size_t>(edge.to)] + y.link[e]);
    for (const auto& [inside, value] : y.cuts) {
      if (inside[static_cast<std::size_t>(edge.to)] && !inside[static_cast<std::size_t>(edge.from)]) column -= value;
    }
    column -= copies[e];
    if (column < 0) {
      return fmt::format("the dual constraint of the rate of edge {} -> {} fails", platform.id(edge.from),
                         platform.id(edge.to));
    }
  }
  // Columns x_w(e) of the full flow program: conservation at e's head minus
  // at its tail (the source has no row) plus e's copy row >= 0.
  if (y.flow_rows) {
    for (std::size_t position = 0; position < targets.size(); ++position) {
      for (std::size_t e = 0; e < m; ++e) {
        const auto& edge = platform.edges()[e];
        const auto dual = [&](ProcessorIndex v) {
          if (v == source) return Rational(0);
          auto it = y.conservation.find({position, static_cast<std::size_t>(v)});
          return it == y.conservation.end() ? Rational(0) : it->second;
        };
        auto copy = y.copy.find({position, e});
        const Rational column = dual(edge.to) - dual(edge.from) + (copy == y.copy.end() ? Rational(0) : copy->second);
        if (column < 0) {
          return fmt::format("the dual constraint of the flow to {} on edge {} -> {} fails", platform.id(targets[position]),
                             platform.id(edge.from), platform.id(edge.to));
        }
      }
    }
  }
  // The primal side, by a second method: the rates respect every port and
  // carry TP to every target.
  for (ProcessorIndex u = 0; u < platform.size(); ++u) {
    if (!one_port(u)) continue;
    Rational out = 0, in = 0;
    for (auto e : platform.out_edges(u)) out += edge_rates[e] * time[e];
    for (auto e : platform.in_edges(u)) in += edge_rates[e] * time[e];
    if (out > 1 || in > 1) return fmt::format("node {} is busy more than one time unit per time unit", platform.id(u));
  }
  for (std::size_t e = 0; e < m; ++e) {
    const auto& edge = platform.edges()[e];
    if ((!one_port(edge.from) || !one_port(edge.to)) && edge_rates[e] * time[e] > 1) {
      return fmt::format("link {} -> {} is busy more than one time unit per time unit", platform.id(edge.from),
                         platform.id(edge.to));
    }
  }
  for (auto w : targets) {
    if (max_flow(platform, source, w, edge_rates) < throughput) {
      return fmt::format("target {} cannot receive TP slices per time unit under the edge rates", platform.id(w));
    }
  }
  return "";
}

}  // namespace hetcoll
