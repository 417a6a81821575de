#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "hetcoll/verify/plan_checks_internal.h"
#include "hetcoll/verify/sender_speed_bounds_internal.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {

namespace {


class Checker {
 public:
  Checker(const Cluster& cluster, const MakespanPlan& plan) : cluster_(cluster), plan_(plan) {
    // Rounding of sums of up to m times (a processor's k-th send is its
    // ready time plus k transmission times), with room to spare.
    noise_ = (static_cast<double>(plan.transfers.size()) + 16) * DBL_EPSILON;
  }

  VerifyReport run() {
    if (!check_well_formed()) return finish();
    check_one_port();
    switch (plan_.operation) {
      case Operation::broadcast:
      case Operation::multicast:
        report_.measured_makespan = check_broadcast(all_transfers(), /*value_available_at=*/0.0);
        break;
      case Operation::reduce:
        report_.measured_makespan = check_reduce(all_transfers());
        break;
      case Operation::allreduce:
        report_.measured_makespan = check_allreduce();
        break;
      case Operation::scatter:
      case Operation::gossip:
      case Operation::allgather:
        break;  // steady-state operations: never a makespan plan's (the readers refuse them)
    }
    check_claims();
    if (plan_.model != PlanModel::sender_speed) {
      violation("model: the plan says \"{}\", but it is checked on a cluster, in the sender-speed model",
                to_string(plan_.model));
    }
    verify_detail::check_stated_facts(
        plan_, static_cast<std::int64_t>(cluster_.size()), cluster_.time_unit(),
        static_cast<std::size_t>(cluster_.size()), [this](ProcessorIndex p) -> std::string_view { return name(p); },
        report_);
    return finish();
  }

 private:
  template <typename... Args>
  void violation(fmt::format_string<Args...> format, Args&&... args) {
    report_.add_violation(fmt::format(format, std::forward<Args>(args)...));
  }

  // The local tolerance of comparing x with y when messages of transmission
  // time `duration` are involved: 1e-9 of that time (the tolerance rule of
  // core/ids.h, at the scale of the messages at hand) plus the rounding
  // noise of the magnitudes compared. Never the schedule's global scale,
  // so a late transfer does not blind the checks of early ones.
  double tolerance(double x, double y, double duration) const {
    return kRelativeTimeTolerance * duration + noise_ * std::max(std::fabs(x), std::fabs(y));
  }
  bool at_least(double x, double y, double duration) const { return x >= y - tolerance(x, y, duration); }

  std::string_view name(ProcessorIndex p) const { return cluster_.id(p); }
  double time_of(ProcessorIndex p) const { return cluster_.transmission_time(p); }
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
      if (!std::isfinite(t.start) || !std::isfinite(t.end)) {
        violation("transfers[{}]: start and end must be finite numbers, got {} and {}", i, t.start, t.end);
        ok = false;
        continue;
      }
      if (t.from == t.to) violation("{}: a processor sends to itself", describe(i));
      const double expected = time_of(t.from);
      if (!at_least(t.start, 0.0, expected)) violation("{}: starts before time 0", describe(i));
      if (!(std::fabs((t.end - t.start) - expected) <= tolerance(t.start, t.end, expected))) {
        violation("{}: lasts {} but {} takes {} to send a message", describe(i), t.end - t.start, name(t.from),
                  expected);
      }
    }
    if (plan_.operation == Operation::multicast && plan_.targets.empty()) {
      violation("multicast: the plan lists no targets, so its completeness cannot be checked");
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
    if (plan_.transfers.size() < std::numeric_limits<std::uint32_t>::max() / 2) {
      check_one_port_with<std::uint32_t>();  // 8 bytes per transfer (a million: 8 MB)
    } else {
      check_one_port_with<std::size_t>();
    }
  }

  // Every transfer occupies its sender and its receiver. Bucket the
  // transfer indices by processor (counting sort, one flat array, in index
  // order), then put each processor's in order of start time (planners
  // mostly emit them in that order already).
  template <typename Index>
  void check_one_port_with() {
    const auto& transfers = plan_.transfers;
    const auto n = static_cast<std::size_t>(cluster_.size());
    // first[p]: where p's transfers begin in `busy`; filled by advancing
    // first[p + 1] (then first[p + 1] is where p's end).
    std::vector<Index> first(n + 2, 0);
    for (const auto& t : transfers) {
      ++first[static_cast<std::size_t>(t.from) + 2];
      ++first[static_cast<std::size_t>(t.to) + 2];
    }
    for (std::size_t p = 2; p < n + 2; ++p) first[p] += first[p - 1];
    std::vector<Index> busy(2 * transfers.size());
    for (std::size_t i = 0; i < transfers.size(); ++i) {
      const auto& t = transfers[i];
      busy[first[static_cast<std::size_t>(t.from) + 1]++] = static_cast<Index>(i);
      busy[first[static_cast<std::size_t>(t.to) + 1]++] = static_cast<Index>(i);
    }
    auto earlier = [&](Index a, Index b) {
      // Equal starts: the shorter first, so that a transfer too short to
      // move a large time (1e-13 after 3e12 rounds to 3e12) does not look
      // like it overlaps the send it enables.
      if (transfers[a].start != transfers[b].start) return transfers[a].start < transfers[b].start;
      return transfers[a].end != transfers[b].end ? transfers[a].end < transfers[b].end : a < b;
    };
    for (std::size_t p = 0; p < n; ++p) {
      auto begin = busy.begin() + static_cast<std::ptrdiff_t>(first[p]);
      auto end = busy.begin() + static_cast<std::ptrdiff_t>(first[p + 1]);
      if (end - begin < 2) continue;
      if (!std::is_sorted(begin, end, earlier)) std::sort(begin, end, earlier);
      // Each interval against the latest end so far (an interval can
      // overlap one that is not its immediate predecessor).
      Index latest = *begin;
      for (auto it = begin + 1; it != end; ++it) {
        const auto& current = transfers[*it];
        const auto& previous = transfers[latest];
        const double duration = std::max(time_of(previous.from), time_of(current.from));
        if (!at_least(current.start, previous.end, duration)) {
          violation("one-port: {} takes part in {} and {} at once", name(static_cast<ProcessorIndex>(p)),
                    describe(latest), describe(*it));
        }
        if (current.end > previous.end) latest = *it;
      }
    }
  }

  // The transfers `indices` carry a value from plan_.root, which holds it from
  // `value_available_at`. Every processor must receive it exactly once (or,
  // for a multicast, every target at least once) and forward it only after.
  // Returns when the operation completes: the last first-receive of a
  // processor that must receive (helpers' receives do not count).
  double check_broadcast(const std::vector<std::size_t>& indices, double value_available_at) {
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
      if (++receive_count[to] > 1) {
        violation("{}: {} receives the message a second time", describe(i), name(t.to));
      }
      received_at[to] = std::min(received_at[to], t.end);
    }
    for (auto i : indices) {
      const auto& t = plan_.transfers[i];
      double holds_from = received_at[static_cast<std::size_t>(t.from)];
      if (std::isinf(holds_from)) {
        violation("{}: causality: {} never receives the message it sends", describe(i), name(t.from));
      } else if (!at_least(t.start, holds_from, time_of(t.from))) {
        violation("{}: causality: {} sends at {} but holds the message only from {}", describe(i), name(t.from),
                  t.start, holds_from);
      }
    }
    double completed = value_available_at;
    auto must_receive = [&](std::size_t p) {
      if (static_cast<ProcessorIndex>(p) == plan_.root) return;
      if (receive_count[p] == 0) {
        violation("completeness: {}{} never receives the message",
                  plan_.operation == Operation::multicast ? "target " : "", name(static_cast<ProcessorIndex>(p)));
      } else {
        completed = std::max(completed, received_at[p]);
      }
    };
    if (plan_.operation == Operation::multicast) {
      for (auto target : plan_.targets) must_receive(static_cast<std::size_t>(target));
    } else {
      for (std::size_t p = 0; p < n; ++p) must_receive(p);
    }
    return completed;
  }

  // Returns the time at which the root holds every contribution.
  double check_reduce(const std::vector<std::size_t>& indices) {
    const auto n = static_cast<std::size_t>(cluster_.size());
    const std::vector<std::size_t> send_of = verify_detail::reduce_send_of(
        plan_, indices, n, [this](std::size_t i) { return describe(i); },
        [this](ProcessorIndex p) -> std::string_view { return name(p); }, report_);
    std::vector<double> last_receive(n, 0.0);
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
      if (!at_least(send.start, last_receive[p], time_of(send.from))) {
        violation("{}: causality: {} sends its combined value at {} before its last incoming message arrives at {}",
                  describe(send_of[p]), name(static_cast<ProcessorIndex>(p)), send.start, last_receive[p]);
      }
    }
    // Each contribution follows the unique chain of sends; it must end at the root.
    for (ProcessorIndex p : verify_detail::contributions_in_cycles(plan_, send_of)) {
      violation("completeness: the contribution of {} travels in a cycle and never reaches the root", name(p));
    }
    return last_receive[static_cast<std::size_t>(plan_.root)];
  }

  double check_allreduce() {
    if (is_exchange_allreduce(plan_)) return check_exchange_allreduce();
    std::vector<std::size_t> reduce_phase, broadcast_phase;
    for (std::size_t i = 0; i < plan_.transfers.size(); ++i) {
      (plan_.transfers[i].payload == Payload::partial_reduction ? reduce_phase : broadcast_phase).push_back(i);
    }
    double result_ready = check_reduce(reduce_phase);
    return check_broadcast(broadcast_phase, result_ready);
  }

  // The contribution sets of verify.h, swept in time order: a message's set
  // is its sender's at its start (every receive ending by then applied), and
  // is applied to its receiver at its end. Sets are bit rows of n bits; only
  // the messages in flight keep a copy. Returns when the last processor
  // holds all n contributions.
  double check_exchange_allreduce() {
    const auto n = static_cast<std::size_t>(cluster_.size());
    if (n > kMaxExchangeAllreduceProcessors) {
      violation("all-reduce: exchange plans (recursive doubling) are checked up to {} "
                "processors, this cluster has {}",
                kMaxExchangeAllreduceProcessors, n);
      return plan_.makespan;
    }
    const std::size_t words = (n + 63) / 64;
    using Row = std::vector<std::uint64_t>;
    std::vector<Row> holds(n, Row(words, 0));
    std::vector<std::size_t> held_count(n, 1);
    for (std::size_t p = 0; p < n; ++p) holds[p][p / 64] |= std::uint64_t{1} << (p % 64);
    std::vector<double> complete_at(n, n == 1 ? 0.0 : std::numeric_limits<double>::infinity());

    const std::size_t m = plan_.transfers.size();
    std::vector<std::size_t> by_start(m), by_end(m);
    std::iota(by_start.begin(), by_start.end(), 0);
    std::iota(by_end.begin(), by_end.end(), 0);
    auto order_by = [&](std::vector<std::size_t>& order, auto key) {
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    };
    order_by(by_start, [&](std::size_t i) { return plan_.transfers[i].start; });
    order_by(by_end, [&](std::size_t i) { return plan_.transfers[i].end; });

    std::vector<Row> in_flight(m);  // the carried set, from the send until the receive
    auto count_of = [](const Row& row) {
      std::size_t count = 0;
      for (auto word : row) count += static_cast<std::size_t>(std::popcount(word));
      return count;
    };
    auto first_common = [&](const Row& a, const Row& b) {
      for (std::size_t w = 0; w < words; ++w) {
        if (auto both = a[w] & b[w]) return static_cast<ProcessorIndex>(w * 64 + std::countr_zero(both));
      }
      return kNoProcessor;
    };
    auto first_missing = [&](const Row& from, const Row& in) {  // in `in`, not in `from`
      for (std::size_t w = 0; w < words; ++w) {
        if (auto lost = in[w] & ~from[w]) return static_cast<ProcessorIndex>(w * 64 + std::countr_zero(lost));
      }
      return kNoProcessor;
    };
    auto send = [&](std::size_t i) {
      if (in_flight[i].empty()) in_flight[i] = holds[static_cast<std::size_t>(plan_.transfers[i].from)];
    };
    auto receive = [&](std::size_t i) {
      send(i);  // a message that ends before it starts: already reported, take the sender's set now
      const auto& t = plan_.transfers[i];
      const auto to = static_cast<std::size_t>(t.to);
      Row carried = std::move(in_flight[i]);
      in_flight[i] = Row();
      Row& own = holds[to];
      if (t.payload == Payload::partial_reduction) {
        if (ProcessorIndex twice = first_common(carried, own); twice != kNoProcessor) {
          violation("{}: {} combines a partial result that shares contributions with its own (that of {} would "
                    "count twice)",
                    describe(i), name(t.to), name(twice));
          return;
        }
        for (std::size_t w = 0; w < words; ++w) own[w] |= carried[w];
      } else {
        if (ProcessorIndex lost = first_missing(carried, own); lost != kNoProcessor) {
          violation("{}: {} takes a value that lacks contributions it holds (that of {} would be lost)", describe(i),
                    name(t.to), name(lost));
          return;
        }
        own = std::move(carried);
      }
      held_count[to] = count_of(own);
      if (held_count[to] == n && std::isinf(complete_at[to])) complete_at[to] = t.end;
    };
    std::size_t next_end = 0;
    for (auto i : by_start) {
      const auto& t = plan_.transfers[i];
      while (next_end < m) {
        const auto& r = plan_.transfers[by_end[next_end]];
        if (!(r.end <= t.start + tolerance(t.start, r.end, time_of(r.from)))) break;
        receive(by_end[next_end++]);
      }
      send(i);
    }
    while (next_end < m) receive(by_end[next_end++]);

    double completed = 0;
    for (std::size_t p = 0; p < n; ++p) {
      if (std::isinf(complete_at[p])) {
        violation("completeness: {} ends holding {} of the {} contributions", name(static_cast<ProcessorIndex>(p)),
                  held_count[p], n);
      } else {
        completed = std::max(completed, complete_at[p]);
      }
    }
    return completed;
  }

  // The claims, with the instance's tolerance (core/ids.h: the rule the
  // planners apply, makespan/claims.h) plus rounding noise.
  void check_claims() {
    const double measured = report_.measured_makespan;
    auto claim_tolerance = [&](double x, double y) {
      return cluster_.tolerance() + noise_ * std::max(std::fabs(x), std::fabs(y));
    };
    const bool makespan_finite = std::isfinite(plan_.makespan);
    if (!makespan_finite) {
      violation("claims: the makespan must be a finite number, got {}", plan_.makespan);
    } else if (!(std::fabs(plan_.makespan - measured) <= claim_tolerance(plan_.makespan, measured))) {
      violation("claims: the plan claims makespan {} but the operation completes at {}", plan_.makespan, measured);
    }
    if (!std::isfinite(plan_.lower_bound)) {
      violation("claims: the lower bound must be a finite number, got {}", plan_.lower_bound);
      return;
    }
    if (plan_.lower_bound > measured + claim_tolerance(plan_.lower_bound, measured)) {
      violation("claims: the claimed lower bound {} exceeds the makespan {}", plan_.lower_bound, measured);
    }
    if (plan_.optimal && makespan_finite &&
        !(std::fabs(plan_.makespan - plan_.lower_bound) <= claim_tolerance(plan_.makespan, plan_.lower_bound))) {
      violation("claims: the plan claims to be optimal, but its lower bound {} does not meet its makespan {} "
                "(optimal means lower_bound == makespan)",
                plan_.lower_bound, plan_.makespan);
    }
    if (plan_.guarantee.kind == Guarantee::Kind::exact && !plan_.optimal) {
      violation("claims: the guarantee is exact but the plan does not claim to be optimal");
    }
    if (plan_.guarantee.kind == Guarantee::Kind::ratio &&
        !(std::isfinite(plan_.guarantee.ratio) && plan_.guarantee.ratio >= 1)) {
      violation("claims: a ratio guarantee must be a finite number >= 1, got {}", plan_.guarantee.ratio);
    }
    if (report_.valid) check_claims_are_proven();
  }

  // The bound, `optimal` and the ratio proven from the times alone
  // (sender_speed_bounds_internal.h): a claimed lower bound above the closed
  // form must be re-derived by the exact re-search, or it is refused.
  void check_claims_are_proven() {
    const auto n = static_cast<std::size_t>(cluster_.size());
    if (n < 2 || plan_.transfers.empty()) return;
    auto claim_tolerance = [&](double x, double y) {
      return tie_tolerance(x, y, cluster_.tolerance()) + noise_ * std::max(std::fabs(x), std::fabs(y));
    };
    std::vector<double> times(n);
    for (std::size_t p = 0; p < n; ++p) times[p] = time_of(static_cast<ProcessorIndex>(p));
    std::vector<char> is_target;
    std::size_t target_count = n - 1;
    if (plan_.operation == Operation::multicast) {
      is_target.assign(n, 0);
      for (auto t : plan_.targets) is_target[static_cast<std::size_t>(t)] = 1;
      is_target[static_cast<std::size_t>(plan_.root)] = 0;
      target_count = static_cast<std::size_t>(std::count(is_target.begin(), is_target.end(), 1));
    }
    const bool exchange = is_exchange_allreduce(plan_);
    double closed = 0;
    switch (plan_.operation) {
      case Operation::broadcast:
        closed = verify_detail::broadcast_closed_bound(times, plan_.root);
        break;
      case Operation::multicast:
        closed = verify_detail::multicast_closed_bound(times, plan_.root, target_count);
        break;
      case Operation::reduce:
        closed = verify_detail::reduce_closed_bound(times, plan_.root);
        break;
      case Operation::allreduce:
        closed = verify_detail::allreduce_any_schedule_closed_bound(times);
        if (!exchange) {
          closed = std::max(closed, verify_detail::allreduce_composition_closed_bound(times));
        }
        break;
      case Operation::scatter:
      case Operation::gossip:
        return;
    }
    const bool searchable = n <= kExactMaxProcessors && !exchange;
    std::uint64_t budget = kExactNodeBudget;
    // The least makespan below `cap` (or the cap), and whether that is proven.
    auto optimum_below = [&](double cap) -> verify_detail::ExactSearch {
      const double tolerance = claim_tolerance(cap, cap);
      switch (plan_.operation) {
        case Operation::broadcast:
        case Operation::multicast:
          return verify_detail::exact_broadcast(times, plan_.root, is_target, cap, tolerance, budget);
        case Operation::reduce:
          return verify_detail::exact_reduce(times, plan_.root, cap, tolerance, budget);
        default: {
          verify_detail::ExactSearch best{true, cap};
          for (std::size_t r = 0; r < n && best.finished; ++r) {
            const auto root = static_cast<ProcessorIndex>(r);
            const auto reduce = verify_detail::exact_reduce(times, root, best.best, tolerance, budget);
            if (!reduce.finished) return {false, cap};
            if (reduce.best >= best.best - tolerance) continue;
            const auto broadcast =
                verify_detail::exact_broadcast(times, root, {}, best.best - reduce.best, tolerance, budget);
            if (!broadcast.finished) return {false, cap};
            best.best = std::min(best.best, reduce.best + broadcast.best);
          }
          return best;
        }
      }
    };
    const double claimed = plan_.lower_bound;
    if (claimed > closed + claim_tolerance(claimed, closed)) {
      report_.proven_lower_bound = closed;
      if (!searchable) {
        report_.lower_bound_unproven = true;
        return;
      }
      const auto exact = optimum_below(claimed);
      if (!exact.finished) {
        report_.lower_bound_unproven = true;
        return;
      }
      if (exact.best < claimed - claim_tolerance(claimed, exact.best)) {
        violation("claims: the lower bound {} is false: a {} finishing at {} exists (validate's exact re-search{})",
                  claimed, to_string(plan_.operation), exact.best,
                  plan_.operation == Operation::allreduce ? " over reduce-then-broadcast plans" : "");
        return;
      }
    }
    // A ratio guarantee is a theorem about the optimum: checked against the
    // exact optimum where the re-search can settle it.
    if (plan_.guarantee.kind == Guarantee::Kind::ratio && searchable && n <= kRatioCheckMaxProcessors &&
        plan_.guarantee.ratio >= 1 && std::isfinite(plan_.makespan)) {
      const double needed = plan_.makespan / plan_.guarantee.ratio;
      if (needed > closed + claim_tolerance(needed, closed)) {
        const auto exact = optimum_below(needed);
        if (exact.finished && exact.best < needed - claim_tolerance(needed, exact.best)) {
          violation("claims: the guarantee <= {} x optimal is false: the optimum is at most {}, and the makespan {} "
                    "is {:.6g} x that",
                    plan_.guarantee.ratio, exact.best, plan_.makespan, plan_.makespan / exact.best);
        }
      }
    }
  }

  // The exact re-search: instances up to this many processors, this many
  // search nodes per plan; ratios are checked up to the smaller size.
  static constexpr std::size_t kExactMaxProcessors = 24;
  static constexpr std::size_t kRatioCheckMaxProcessors = 12;
  static constexpr std::uint64_t kExactNodeBudget = 2'000'000;

  const Cluster& cluster_;
  const MakespanPlan& plan_;
  double noise_ = 0;
  VerifyReport report_;
};

}  // namespace

VerifyReport verify(const Cluster& cluster, const MakespanPlan& plan) { return Checker(cluster, plan).run(); }

}  // namespace hetcoll
