#include "support/brute_force.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace hetcoll::testing {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();

std::vector<double> times_of(const Cluster& cluster) { return cluster.transmission_times(); }
}  // namespace

double broadcast_by_sequences(const Cluster& cluster, ProcessorIndex source) {
  const int n = cluster.size();
  if (n > 9) throw std::invalid_argument("broadcast_by_sequences: n <= 9");
  auto t = times_of(cluster);
  std::vector<int> receivers;
  for (int p = 0; p < n; ++p) {
    if (p != source) receivers.push_back(p);
  }
  double best = kInfinity;
  std::vector<int> informed;
  std::vector<double> free_at(static_cast<size_t>(n));
  do {
    informed.assign(1, source);
    std::fill(free_at.begin(), free_at.end(), 0.0);
    double makespan = 0;
    for (int receiver : receivers) {
      int sender = -1;
      double finish = kInfinity;
      for (int p : informed) {
        double f = free_at[static_cast<size_t>(p)] + t[static_cast<size_t>(p)];
        if (f < finish) {
          finish = f;
          sender = p;
        }
      }
      free_at[static_cast<size_t>(sender)] = finish;
      free_at[static_cast<size_t>(receiver)] = finish;
      informed.push_back(receiver);
      makespan = std::max(makespan, finish);
      if (makespan >= best) break;
    }
    best = std::min(best, makespan);
  } while (std::next_permutation(receivers.begin(), receivers.end()));
  return n == 1 ? 0.0 : best;
}

namespace {
struct PairSearch {
  std::vector<double> t;
  std::vector<double> free_at;
  std::vector<bool> holds;  // broadcast: has the message; reduce: still has unsent data
  double best = kInfinity;
};

void broadcast_dfs(PairSearch& s, int remaining, double makespan) {
  if (makespan >= s.best) return;
  if (remaining == 0) {
    s.best = makespan;
    return;
  }
  const int n = static_cast<int>(s.t.size());
  for (int p = 0; p < n; ++p) {
    if (!s.holds[static_cast<size_t>(p)]) continue;
    for (int q = 0; q < n; ++q) {
      if (s.holds[static_cast<size_t>(q)]) continue;
      double saved_p = s.free_at[static_cast<size_t>(p)];
      double end = saved_p + s.t[static_cast<size_t>(p)];
      s.holds[static_cast<size_t>(q)] = true;
      s.free_at[static_cast<size_t>(p)] = end;
      s.free_at[static_cast<size_t>(q)] = end;
      broadcast_dfs(s, remaining - 1, std::max(makespan, end));
      s.holds[static_cast<size_t>(q)] = false;
      s.free_at[static_cast<size_t>(p)] = saved_p;
      s.free_at[static_cast<size_t>(q)] = 0;
    }
  }
}

void reduce_dfs(PairSearch& s, ProcessorIndex root, int remaining, double makespan) {
  if (makespan >= s.best) return;
  if (remaining == 0) {
    s.best = makespan;
    return;
  }
  const int n = static_cast<int>(s.t.size());
  for (int p = 0; p < n; ++p) {
    if (p == root || !s.holds[static_cast<size_t>(p)]) continue;
    for (int q = 0; q < n; ++q) {
      if (q == p || !s.holds[static_cast<size_t>(q)]) continue;
      double saved_q = s.free_at[static_cast<size_t>(q)];
      double start = std::max(s.free_at[static_cast<size_t>(p)], saved_q);
      double end = start + s.t[static_cast<size_t>(p)];
      s.holds[static_cast<size_t>(p)] = false;
      s.free_at[static_cast<size_t>(q)] = end;
      reduce_dfs(s, root, remaining - 1, std::max(makespan, end));
      s.holds[static_cast<size_t>(p)] = true;
      s.free_at[static_cast<size_t>(q)] = saved_q;
    }
  }
}
}  // namespace

double broadcast_by_pairs(const Cluster& cluster, ProcessorIndex source) {
  const int n = cluster.size();
  if (n > 7) throw std::invalid_argument("broadcast_by_pairs: n <= 7");
  PairSearch s{times_of(cluster), std::vector<double>(static_cast<size_t>(n), 0.0),
               std::vector<bool>(static_cast<size_t>(n), false)};
  s.holds[static_cast<size_t>(source)] = true;
  broadcast_dfs(s, n - 1, 0.0);
  return s.best;
}

double reduce_by_pairs(const Cluster& cluster, ProcessorIndex root) {
  const int n = cluster.size();
  if (n > 7) throw std::invalid_argument("reduce_by_pairs: n <= 7");
  PairSearch s{times_of(cluster), std::vector<double>(static_cast<size_t>(n), 0.0),
               std::vector<bool>(static_cast<size_t>(n), true)};
  reduce_dfs(s, root, n - 1, 0.0);
  return s.best;
}

double reduce_by_ep_orders(const Cluster& cluster, ProcessorIndex root) {
  const int n = cluster.size();
  if (n > 9) throw std::invalid_argument("reduce_by_ep_orders: n <= 9");
  if (n == 1) return 0.0;
  auto t = times_of(cluster);
  std::vector<int> senders;
  for (int p = 0; p < n; ++p) {
    if (p != root) senders.push_back(p);
  }
  double best = kInfinity;
  std::vector<double> completions;
  do {
    // Fig. 2: start the next sender whenever two processors are free; a
    // completed send frees its receiver only.
    int free_count = n;
    double now = 0, makespan = 0;
    completions.clear();  // completion times of active sends
    size_t next = 0;
    while (next < senders.size()) {
      while (free_count >= 2 && next < senders.size()) {
        double end = now + t[static_cast<size_t>(senders[next++])];
        completions.push_back(end);
        makespan = std::max(makespan, end);
        free_count -= 2;
      }
      if (next == senders.size() || makespan >= best) break;
      double earliest = *std::min_element(completions.begin(), completions.end());
      for (auto it = completions.begin(); it != completions.end();) {
        if (*it == earliest) {
          ++free_count;
          it = completions.erase(it);
        } else {
          ++it;
        }
      }
      now = earliest;
    }
    best = std::min(best, makespan);
  } while (std::next_permutation(senders.begin(), senders.end()));
  return best;
}

double multicast_by_helper_sets(const Cluster& cluster, ProcessorIndex source,
                                const std::vector<ProcessorIndex>& targets) {
  std::vector<char> member(static_cast<size_t>(cluster.size()), 0);
  member[static_cast<size_t>(source)] = 1;
  std::vector<double> group_times{cluster.transmission_time(source)};
  for (ProcessorIndex target : targets) {
    if (member[static_cast<size_t>(target)]) continue;
    member[static_cast<size_t>(target)] = 1;
    group_times.push_back(cluster.transmission_time(target));
  }
  if (group_times.size() == 1) return 0.0;
  std::vector<double> others;
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (!member[static_cast<size_t>(p)]) others.push_back(cluster.transmission_time(p));
  }
  double best = kInfinity;
  for (std::uint32_t mask = 0; mask < (1u << others.size()); ++mask) {
    std::vector<double> times = group_times;  // the source stays at index 0
    for (size_t i = 0; i < others.size(); ++i) {
      if (mask & (1u << i)) times.push_back(others[i]);
    }
    if (times.size() > 9) continue;
    best = std::min(best, broadcast_by_sequences(Cluster::from_times(times), 0));
  }
  return best;
}

double allreduce_by_compositions(const Cluster& cluster) {
  if (cluster.size() == 1) return 0.0;
  double best = kInfinity;
  for (ProcessorIndex root = 0; root < cluster.size(); ++root) {
    best = std::min(best, reduce_by_ep_orders(cluster, root) + broadcast_by_sequences(cluster, root));
  }
  return best;
}

}  // namespace hetcoll::testing
