// The proven lower bounds of the exact broadcast search (optimal_search.h).
//
// Lower bounds (all proven, each valid for every completion of a node):
//  * Relaxation: give every remaining receiver the time of the fastest
//    remaining class still allowed at its slot (classes past their
//    exchange-rule deadline excluded). Lowering transmission times never
//    delays a sequence (each ready time is an order statistic of pointwise
//    earlier slots), and with identical receivers the greedy no-delay
//    schedule is the only one, so simulating it bounds every completion.
//    A class whose remaining receivers cannot all be served before its
//    deadline, even in the relaxation, makes the node dead.
//  * Fluid bound: the informed count N(x) of any completion satisfies
//    N(x) <= S(x) + int_tau^x G(N(y)) dy (S: the holders' slots up to x;
//    G(m): the sum of the m largest rates 1/t left, concave), so N <= U,
//    the solution of the equality (exponential between events). Stronger
//    than the relaxation when the receivers left are mostly slow.
//  * Counting bound (floors, not fluid; all-distinct times are where it
//    pays). Let w_0 <= w_1 <= ... be the remaining receivers' times and, in
//    a completion, N(x) the number of them informed by x (N(y) = 0 for
//    y < tau) and H(x) the holders' slots ending in [tau, x]. Each receiver
//    informed by x takes its own slot ending by x; a receiver j informed at
//    r_j has floor((x - r_j) / t_j) slots by x, i.e. one per k >= 1 with
//    r_j <= x - k t_j. So N(x) <= H(x) + sum_{k>=1} G_k, G_k = |J_k|,
//    J_k = {j : r_j <= x - k t_j}. Sort J_k by time: its i-th fastest has
//    time u_i >= w_i, and its |J_k| - i members of time >= u_i all have
//    r_j <= x - k u_i, so they are informed by x - k w_i (N nondecreasing):
//    |J_k| - i <= N(x - k w_i) for every i < |J_k|. Hence N(x) <= N*(x) =
//    min(left, H(x) + sum_k max{m : m - i <= N*(x - k w_i) for all i < m}),
//    by induction on x (each argument is at least w_0 smaller). Every
//    completion ends after any x with N*(x) < left. Computed on a grid of
//    spacing h <= w_0 / 2 with every argument rounded up one cell (so the
//    grid values bound N* on the cell they close; proof by the same
//    induction). Unlike the fluid bound it keeps the integrality of slots;
//    unlike the relaxation it does not give everyone the fastest time.
//    Evaluated only where relaxation and fluid do not prune (grid of 512
//    cells up to just past the cutoff); all-distinct times are where it
//    pays.
//  * Partial compositions: classes of a group are decided fastest first;
//    a bound valid for every completion of a partial composition (the
//    undecided receivers of the group get the fastest undecided time; the
//    receivers left are the remaining ones minus the slowest candidates;
//    relaxation without deadlines, and the fluid bound) prunes all of them
//    at once. This removes most of the width of large slot groups.
//  * Memo: the future depends only on the remaining class counts, the
//    holders' (class, next slot - tau, multiplicity), and the ready times
//    (relative to tau) of receivers still able to trigger the exchange rule.
//    Completions are translation invariant, so a finished subtree's value
//    "every completion ends >= tau + v" prunes the same state reached at
//    any time (memo_megabytes budget, then no more insertions). The key
//    holds the holders and those ready times only: every informed receiver
//    stays a holder, so the holders' classes and multiplicities give the
//    remaining counts (with every class a singleton the counts were half
//    the key). With every class a singleton, only states whose subtree
//    took 32+ nodes are stored (hits are rare there; storing fewer entries
//    never affects exactness).
//  The Khuller–Kim fractional-blocks argument (Khuller, Kim, Woeginger 2003 Thm 1) is stated
//  for a whole FNF broadcast from a fastest source, not from an arbitrary
//  partial schedule; we do not prune with it (the fluid bound is our
//  proven stand-in).

#include "hetcoll/makespan/sender_speed/broadcast/optimal_search_internal.h"

namespace hetcoll::optimal_broadcast_internal {

double Search::relaxation_bound(const std::vector<Holders>& holders,
                                const std::vector<double>* class_deadlines) {
  const int k = problem_.classes();
  // (deadline, class) of the classes with receivers left and a finite
  // deadline, by deadline; then the fastest class without one (the
  // others without one are never reached: the simulation stops there).
  deadlines_.clear();
  int fastest_free = -1;
  for (int c = 0; c < k; ++c) {
    if (remaining_[static_cast<size_t>(c)] == 0) continue;
    const double due = class_deadlines ? (*class_deadlines)[static_cast<size_t>(c)] : kInfinity;
    if (due < kInfinity) {
      deadlines_.push_back({due, c});
    } else if (fastest_free < 0) {
      fastest_free = c;
    }
  }
  std::sort(deadlines_.begin(), deadlines_.end());
  if (fastest_free >= 0) deadlines_.push_back({kInfinity, fastest_free});
  // need_before[i]: receivers that must be served before deadlines_[i];
  // fastest_after[i]: the fastest time among deadlines_[i..].
  need_before_.assign(deadlines_.size(), 0);
  fastest_after_.assign(deadlines_.size() + 1, kInfinity);
  int need = 0;
  for (size_t i = 0; i < deadlines_.size(); ++i) {
    need += remaining_[static_cast<size_t>(deadlines_[i].second)];
    need_before_[i] = need;
  }
  for (size_t i = deadlines_.size(); i-- > 0;) {
    fastest_after_[i] = std::min(fastest_after_[i + 1], time(deadlines_[i].second));
  }
  sim_.reset(holders);
  int served = 0;
  size_t next_deadline = 0;
  while (true) {
    const double x = sim_.earliest();
    while (next_deadline < deadlines_.size() && deadlines_[next_deadline].first <= x + tie(x)) {
      if (served < need_before_[next_deadline]) return kInfinity;
      ++next_deadline;
    }
    // The fastest class with receivers left that may still be served at x.
    const double relaxed_time = fastest_after_[next_deadline];
    if (relaxed_time == kInfinity) return kInfinity;
    const int slots = sim_.take_due(x + tie(x));
    const int give = std::min(slots, total_remaining_ - served);
    served += give;
    if (served == total_remaining_) return x;
    sim_.push({x + relaxed_time, relaxed_time, give});
  }
}

double Search::fluid_bound(const std::vector<Holders>& holders, double tau) {
  const int k = problem_.classes();
  const double target = total_remaining_;
  sim_.reset(holders);
  double x = tau, u = 0;
  // The class piece u lies in: u only grows, so it only moves on.
  double below = 0, rate_below = 0;  // mass and rate of the faster classes
  int c = 0;
  while (true) {
    // Holder slots at x join at once.
    u += sim_.take_due(x + tie(x));
    const double next_event = sim_.earliest();
    if (u >= target) return x;
    // Integrate u' = G(u) from x to next_event, one class piece at a time.
    while (true) {
      for (; c < k; ++c) {
        const double n = remaining_[static_cast<size_t>(c)];
        if (u < below + n) break;
        below += n;
        rate_below += n / time(c);
      }
      if (c == k) return x;  // cannot happen: u < target
      const double t = time(c);
      const double piece_end = std::min(below + remaining_[static_cast<size_t>(c)], target);
      // w = u - below + rate_below t grows as exp((x - x0) / t).
      const double w0 = u - below + rate_below * t;
      if (w0 <= 0) {  // nobody informed yet: nothing grows before the next slot
        if (next_event == kInfinity) return kInfinity;
        x = next_event;
        break;
      }
      // log1p and expm1: with t = 2e11 and w1 / w0 = 1 + 1e-15, t log(w1 / w0)
      // would carry the log's rounding (1e-16) times t, a bound 2e-5 too high.
      const double reach = x + t * std::log1p((piece_end - u) / w0);
      if (reach <= next_event) {
        x = reach;
        u = piece_end;
        if (u >= target) return x;
        continue;
      }
      if (next_event == kInfinity) return kInfinity;
      u += w0 * std::expm1((next_event - x) / t);
      x = next_event;
      break;
    }
  }
}

double Search::node_bound(const std::vector<Holders>& holders, double tau, const std::vector<double>* class_deadlines) {
  double bound = std::max(tau, relaxation_bound(holders, class_deadlines));
  if (bound <= cutoff_) bound = std::max(bound, fluid_bound(holders, tau));
  if (options_.counting_bound && bound <= cutoff_) {
    bound = std::max(bound, counting_bound(holders, tau));
    if (bound > cutoff_) ++counting_prunes_;
  }
  return bound;
}

double Search::counting_bound(const std::vector<Holders>& holders, double tau) {
  const int m = total_remaining_;
  if (m == 0) return tau;
  weights_.clear();
  for (int c = 0; c < problem_.classes(); ++c) {
    weights_.insert(weights_.end(), static_cast<size_t>(remaining_[static_cast<size_t>(c)]), time(c));
  }
  const double w_min = weights_.front();
  const double end = cutoff_ + 0.02 * (cutoff_ - tau) + tie(cutoff_);
  if (!(end > tau) || !std::isfinite(end)) return tau;
  constexpr int kGrid = 512;
  double h = (end - tau) / kGrid;
  if (h >= 0.5 * w_min) h = 0.5 * w_min;
  // A receiver far faster than the span to the cutoff (1e-20 against 1e-3)
  // would need a grid of 1e17 cells: no bound (tau is one) rather than a
  // grid that does not fit.
  constexpr double kLargestGrid = 8 * kGrid;
  if (!((end - tau) / h <= kLargestGrid)) return tau;
  const int grid = static_cast<int>(std::ceil((end - tau) / h));
  slots_by_grid_.assign(static_cast<size_t>(grid) + 1, 0);
  const double slack = tie(end);  // a slot within a tie of a cell's end counts in it
  for (const auto& holder : holders) {
    if (!(holder.next <= end + slack)) continue;
    if ((end + slack - holder.next) / holder.period <= grid) {
      for (int j = 0;; ++j) {  // at most grid + 1 slots (a period of at least h)
        const double slot = holder.next + j * holder.period;
        if (!(slot <= end + slack)) break;
        const double index = std::ceil((slot - slack - tau) / h);
        const int g = index <= 0 ? 0 : static_cast<int>(index);
        if (g <= grid) slots_by_grid_[static_cast<size_t>(g)] += holder.count;
      }
      continue;
    }
    // More slots than cells (a period far below the span; stepping by it
    // might not even move a large time): the slots up to each cell's end,
    // counted generously (more slots only weaken the bound), at most m.
    long before = 0;
    for (int g = 0; g <= grid; ++g) {
      const double reach = tau + g * h + slack - holder.next;
      const double upto = reach < 0 ? 0 : std::floor(reach / holder.period * (1 + 1e-12)) + 1;
      const long slots = static_cast<long>(std::min<double>(upto * holder.count, m));
      slots_by_grid_[static_cast<size_t>(g)] += static_cast<int>(slots - before);
      before = slots;
    }
  }
  // The argument x_g - k w_i (+ tolerance), rounded up to the grid, is
  // the point g - offset(k, i): offset = floor((k w_i - tolerance) / h),
  // taken a hair smaller so that rounding never moves an index down.
  const int k_max = static_cast<int>((end - tau) / w_min) + 1;
  const size_t width = static_cast<size_t>(m);
  offsets_.resize(static_cast<size_t>(k_max) * width);
  for (int k = 1; k <= k_max; ++k) {
    for (size_t i = 0; i < width; ++i) {
      offsets_[static_cast<size_t>(k - 1) * width + i] =
          static_cast<int>(std::floor((k * weights_[i] - slack) / h - 1e-7));  // >= 2 as h <= w_i / 2
    }
  }
  counts_.assign(static_cast<size_t>(grid) + 1, 0);
  long held = 0;
  for (int g = 0; g <= grid; ++g) {
    held += slots_by_grid_[static_cast<size_t>(g)];
    long total = held;
    for (int k = 1; k <= k_max && total < m; ++k) {
      // G_k: the largest m' with m' - i <= Ñ(x - k w_i) for every i < m'.
      const int* offset = &offsets_[static_cast<size_t>(k - 1) * width];
      int most = std::numeric_limits<int>::max();
      int fit = 0;
      for (size_t i = 0; i < width; ++i) {
        const int index = g - offset[i];
        const int n_y = index < 0 ? 0 : counts_[static_cast<size_t>(index)];  // index 0: may round up from below tau
        most = std::min(most, static_cast<int>(i) + n_y);
        if (most < static_cast<int>(i) + 1) break;
        fit = static_cast<int>(i) + 1;
      }
      if (fit == 0) break;  // larger k only lowers every argument
      total += fit;
    }
    counts_[static_cast<size_t>(g)] = static_cast<int>(std::min<long>(total, m));
    if (counts_[static_cast<size_t>(g)] >= m) return g == 0 ? tau : tau + (g - 1) * h;
  }
  return tau + grid * h;
}

void Search::build_capacity(const std::vector<Holders>& holders, double tau, int slots, const std::vector<int>& allowed) {
  capacity_.clear();
  if (allowed.empty()) return;
  double fastest_remaining = kInfinity;
  for (int c = 0; c < problem_.classes(); ++c) {
    if (remaining_[static_cast<size_t>(c)] > 0) fastest_remaining = std::min(fastest_remaining, time(c));
  }
  sim_.reset(holders);
  sim_.take_due(tau + tie(tau));  // the slots at tau serve the group
  // The group's fastest possible composition: elementwise no slower than any.
  int group_left = slots;
  for (int c : allowed) {
    const int x = std::min(group_left, remaining_[static_cast<size_t>(c)]);
    if (x > 0) sim_.push({tau + time(c), time(c), x});
    group_left -= x;
  }
  int served = 0;
  const int after_group = total_remaining_ - slots;
  const double horizon = longest_window_;  // deadlines reach at most max D(a, b) past tau
  while (served < after_group) {
    const double x = sim_.earliest();
    if (x >= tau + horizon) break;
    const int found = sim_.take_due(x + tie(x));
    const int give = std::min(found, after_group - served);
    served += give;
    capacity_.push_back({x, served});
    sim_.push({x + fastest_remaining, fastest_remaining, give});
  }
}

double Search::partial_bound(size_t depth, double tau, const std::vector<int>& allowed, size_t index, int left) {
  const std::vector<int>& take = take_buffer(depth);
  std::vector<Holders>& child = levels_[depth + 1];
  child.clear();
  for (const auto& h : levels_[depth]) {
    Holders next = h;
    if (h.next <= tau + tie(tau)) next.next += h.period;
    child.push_back(next);
  }
  const int k = problem_.classes();
  removed_.assign(static_cast<size_t>(k), 0);
  for (int c = 0; c < k; ++c) removed_[static_cast<size_t>(c)] = take[static_cast<size_t>(c)];
  const int fastest_open = allowed[index];
  child.push_back({tau + time(fastest_open), time(fastest_open), fastest_open, left});
  int to_remove = left;
  for (size_t i = allowed.size(); i-- > index && to_remove > 0;) {
    const auto c = static_cast<size_t>(allowed[i]);
    const int x = std::min(to_remove, remaining_[c] - removed_[c]);
    removed_[c] += x;
    to_remove -= x;
  }
  for (int c = 0; c < k; ++c) {
    const auto cls = static_cast<size_t>(c);
    if (take[cls] > 0) child.push_back({tau + time(c), time(c), c, take[cls]});
    remaining_[cls] -= removed_[cls];
    total_remaining_ -= removed_[cls];
  }
  double child_tau = kInfinity;
  for (const auto& h : child) child_tau = std::min(child_tau, h.next);
  double bound = child_tau;
  if (total_remaining_ > 0) {
    bound = std::max(bound, relaxation_bound(child, nullptr));
    if (bound <= cutoff_) bound = std::max(bound, fluid_bound(child, child_tau));
  }
  for (int c = 0; c < k; ++c) {
    remaining_[static_cast<size_t>(c)] += removed_[static_cast<size_t>(c)];
    total_remaining_ += removed_[static_cast<size_t>(c)];
  }
  return bound;
}

}  // namespace hetcoll::optimal_broadcast_internal
