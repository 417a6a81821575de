// Expanding a node of the exact broadcast search (optimal_search.h): the
// children of a slot time, the dominance rules that cut them, the memo key.
//
// Search space (Liu 2002 eq. 1, Thm 4.1): an optimal schedule is a no-delay
// tree, i.e. a sequence of receivers in ready-time order, the i-th served by
// the holder whose next send ends first. Every holder p sends without pause
// from its ready time r(p): its "slots" are r(p) + k t(p), k >= 1. We branch
// one slot time at a time: all slots ending at the current frontier time
// tau (equal up to the cluster tolerance) are served together, and a branch
// is the multiset of receiver *classes* (equal transmission times) they get.
// Processors of one class are interchangeable, so no two branches build the
// same schedule up to renaming, and the order inside a slot group does not
// matter. FNF's schedule is the first incumbent; with mostly distinct
// times (classes >= receivers / 2, 4-64 receivers) its sequence improved by
// pairwise interchanges (sequence_local_search.h; at most
// local_search_evaluations, deterministic, skipped under a time limit below
// 0.1 s).
//
// Dominance rules, with the theorem each relies on. All rules are "if a
// sequence breaks it, exchanging two receivers gives a sequence that is
// lexicographically smaller in (t(s_1), t(s_2), ...) and no later for any
// receiver". The lexicographically smallest optimal sequence therefore
// breaks none of them, so pruning every sequence that breaks one (any
// combination) keeps an optimum.
//  * Exchange rule (our generalisation of Liu 2002 Lemmas 4.2-4.4). Let q
//    be a receiver (never the source) of time b informed at r(q), and p a
//    later receiver of a faster time a < b informed at r(p) = r(q) + d,
//    d > 0. If floor(d / a) >= ceil(d / b), exchanging p and q in the
//    sequence never delays anyone. Proof: every ready time is the i-th
//    smallest slot of the processors before it (eq. 1), so it suffices that
//    for every x the number of slots <= x of the exchanged pair is no
//    smaller: p from r(q) and q from r'(q) <= r(p) give, per half-open
//    window (y - d, y], at least floor(d/a) multiples of a against at most
//    ceil(d/b) multiples of b (and for y < d, floor(y/a) >= floor(y/b));
//    receivers in between only gain (p's slots from r(q) are pointwise
//    earlier than q's).
//    Equivalently, p may follow q only if d lies in a window (k b, (k+1) a)
//    with k b < (k+1) a, i.e. k < a / (b - a): a faster class a is due
//    before r(q) + D(a, b), D(a, b) = (k_max + 1) a (e.g. D = 4 for times
//    2 and 3, D = a whenever b >= 2a). The rule contains Thm 4.2 ("a
//    sender is never slower than its receiver", d = k b), also for
//    simultaneous senders: a slow holder with a slot at tau forbids every
//    faster receiver at tau, whoever serves it — the seed's sec. 5 reading
//    "drop the partial solution if any sender is slower than any possible
//    receiver" is thus proven (stronger than the matching reading). It also
//    contains Lemma 4.2's step (d = t_min).
//    The source is not a receiver: its slots may serve anyone, so a slow
//    given source is allowed to send to faster processors (sec. 4.4).
//  * Fastest first (Liu 2002 Thm 4.3): the receivers of the fastest time
//    come before all others — applied only when the source has that same
//    time (then it is a fastest processor of {s} ∪ R, as Lemma 4.1 needs:
//    a fastest root sending at every multiple of t_min). A source strictly
//    faster than every receiver is the only fastest processor, and the
//    theorem says nothing about the order of the receivers (Liu 2002 Fig. 2
//    is such a case: the 2 must not go first). For a slower given source
//    Thm 4.3 is FALSE (brute force: times 4 | 3 4 3.5 3.5 3 4 from the
//    first: 11, but 11.5 with the 3s first; tests/broadcast_search_test.cpp),
//    and sec. 4.4 proves the fastest-first property only for power-2
//    clusters (Lemma 4.7), so with a slow source the exchange rule alone
//    orders the receivers.
//  * Group compositions: when a composition at tau leaves receivers of a
//    class a for later, they must all be served before their deadline
//    (from earlier slower receivers, and tau + D(a, b) for every slower b
//    served at tau). A composition whose leftovers exceed an upper bound on
//    how many receivers any completion can serve before those deadlines
//    (the relaxation of optimal_search_bounds.cpp with the group's fastest
//    possible composition)
//    is never generated.

#include "hetcoll/makespan/sender_speed/broadcast/optimal_search_internal.h"

namespace hetcoll::optimal_broadcast_internal {

void Search::record_completion(size_t depth, double tau) {
  if (shared_) {
    std::lock_guard lock(shared_->mutex);
    const double shared_best = shared_->best.load();
    if (!time_less(tau, shared_best, tolerance_)) {  // another thread found one as short
      take_shared_best();
      return;
    }
    shared_->best.store(tau);
    shared_->found = true;
    shared_->best_groups.assign(path_.begin(), path_.begin() + static_cast<std::ptrdiff_t>(depth));
    shared_->best_groups.push_back(remaining_);
    if (stop_at_first_) shared_->unwind.store(true);
  }
  best_groups_.assign(path_.begin(), path_.begin() + static_cast<std::ptrdiff_t>(depth));
  best_groups_.push_back(remaining_);
  best_ = tau;
  found_ = true;
  cutoff_ = std::min(cutoff_, below(best_));
  if (stop_at_first_) unwinding_ = true;
}

bool Search::exchange_allows(int a, double tau) const {
  if (!options_.exchange_rule) return true;
  const double ta = time(a);
  for (int b = a + 1; b < problem_.classes(); ++b) {
    const auto& ready = history_[static_cast<size_t>(b)];
    if (ready.empty()) continue;
    if (tau - ready.front() >= last_window(a, b) - tie(tau)) return false;
    const double tb = time(b);
    for (auto it = ready.rbegin(); it != ready.rend(); ++it) {
      const double d = tau - *it;
      if (d <= tie(tau)) continue;  // same slot group: order inside a group is free
      const double k = std::floor(d / tb);
      if (!(d > k * tb + tie(tau) && d < (k + 1) * ta - tie(tau))) return false;
    }
  }
  return true;
}

double Search::deadline(int a) const {
  if (!options_.exchange_rule) return kInfinity;
  double earliest = kInfinity;
  for (int b = a + 1; b < problem_.classes(); ++b) {
    const auto& ready = history_[static_cast<size_t>(b)];
    if (!ready.empty()) earliest = std::min(earliest, ready.front() + last_window(a, b));
  }
  return earliest;
}

void Search::build_key(const std::vector<Holders>& holders, double tau) {
  key_.clear();
  for (const auto& h : holders) {
    key_.push_back(h.cls);
    push_offset_key(h.next - tau);
    key_.push_back(h.count);
  }
  // Ready times still able to trigger the exchange rule: receivers of a
  // class b while a faster class has receivers left, within the last window.
  if (!options_.exchange_rule) return;
  const int k = problem_.classes();
  for (int b = 1; b < k; ++b) {
    double window = 0;
    for (int a = 0; a < b; ++a) {
      if (remaining_[static_cast<size_t>(a)] > 0) window = std::max(window, last_window(a, b));
    }
    const auto& ready = history_[static_cast<size_t>(b)];
    if (window == 0 || ready.empty()) continue;
    key_.push_back(-2 - b);  // separator
    for (auto it = ready.rbegin(); it != ready.rend(); ++it) {
      const double age = tau - *it;
      if (age >= window) {
        key_.push_back(-1);  // older ones: all alike
        break;
      }
      push_offset_key(age);
    }
  }
}

double Search::expand(size_t depth, double known_bound) {
  const std::vector<Holders>& holders = levels_[depth];
  double tau = kInfinity;
  for (const auto& h : holders) tau = std::min(tau, h.next);
  if (collecting_ && depth == split_depth_) {
    // Parallel search: a subproblem for the workers (not counted here;
    // the worker counts it as the serial search would).
    Subproblem sub;
    sub.depth = depth;
    sub.bound = std::max(tau, known_bound);
    for (size_t d = 0; d < depth; ++d) sub.groups.insert(sub.groups.end(), path_[d].begin(), path_[d].end());
    sub.known_bound = known_bound;
    subproblems_.push_back(std::move(sub));
    return kInfinity;  // its value joins the pass's from the worker that solves it
  }
  if (!(known_bound == -kInfinity ? admit() : check())) {
    aborted_ = true;
    return std::max(tau, known_bound);  // every remaining receiver is served at tau or later
  }
  int slots = 0;
  for (const auto& h : holders) {
    if (h.next <= tau + tie(tau)) slots += h.count;
  }
  if (tau > cutoff_) return tau;  // every remaining receiver is ready at tau or later

  const int k = problem_.classes();
  // Per class: from when it may no longer be served (exchange rule).
  std::vector<double>& node_deadlines = deadlines_by_depth_[depth];
  node_deadlines.resize(static_cast<size_t>(k));
  for (int c = 0; c < k; ++c) node_deadlines[static_cast<size_t>(c)] = deadline(c);
  const std::vector<double>* deadlines_used = options_.exchange_rule ? &node_deadlines : nullptr;
  // Classes that may be served at tau.
  std::vector<int>& allowed = allowed_buffer(depth);
  allowed.clear();
  int allowed_receivers = 0;
  for (int c = 0; c < k; ++c) {
    if (remaining_[static_cast<size_t>(c)] == 0) continue;
    if (!exchange_allows(c, tau)) {
      if (node_deadlines[static_cast<size_t>(c)] <= tau + tie(tau)) return kInfinity;  // never servable again
      continue;
    }
    allowed.push_back(c);
    allowed_receivers += remaining_[static_cast<size_t>(c)];
  }
  if (apply_fastest_first_ && remaining_[0] > 0 && remaining_[0] >= slots) {
    // Thm 4.3: the fastest class fills the slots first (once it has
    // fewer receivers left than slots, the composition forces x_0).
    allowed.assign(1, 0);
    allowed_receivers = remaining_[0];
  }

  if (total_remaining_ <= slots) {
    // Leaf: every remaining receiver is served at tau.
    for (int c = 0; c < k; ++c) {
      if (remaining_[static_cast<size_t>(c)] > 0 &&
          std::find(allowed.begin(), allowed.end(), c) == allowed.end()) {
        return kInfinity;
      }
    }
    if (time_less(tau, best_, tolerance_)) record_completion(depth, tau);
    return tau;
  }
  if (allowed_receivers < slots) return kInfinity;  // no valid way to fill the group

  std::uint64_t hash = 0;
  if (options_.memoize) {
    build_key(holders, tau);
    hash = hash_key(key_);
    if (double value = 0; memo_find(key_, hash, value) && tau + value > cutoff_) {
      ++memo_hits_;
      return tau + value;
    }
  }
  double own_bound = std::max(tau, known_bound);  // proven for every completion of this node
  if (options_.relaxation_bound) {
    const double bound = known_bound > -kInfinity ? known_bound : node_bound(holders, tau, deadlines_used);
    own_bound = std::max(own_bound, bound);
    if (bound > cutoff_) {
      if (options_.memoize && memo_min_nodes_ == 0) memo_store(key_, hash, bound - tau);
      return bound;
    }
  }
  const std::uint64_t nodes_at_entry = nodes();
  std::vector<std::int64_t>& my_key = keys_[depth];
  if (options_.memoize) my_key = key_;

  // The compositions of `slots` over the allowed classes, fastest
  // classes filled first (the FNF branch comes first), then visited in
  // increasing order of their bound (ties keep that order), so a target
  // pass meets its completion early.
  std::vector<int>& take = take_buffer(depth);
  take.assign(static_cast<size_t>(k), 0);
  std::vector<int>& suffix = suffix_buffer(depth);
  suffix.assign(allowed.size() + 1, 0);
  for (size_t i = allowed.size(); i-- > 0;) {
    suffix[i] = suffix[i + 1] + remaining_[static_cast<size_t>(allowed[i])];
  }
  std::vector<int>& children = children_[depth];
  children.clear();
  current_tau_ = tau;
  group_deadline_ = node_deadlines;
  saved_deadlines_.clear();
  if (options_.exchange_rule) build_capacity(holders, tau, slots, allowed);
  double value = kInfinity;  // the smallest bound of what is pruned or explored
  collect(depth, tau, allowed, suffix, 0, slots, value);
  if (aborted_) return own_bound;
  const size_t count = children.size() / static_cast<size_t>(k);
  std::vector<std::pair<double, size_t>>& order = order_[depth];
  order.clear();
  for (size_t i = 0; i < count; ++i) {
    double bound = -kInfinity;
    if (options_.relaxation_bound && count > 1) {
      if (!admit()) {  // one node per child whose bound is evaluated
        aborted_ = true;
        return own_bound;
      }
      const int* take_i = &children[i * static_cast<size_t>(k)];
      apply_child(depth, tau, take_i);
      const auto& child = levels_[depth + 1];
      double child_tau = kInfinity;
      for (const auto& h : child) child_tau = std::min(child_tau, h.next);
      // The child's deadlines: the node's, and tau + D(a, b) for the
      // classes b the group serves.
      const std::vector<double>* child_deadlines = nullptr;
      if (options_.exchange_rule) {
        child_deadlines_ = node_deadlines;
        for (int b = 0; b < k; ++b) {
          if (take_i[b] == 0) continue;
          for (int a = 0; a < b; ++a) {
            auto& d = child_deadlines_[static_cast<size_t>(a)];
            d = std::min(d, tau + last_window(a, b));
          }
        }
        child_deadlines = &child_deadlines_;
      }
      bound = node_bound(child, child_tau, child_deadlines);
      undo_child(depth, take_i);
    }
    order.push_back({bound, i});
  }
  if (count > 1) std::stable_sort(order.begin(), order.end());
  for (size_t j = 0; j < order.size(); ++j) {
    const int* chosen = &children_[depth][order_[depth][j].second * static_cast<size_t>(k)];
    const double bound = order_[depth][j].first;
    if (bound > cutoff_) {  // this and every later child: pruned by their bounds
      value = std::min(value, bound);
      break;
    }
    apply_child(depth, tau, chosen);
    path_[depth].assign(chosen, chosen + k);  // the groups on the way to depth + 1
    value = std::min(value, expand(depth + 1, bound));
    undo_child(depth, chosen);
    if (aborted_) {
      // Children after j are open; they are sorted by bound when bounded.
      if (j + 1 < order.size()) value = std::min(value, order[j + 1].first);
      return std::max(own_bound, value);
    }
    if (unwinding_) return std::max(tau, value);
  }
  value = std::max(tau, value);
  // While collecting subproblems (parallel search) `value` leaves out the
  // subproblems recorded below: not a bound on this subtree, not stored.
  if (options_.memoize && !collecting_ && nodes() - nodes_at_entry >= memo_min_nodes_) {
    memo_store(my_key, hash_key(my_key), value - tau);
  }
  return value;
}

void Search::choose(int b) {
  for (int a = 0; a < b; ++a) {
    double& deadline = group_deadline_[static_cast<size_t>(a)];
    saved_deadlines_.push_back(deadline);
    deadline = std::min(deadline, current_tau_ + last_window(a, b));
  }
}

void Search::unchoose(int b) {
  for (int a = b; a-- > 0;) {
    group_deadline_[static_cast<size_t>(a)] = saved_deadlines_.back();
    saved_deadlines_.pop_back();
  }
}

bool Search::leftovers_fit(const std::vector<int>& take, int last) {
  std::vector<std::pair<double, int>>& due = due_;
  due.clear();
  for (int a = 0; a <= last; ++a) {
    const int left = remaining_[static_cast<size_t>(a)] - take[static_cast<size_t>(a)];
    if (left == 0) continue;
    const double deadline = group_deadline_[static_cast<size_t>(a)];
    if (deadline < kInfinity) due.push_back({deadline, left});
  }
  std::sort(due.begin(), due.end());
  // Receivers any completion can serve in (tau, deadline): the last
  // capacity event strictly before it (deadlines lie within the simulated
  // horizon); deadlines ascend, so one walk over the events.
  int total = 0;
  size_t event = 0;
  for (size_t i = 0; i < due.size(); ++i) {
    total += due[i].second;
    while (event < capacity_.size() && capacity_[event].first < below(due[i].first)) ++event;
    const int capacity = event == 0 ? 0 : capacity_[event - 1].second;
    if (total > capacity) return false;
  }
  return true;
}

void Search::collect(size_t depth, double tau, const std::vector<int>& allowed, const std::vector<int>& suffix,
                     size_t index, int slots_left, double& value) {
  std::vector<int>& take = take_buffer(depth);
  if (index == allowed.size()) {
    if (slots_left == 0) children_[depth].insert(children_[depth].end(), take.begin(), take.end());
    return;
  }
  const int cls = allowed[index];
  const int most = std::min(slots_left, remaining_[static_cast<size_t>(cls)]);
  int least = std::max(0, slots_left - suffix[index + 1]);
  if (apply_fastest_first_ && cls == 0) least = most;  // Thm 4.3: x_0 = min(slots, remaining)
  for (int x = most; x >= least && !aborted_; --x) {
    take[static_cast<size_t>(cls)] = x;
    if (x > 0) choose(cls);
    const int left = slots_left - x;
    bool keep = !options_.exchange_rule || leftovers_fit(take, cls);
    // Several completions: try to prune them all at once.
    if (keep && options_.relaxation_bound && left > 0 && index + 2 < allowed.size()) {
      if (!admit()) {
        aborted_ = true;
        keep = false;
      }
    }
    if (keep && options_.relaxation_bound && left > 0 && index + 2 < allowed.size()) {
      const double bound = partial_bound(depth, tau, allowed, index + 1, left);
      if (bound > cutoff_) {
        value = std::min(value, bound);
        keep = false;
      }
    }
    if (keep) collect(depth, tau, allowed, suffix, index + 1, left, value);
    if (x > 0) unchoose(cls);
  }
  take[static_cast<size_t>(cls)] = 0;
}

void Search::apply_child(size_t depth, double tau, const int* take) {
  std::vector<Holders>& child = levels_[depth + 1];
  const std::vector<Holders>& holders = levels_[depth];
  child.clear();
  for (const auto& h : holders) {
    Holders next = h;
    if (h.next <= tau + tie(tau)) next.next += h.period;
    child.push_back(next);
  }
  const int k = problem_.classes();
  for (int c = 0; c < k; ++c) {
    const int x = take[c];
    if (x == 0) continue;
    child.push_back({tau + time(c), time(c), c, x});
    remaining_[static_cast<size_t>(c)] -= x;
    total_remaining_ -= x;
    history_[static_cast<size_t>(c)].push_back(tau);
  }
  // Canonical form: sorted by (class, next), equal holders merged.
  std::sort(child.begin(), child.end(), [](const Holders& a, const Holders& b) {
    return a.cls != b.cls ? a.cls < b.cls : a.next < b.next;
  });
  size_t out = 0;
  for (size_t i = 0; i < child.size(); ++i) {
    if (out > 0 && child[out - 1].cls == child[i].cls &&
        std::fabs(child[out - 1].next - child[i].next) <= tie(child[i].next)) {
      child[out - 1].count += child[i].count;
    } else {
      child[out++] = child[i];
    }
  }
  child.resize(out);
}

void Search::undo_child(size_t depth, const int* take) {
  (void)depth;
  for (int c = 0; c < problem_.classes(); ++c) {
    const int x = take[c];
    if (x == 0) continue;
    remaining_[static_cast<size_t>(c)] += x;
    total_remaining_ += x;
    history_[static_cast<size_t>(c)].pop_back();
  }
}

}  // namespace hetcoll::optimal_broadcast_internal
