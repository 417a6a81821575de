// One guess of the broadcast PTAS (ptas_internal.h): the rounded slow
// classes, the sending points of the fast part, and the predicted work.

#include "hetcoll/makespan/sender_speed/broadcast/ptas_internal.h"

#include <algorithm>
#include <climits>
#include <queue>

#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"

namespace hetcoll::ptas_internal {

namespace {

// Smallest i >= 1 with t <= theta (1+eps')^i, for t > theta; boundaries
// are compared with the cluster tolerance, so rounding noise (decimal or
// rescaled times) never moves a time to another class.
int class_index(double t, double theta, double eps_prime, double tolerance) {
  int i = std::max(1, static_cast<int>(std::ceil(std::log(t / theta) / std::log1p(eps_prime))));
  while (t > theta * std::pow(1 + eps_prime, i) + tolerance) ++i;
  while (i > 1 && t <= theta * std::pow(1 + eps_prime, i - 1) + tolerance) --i;
  return i;
}


// Number of vectors 0 <= m_i <= caps[i] with sum <= limit (as a double).
double count_bounded(const std::vector<std::int64_t>& caps, std::int64_t limit) {
  std::int64_t total = 0;
  double product = 1;
  for (auto cap : caps) {
    total += cap;
    product *= static_cast<double>(cap + 1);
  }
  limit = std::min(limit, total);
  if (limit == total) return product;
  if (static_cast<double>(limit) * static_cast<double>(caps.size()) * static_cast<double>(limit) > 1e8) return product;
  std::vector<double> ways(static_cast<size_t>(limit + 1), 0.0), next;
  ways[0] = 1;
  for (auto cap : caps) {
    next.assign(ways.size(), 0.0);
    // next[s] = sum_{x=0..cap} ways[s-x], by a running window.
    double window = 0;
    for (std::int64_t s = 0; s <= limit; ++s) {
      window += ways[static_cast<size_t>(s)];
      if (s - cap - 1 >= 0) window -= ways[static_cast<size_t>(s - cap - 1)];
      next[static_cast<size_t>(s)] = window;
    }
    ways.swap(next);
  }
  double count = 0;
  for (double w : ways) count += w;
  return count;
}

}  // namespace

GuessSetup setup_guess(const Instance& instance, double guess) {
  const Cluster& cluster = instance.cluster;
  GuessSetup setup;
  setup.guess = guess;
  const double theta = instance.eps_prime * guess;
  setup.deadline = (1 + instance.eps_prime) * (1 + 3 * instance.eps_prime) * guess;
  setup.tolerance = instance.tolerance();
  for (ProcessorIndex p : instance.receivers) {
    (cluster.transmission_time(p) <= theta + setup.tolerance ? setup.fast : setup.slow).push_back(p);
  }
  setup.fast_transfers = fnf_transfers(cluster, instance.source, setup.fast);
  setup.fast_makespan = last_completion(setup.fast_transfers);
  if (setup.fast_makespan > setup.deadline + setup.tolerance) {
    setup.verdict = GuessSetup::Verdict::fast_part_too_late;
    return setup;
  }
  if (setup.slow.empty()) {
    setup.verdict = GuessSetup::Verdict::feasible_fast_only;
    return setup;
  }
  // When each fast holder is done with its FNF sends inside F.
  std::vector<std::pair<ProcessorIndex, double>> free_from;  // (holder, time)
  free_from.reserve(setup.fast.size() + 1);
  {
    std::vector<ProcessorIndex> holders = setup.fast;
    holders.push_back(instance.source);
    std::sort(holders.begin(), holders.end());
    std::vector<double> busy(holders.size(), 0.0);
    auto slot = [&](ProcessorIndex p) {
      return static_cast<size_t>(std::lower_bound(holders.begin(), holders.end(), p) - holders.begin());
    };
    for (const auto& transfer : setup.fast_transfers) {
      busy[slot(transfer.from)] = std::max(busy[slot(transfer.from)], transfer.end);
      busy[slot(transfer.to)] = std::max(busy[slot(transfer.to)], transfer.end);
    }
    for (size_t i = 0; i < holders.size(); ++i) free_from.push_back({holders[i], busy[i]});
  }
  struct Next {
    double time, send_time;
    ProcessorIndex sender;
    bool operator>(const Next& other) const {
      if (time != other.time) return time > other.time;
      if (send_time != other.send_time) return send_time > other.send_time;
      return sender > other.sender;
    }
  };
  std::priority_queue<Next, std::vector<Next>, std::greater<>> heap;
  for (auto [holder, free] : free_from) {
    double t = cluster.transmission_time(holder);
    heap.push({free + t, t, holder});
  }
  // Points within the tolerance of the earliest are one tie: the faster
  // sender first, then the lower index (never the rounding noise).
  std::vector<Next> tied;
  while (setup.points.size() < setup.slow.size() && !heap.empty() &&
         heap.top().time <= setup.deadline + setup.tolerance) {
    tied.assign(1, heap.top());
    heap.pop();
    while (!heap.empty() && heap.top().time <= tied.front().time + setup.tolerance) {
      tied.push_back(heap.top());
      heap.pop();
    }
    auto chosen = std::min_element(tied.begin(), tied.end(), [&](const Next& a, const Next& b) {
      if (!time_equal(a.send_time, b.send_time, setup.tolerance)) return a.send_time < b.send_time;
      return a.sender < b.sender;
    });
    Next next = *chosen;
    tied.erase(chosen);
    for (const auto& other : tied) heap.push(other);
    setup.points.push_back({next.time, next.sender});
    heap.push({next.time + next.send_time, next.send_time, next.sender});
  }
  if (setup.points.empty()) {
    setup.verdict = GuessSetup::Verdict::no_sending_point;
    return setup;
  }
  setup.slack = setup.deadline - setup.points.front().time;
  // Classes by powers of (1+eps'); `slow` is sorted, so classes come in order.
  SlowClass leaf_only;
  leaf_only.leaf_only = true;
  leaf_only.rounded = kInfinity;
  int current_index = 0;
  for (ProcessorIndex p : setup.slow) {
    double t = cluster.transmission_time(p);
    int index = class_index(t, theta, instance.eps_prime, cluster.tolerance());
    if (setup.classes.empty() || index != current_index) {
      setup.classes.push_back({});
      current_index = index;
    }
    setup.classes.back().members.push_back(p);
    setup.classes.back().rounded = t;  // the slowest member so far
  }
  std::vector<SlowClass> kept;
  for (auto& slow_class : setup.classes) {
    if (slow_class.rounded > setup.slack + setup.tolerance) {
      leaf_only.members.insert(leaf_only.members.end(), slow_class.members.begin(), slow_class.members.end());
    } else {
      kept.push_back(std::move(slow_class));
    }
  }
  setup.sending_classes = static_cast<int>(kept.size());
  if (!leaf_only.members.empty()) kept.push_back(std::move(leaf_only));
  setup.classes = std::move(kept);
  // In time `slack` with every send taking >= r_min, the informed count at
  // most doubles per r_min.
  std::int64_t size_bound = 1;
  if (setup.sending_classes > 0) {
    double levels = std::floor((setup.slack + setup.tolerance) / setup.classes.front().rounded);
    size_bound = levels >= 62 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << static_cast<int>(levels));
  }
  setup.max_tree_size = std::min<std::int64_t>(size_bound, static_cast<std::int64_t>(setup.slow.size()));
  return setup;
}


GuessWork predict_guess(const Instance& instance, const GuessSetup& setup) {
  GuessWork work;
  work.operations = static_cast<double>(instance.receivers.size()) * 20;  // FNF and set-up
  if (setup.verdict != GuessSetup::Verdict::undecided) return work;
  const size_t k = setup.classes.size();
  work.classes = static_cast<int>(k);
  std::vector<std::int64_t> caps(k), counts(k);
  work.dp_states = 1;
  double dense_tree_table = 1;
  for (size_t c = 0; c < k; ++c) {
    counts[c] = static_cast<std::int64_t>(setup.classes[c].members.size());
    caps[c] = std::min<std::int64_t>(counts[c], setup.max_tree_size);
    work.dp_states *= static_cast<double>(counts[c] + 1);
    dense_tree_table *= static_cast<double>(caps[c] + 1);
    work.largest_class = std::max(work.largest_class, static_cast<int>(std::min<std::int64_t>(counts[c], INT_MAX)));
  }
  work.tree_vectors = count_bounded(caps, setup.max_tree_size);
  // Trees whose fastest class is c hold at most 2^floor(slack / r_c) nodes.
  for (size_t c = 0; c < k; ++c) {
    std::int64_t bound = 1;
    if (!setup.classes[c].leaf_only) {
      double levels = std::floor((setup.slack + setup.tolerance) / setup.classes[c].rounded);
      bound = levels >= 62 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << static_cast<int>(levels));
    }
    bound = std::min(bound, setup.max_tree_size);
    std::vector<std::int64_t> from_c(caps.begin() + static_cast<std::ptrdiff_t>(c), caps.end());
    double with_any = count_bounded(from_c, bound);
    from_c[0] = 0;
    work.useful_trees += with_any - count_bounded(from_c, bound);
  }
  if (static_cast<int>(k) > kMaxClasses || work.largest_class > kMaxDigit || dense_tree_table >= 4e9) {
    work.operations = kInfinity;  // beyond what the tables can represent
    work.bytes = kInfinity;
    return work;
  }
  const double words = std::ceil(static_cast<double>(k) / kLanesPerWord);
  // The tree table is dense over prod (cap_i + 1) entries, scanned once.
  work.operations += dense_tree_table * (static_cast<double>(k) + 2) +
                     work.tree_vectors * std::max(1, setup.sending_classes) * work.useful_trees * words +
                     work.dp_states * work.useful_trees * words;
  work.dp_operations = work.dp_states * work.useful_trees * words;
  work.bytes = dense_tree_table * (13.0 + 12.0 * setup.sending_classes) + work.dp_states * 8.0 +
               work.useful_trees * (8.0 * words + 24.0 + 4.0 * static_cast<double>(k));
  return work;
}


}  // namespace hetcoll::ptas_internal
