#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "hetcoll/verify/verify.h"

namespace hetcoll {

namespace {


class Checker {
 public:
  Checker(const Cluster& cluster, const MakespanPlan& plan) : cluster_(cluster), plan_(plan) {
    double scale = cluster.fastest_time();
    for (const auto& transfer : plan.transfers) scale = std::max(scale, std::fabs(transfer.end));
    tolerance_ = kRelativeTimeTolerance * scale;
  }

  VerifyReport run() {
    report_.measured_makespan = last_completion(plan_.transfers);
    if (!check_well_formed()) return finish();
    check_one_port();
    switch (plan_.operation) {
      case Operation::broadcast:
      case Operation::multicast:
        check_broadcast(all_transfers(), /*value_available_at=*/0.0);
        break;
      case Operation::reduce:
        check_reduce(all_transfers());
        break;
      case Operation::allreduce:
        check_allreduce();
        break;
    }
    check_claims();
    return finish();
  }

 private:
  template <typename... Args>
  void violation(fmt::format_string<Args...> format, Args&&... args) {
    report_.add_violation(fmt::format(format, std::forward<Args>(args)...));
  }

  const std::string& name(ProcessorIndex p) const { return cluster_.id(p); }
  std::string describe(std::size_t i) const {
    const auto& t = plan_.transfers[i];
    return fmt::format("transfers[{}] ({} -> {}, {}..{})", i, name(t.from), name(t.to), t.start, t.end);
  }

  VerifyReport finish() { return std::move(report_); }

  std::vector<std::size_t> all_transfers() const {
    std::vector<std::size_t> indices(plan_.transfers.size());
    std::iota(indices.begin(), indices.end(), 0);
    return indices;
  }

  bool check_well_formed() {
    const ProcessorIndex n = cluster_.size();
    if (plan_.root < 0 || plan_.root >= n) {
      violation("the plan's root/source is not a processor of the cluster");
      return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < plan_.transfers.size(); ++i) {
      const auto& t = plan_.transfers[i];
      if (t.from < 0 || t.from >= n || t.to < 0 || t.to >= n) {
        violation("transfers[{}]: names a processor outside the cluster", i);
        ok = false;
        continue;
      }
      if (t.from == t.to) violation("{}: a processor sends to itself", describe(i));
      if (!(t.start >= -tolerance_)) violation("{}: starts before time 0", describe(i));
      double expected = cluster_.transmission_time(t.from);
      if (!(std::fabs((t.end - t.start) - expected) <= tolerance_ + kRelativeTimeTolerance * expected)) {
        violation("{}: lasts {} but {} takes {} to send a message", describe(i), t.end - t.start, name(t.from),
                  expected);
      }
    }
    for (auto target : plan_.targets) {
      if (target < 0 || target >= n) {
        violation("targets: names a processor outside the cluster");
        ok = false;
      }
    }
    return ok;
  }

  // One-port: per processor, the intervals in which it sends or receives
  // must not overlap.
  void check_one_port() {
    // Every transfer occupies its sender and its receiver. Bucket the
    // (processor, interval) pairs by processor (counting sort, one flat
    // array), then sort each processor's intervals by start time.
    struct Busy {
      double start, end;
      std::size_t transfer;
    };
    const auto n = static_cast<std::size_t>(cluster_.size());
    std::vector<std::size_t> first(n + 1, 0);
    for (const auto& t : plan_.transfers) {
      ++first[static_cast<std::size_t>(t.from) + 1];
      ++first[static_cast<std::size_t>(t.to) + 1];
    }
    for (std::size_t p = 0; p < n; ++p) first[p + 1] += first[p];
    std::vector<Busy> busy(first[n]);
    std::vector<std::size_t> fill(first.begin(), first.end() - 1);
    for (std::size_t i = 0; i < plan_.transfers.size(); ++i) {
      const auto& t = plan_.transfers[i];
      busy[fill[static_cast<std::size_t>(t.from)]++] = {t.start, t.end, i};
      busy[fill[static_cast<std::size_t>(t.to)]++] = {t.start, t.end, i};
    }
    for (std::size_t p = 0; p < n; ++p) {
      auto begin = busy.begin() + static_cast<std::ptrdiff_t>(first[p]);
      auto end = busy.begin() + static_cast<std::ptrdiff_t>(first[p + 1]);
      std::sort(begin, end, [](const Busy& a, const Busy& b) {
        return a.start != b.start ? a.start < b.start : a.transfer < b.transfer;
      });
      for (auto it = begin; it != end && it + 1 != end; ++it) {
        if ((it + 1)->start < it->end - tolerance_) {
          violation("one-port: {} takes part in {} and {} at once", name(static_cast<ProcessorIndex>(p)),
                    describe(it->transfer), describe((it + 1)->transfer));
        }
      }
    }
  }

  // The transfers `indices` carry a value from plan_.root, which holds it from
  // `value_available_at`. Every processor must receive it exactly once (or,
  // for a multicast, every target at least once) and forward it only after.
  void check_broadcast(const std::vector<std::size_t>& indices, double value_available_at) {
    const auto n = static_cast<std::size_t>(cluster_.size());
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
        if (static_cast<ProcessorIndex>(p) != plan_.root && receive_count[p] == 0) {
          violation("completeness: {} never receives the message", name(static_cast<ProcessorIndex>(p)));
        }
      }
    }
  }

  // Returns the time at which the root holds every contribution.
  double check_reduce(const std::vector<std::size_t>& indices) {
    const auto n = static_cast<std::size_t>(cluster_.size());
    std::vector<std::size_t> send_of(n, SIZE_MAX);
    std::vector<double> last_receive(n, 0.0);
    for (auto i : indices) {
      const auto& t = plan_.transfers[i];
      auto from = static_cast<std::size_t>(t.from);
      if (t.from == plan_.root) {
        violation("{}: the root {} sends; it must only receive", describe(i), name(t.from));
        continue;
      }
      if (send_of[from] != SIZE_MAX) {
        violation("{}: {} sends a second time (it already sent in transfers[{}])", describe(i), name(t.from),
                  send_of[from]);
        continue;
      }
      send_of[from] = i;
    }
    for (auto i : indices) {
      const auto& t = plan_.transfers[i];
      auto to = static_cast<std::size_t>(t.to);
      last_receive[to] = std::max(last_receive[to], t.end);
    }
    for (std::size_t p = 0; p < n; ++p) {
      if (static_cast<ProcessorIndex>(p) == plan_.root) continue;
      if (send_of[p] == SIZE_MAX) {
        violation("completeness: {} never sends its contribution", name(static_cast<ProcessorIndex>(p)));
        continue;
      }
      const auto& send = plan_.transfers[send_of[p]];
      if (!(send.start >= last_receive[p] - tolerance_)) {
        violation("{}: causality: {} sends its combined value at {} before its last incoming message arrives at {}",
                  describe(send_of[p]), name(static_cast<ProcessorIndex>(p)), send.start, last_receive[p]);
      }
    }
    // Each contribution follows the unique chain of sends; it must end at the
    // root without a cycle. state: 0 unknown, 1 on the current path, 2 reaches root.
    std::vector<std::uint8_t> state(n, 0);
    state[static_cast<std::size_t>(plan_.root)] = 2;
    std::vector<std::size_t> path;
    for (std::size_t start = 0; start < n; ++start) {
      std::size_t p = start;
      path.clear();
      while (state[p] == 0 && send_of[p] != SIZE_MAX) {
        state[p] = 1;
        path.push_back(p);
        p = static_cast<std::size_t>(plan_.transfers[send_of[p]].to);
      }
      bool reaches_root = state[p] == 2;
      if (!reaches_root && state[p] == 1) {
        violation("completeness: the contribution of {} travels in a cycle and never reaches the root",
                  name(static_cast<ProcessorIndex>(start)));
      }
      for (auto q : path) state[q] = reaches_root ? 2 : 3;
    }
    return last_receive[static_cast<std::size_t>(plan_.root)];
  }

  void check_allreduce() {
    std::vector<std::size_t> reduce_phase, broadcast_phase;
    for (std::size_t i = 0; i < plan_.transfers.size(); ++i) {
      (plan_.transfers[i].payload == Payload::partial_reduction ? reduce_phase : broadcast_phase).push_back(i);
    }
    double result_ready = check_reduce(reduce_phase);
    check_broadcast(broadcast_phase, result_ready);
  }

  void check_claims() {
    if (!std::isnan(plan_.makespan) &&
        !(std::fabs(plan_.makespan - report_.measured_makespan) <= tolerance_)) {
      violation("claims: the plan claims makespan {} but its last message ends at {}", plan_.makespan,
                report_.measured_makespan);
    }
    if (plan_.lower_bound > report_.measured_makespan + tolerance_) {
      violation("claims: the claimed lower bound {} exceeds the makespan {}", plan_.lower_bound,
                report_.measured_makespan);
    }
  }

  const Cluster& cluster_;
  const MakespanPlan& plan_;
  double tolerance_ = 0;
  VerifyReport report_;
};

}  // namespace

void VerifyReport::add_violation(std::string message) {
  valid = false;
  ++violation_count;
  if (violations.size() < kMaxListedViolations) violations.push_back(std::move(message));
}

std::string VerifyReport::summary() const {
  if (valid) return "valid";
  std::string text;
  for (const auto& line : violations) text += line + "\n";
  if (violation_count > violations.size()) {
    text += fmt::format("... and {} more violations\n", violation_count - violations.size());
  }
  return text;
}

VerifyReport verify(const Cluster& cluster, const MakespanPlan& plan) { return Checker(cluster, plan).run(); }

}  // namespace hetcoll
