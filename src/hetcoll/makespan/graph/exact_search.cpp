#include "hetcoll/makespan/graph/exact_search.h"

#include <algorithm>
#include <bit>
#include <unordered_map>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/graph/ecef.h"
#include "hetcoll/makespan/graph/graph_schedule.h"
#include "hetcoll/makespan/graph/lookahead.h"
#include "hetcoll/core/limits.h"

namespace hetcoll {

namespace {

using Mask = std::uint32_t;

class ExactBroadcastSearch {
 public:
  ExactBroadcastSearch(const GraphNetwork& network, const BroadcastTask& task, const SearchLimits& limits)
      : task_(task),
        table_(network, task.members, task.reversed),
        k_(table_.size()),
        source_(table_.index_of(task.source)),
        budget_(limits) {
    cost_.resize(k_ * k_);
    closure_.resize(k_ * k_);
    route_ports_.resize(k_ * k_);
    std::unordered_map<PortId, std::uint16_t> local;
    for (std::size_t u = 0; u < k_; ++u) {
      for (std::size_t v = 0; v < k_; ++v) {
        cost_[u * k_ + v] = table_.cost(u, v);
        closure_[u * k_ + v] = table_.cost(u, v);
        if (u != v && table_.connected(u, v)) delta_ = std::min(delta_, table_.cost(u, v));
        for (auto port : table_.ports(u, v)) {
          auto [it, inserted] = local.emplace(port, static_cast<std::uint16_t>(local.size()));
          route_ports_[u * k_ + v].push_back(it->second);
        }
      }
    }
    for (std::size_t w = 0; w < k_; ++w) {
      for (std::size_t u = 0; u < k_; ++u) {
        for (std::size_t v = 0; v < k_; ++v) {
          closure_[u * k_ + v] = std::min(closure_[u * k_ + v], closure_[u * k_ + w] + closure_[w * k_ + v]);
        }
      }
    }
    port_free_.assign(local.size(), 0.0);
    // Each member's own sending port (in the problem's direction), for the
    // bound: when it can next send.
    own_port_.assign(k_, kNoPort);
    for (std::size_t u = 0; u < k_; ++u) {
      const ProcessorIndex node = table_.member(u);
      if (!network.one_port(node)) {
        doubling_valid_ = false;  // it can send many at once
        continue;
      }
      const PortId port = task.reversed ? network.receive_port(node) : network.send_port(node);
      if (auto it = local.find(port); it != local.end()) own_port_[u] = it->second;
    }
    combine_ = task.reversed ? combine_times(network, table_) : std::vector<double>{};
    if (combine_.empty()) combine_.assign(k_, 0.0);
    informed_at_.assign(k_, kNoRoute);
    compute_free_.assign(k_, 0.0);
    for (std::size_t v = 0; v < k_; ++v) {
      if (task.must_receive[v] && v != source_) targets_ |= Mask{1} << v;
    }
  }

  // Searches below `incumbent_makespan` (a plan of that makespan is known).
  void run(double incumbent_makespan) {
    best_ = incumbent_makespan;
    informed_at_[source_] = task_.source_ready;
    informed_ = Mask{1} << source_;
    last_start_ = task_.source_ready;
    current_end_ = task_.source_ready;
    descend();
  }

  bool finished() const { return !budget_.stopped(); }
  SearchStatus status() const { return budget_.status(); }
  bool improved() const { return !best_sequence_.empty() || (targets_ == 0); }
  const std::vector<std::pair<std::size_t, std::size_t>>& best_sequence() const { return best_sequence_; }
  std::uint64_t nodes() const { return budget_.nodes(); }
  const RouteMatrix& table() const { return table_; }

 private:
  double ready_to_send(std::size_t u) const {
    double ready = combine_[u] > 0 ? std::max(compute_free_[u], informed_at_[u]) + combine_[u] : informed_at_[u];
    if (own_port_[u] != kNoPort) ready = std::max(ready, port_free_[own_port_[u]]);
    return std::max(ready, last_start_);
  }

  double start_of(std::size_t u, std::size_t v) const {
    double start = ready_to_send(u);
    for (auto port : route_ports_[u * k_ + v]) start = std::max(start, port_free_[port]);
    return start;
  }

  double lower_bound() const {
    double bound = current_end_;
    const Mask waiting = targets_ & ~informed_;
    if (waiting == 0) return bound;
    for (std::size_t v = 0; v < k_; ++v) {
      if (!(waiting >> v & 1)) continue;
      double earliest = kNoRoute;
      for (std::size_t u = 0; u < k_; ++u) {
        if (informed_ >> u & 1) earliest = std::min(earliest, ready_to_send(u) + closure_[u * k_ + v]);
      }
      bound = std::max(bound, earliest);
    }
    const auto informed = static_cast<std::size_t>(std::popcount(informed_));
    const auto needed = informed + static_cast<std::size_t>(std::popcount(waiting));
    if (!doubling_valid_ || !(delta_ > 0) || !(delta_ < kNoRoute)) return bound;
    int rounds = 0;
    for (std::size_t reach = informed; reach < needed; reach *= 2) ++rounds;
    return std::max(bound, last_start_ + rounds * delta_);
  }

  struct Child {
    double end, start;
    std::size_t from, to;
  };

  void descend() {
    // Every node counts against the node limit, a complete schedule too: a
    // search stopped at N nodes has examined exactly N.
    if (!budget_.admit(best_)) return;
    if ((targets_ & ~informed_) == 0) {
      if (current_end_ < best_) {
        best_ = current_end_;
        best_sequence_ = sequence_;
      }
      return;
    }
    std::vector<Child> children;
    for (std::size_t u = 0; u < k_; ++u) {
      if (!(informed_ >> u & 1)) continue;
      for (std::size_t v = 0; v < k_; ++v) {
        if ((informed_ >> v & 1) || cost_[u * k_ + v] == kNoRoute) continue;
        const double start = start_of(u, v);
        const double end = start + cost_[u * k_ + v];
        if (end >= best_) continue;
        // Same start as the previous transfer, which lasts a while: the two
        // are independent, explore one order only.
        if (start == last_start_ && last_duration_ > 0 && !sequence_.empty() && std::pair(u, v) <= sequence_.back()) {
          continue;
        }
        children.push_back({end, start, u, v});
      }
    }
    std::sort(children.begin(), children.end(), [](const Child& a, const Child& b) {
      return a.end != b.end ? a.end < b.end : (a.from != b.from ? a.from < b.from : a.to < b.to);
    });
    for (const auto& child : children) {
      if (child.end >= best_) break;
      apply_and_descend(child);
      if (budget_.stopped()) return;
    }
  }

  void apply_and_descend(const Child& child) {
    const std::size_t u = child.from, v = child.to;
    // Save what the child changes.
    const double saved_compute = compute_free_[u], saved_informed = informed_at_[v];
    const double saved_last = last_start_, saved_end = current_end_, saved_duration = last_duration_;
    const Mask saved_mask = informed_;
    const auto& ports = route_ports_[u * k_ + v];
    const std::size_t saved_at = saved_ports_.size();
    for (auto port : ports) saved_ports_.push_back(port_free_[port]);

    if (combine_[u] > 0) compute_free_[u] = std::max(compute_free_[u], informed_at_[u]) + combine_[u];
    for (auto port : ports) port_free_[port] = child.end;
    informed_at_[v] = child.end;
    informed_ |= Mask{1} << v;
    last_start_ = child.start;
    last_duration_ = child.end - child.start;
    current_end_ = std::max(current_end_, child.end);
    sequence_.emplace_back(u, v);

    if (lower_bound() < best_) descend();

    sequence_.pop_back();
    compute_free_[u] = saved_compute;
    informed_at_[v] = saved_informed;
    for (std::size_t i = 0; i < ports.size(); ++i) port_free_[ports[i]] = saved_ports_[saved_at + i];
    saved_ports_.resize(saved_at);
    informed_ = saved_mask;
    last_start_ = saved_last;
    last_duration_ = saved_duration;
    current_end_ = saved_end;
  }

  const BroadcastTask& task_;
  RouteMatrix table_;
  std::size_t k_;
  std::size_t source_;
  SearchBudget budget_;
  std::vector<double> cost_, closure_, combine_;
  std::vector<std::vector<std::uint16_t>> route_ports_;  // per entry: the ports it holds (local ids)
  static constexpr std::uint16_t kNoPort = UINT16_MAX;
  std::vector<std::uint16_t> own_port_;
  double delta_ = kNoRoute;
  Mask targets_ = 0;
  // State of the partial schedule.
  Mask informed_ = 0;
  std::vector<double> informed_at_, compute_free_, port_free_;
  std::vector<double> saved_ports_;  // a stack of port times to restore
  double last_start_ = 0, last_duration_ = 0, current_end_ = 0;
  bool doubling_valid_ = true;
  std::vector<std::pair<std::size_t, std::size_t>> sequence_, best_sequence_;
  double best_ = kNoRoute;
};

double makespan_of(const EngineResult& result, double source_ready) {
  double end = source_ready;
  for (const auto& t : result.transfers) end = std::max(end, t.end);
  return end;
}

}  // namespace

namespace {
void check_size(const BroadcastTask& task) {
  if (task.members.size() > kMaxExactMembers) {
    throw InputError(fmt::format("exact search: {} participants exceed its limit of {}", task.members.size(),
                                 kMaxExactMembers));
  }
}
}  // namespace

EngineResult broadcast_exact(const GraphNetwork& network, const BroadcastTask& task, const SearchLimits& limits) {
  check_size(task);
  // Incumbent: the better greedy plan.
  EngineResult incumbent = broadcast_ecef(network, task);
  EngineResult other = broadcast_lookahead(network, task);
  if (makespan_of(other, task.source_ready) < makespan_of(incumbent, task.source_ready)) incumbent = std::move(other);
  return broadcast_exact(network, task, limits, std::move(incumbent));
}

EngineResult broadcast_exact(const GraphNetwork& network, const BroadcastTask& task, const SearchLimits& limits,
                             EngineResult incumbent) {
  check_size(task);
  const double incumbent_makespan = makespan_of(incumbent, task.source_ready);

  ExactBroadcastSearch search(network, task, limits);
  search.run(incumbent_makespan);
  EngineResult result;
  if (!search.best_sequence().empty()) {
    // Replay the best sequence as early as possible: never later than searched.
    PortTimeline timeline(network);
    const RouteMatrix& table = search.table();
    BroadcastBuilder builder(network, table, table.index_of(task.source), timeline, task.source_ready,
                             task.reversed ? combine_times(network, table) : std::vector<double>{});
    for (auto [from, to] : search.best_sequence()) builder.send(from, to);
    result.transfers = builder.transfers();
  } else {
    result.transfers = std::move(incumbent.transfers);
    for (auto& note : incumbent.notes) result.notes.push_back(std::move(note));
  }
  result.stats.nodes = search.nodes();
  if (search.finished()) {
    result.proven_optimal = true;
    result.proof = fmt::format("exact search over transfer orders finished ({} node{})", search.nodes(),
                               search.nodes() == 1 ? "" : "s");
  } else {
    result.status = search.status();
    result.notes.push_back(fmt::format("the exact search stopped at a limit after {} nodes; best plan found so far",
                                       search.nodes()));
  }
  return result;
}

}  // namespace hetcoll
