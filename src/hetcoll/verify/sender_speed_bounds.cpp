#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <queue>

#include "hetcoll/verify/sender_speed_bounds_internal.h"

namespace hetcoll::verify_detail {

namespace {

// ceil(log2 n) for n >= 1.
int ceil_log2_of(std::size_t n) {
  int k = 0;
  while ((std::size_t{1} << k) < n) ++k;
  return k;
}

double fastest(const std::vector<double>& times) { return *std::min_element(times.begin(), times.end()); }

// Equal times form one class; a class is served in any order.
struct TimeClass {
  double time;
  bool target;
  int left;
};

std::vector<TimeClass> classes_of(const std::vector<double>& times, ProcessorIndex except,
                                  const std::vector<char>& is_target) {
  std::map<std::pair<double, bool>, int> counts;
  for (std::size_t p = 0; p < times.size(); ++p) {
    if (static_cast<ProcessorIndex>(p) == except) continue;
    ++counts[{times[p], is_target.empty() || is_target[p] != 0}];
  }
  std::vector<TimeClass> classes;
  for (const auto& [key, count] : counts) classes.push_back({key.first, key.second, count});
  return classes;  // fastest first
}

class BroadcastSearch {
 public:
  BroadcastSearch(std::vector<TimeClass> classes, double source_time, double cap, double tolerance,
                  std::uint64_t& budget)
      : classes_(std::move(classes)), cap_(cap), tolerance_(tolerance), budget_(budget) {
    holders_.push_back({0.0, source_time});
    for (const auto& c : classes_) targets_left_ += c.target ? c.left : 0;
  }

  ExactSearch run() {
    finished_ = true;
    search(0.0);
    return {finished_, cap_};
  }

 private:
  struct Holder {
    double free_at;
    double time;
  };

  // The makespan cannot beat this: every later send takes the fastest time
  // of any holder or class left, each holder's next send ends no earlier
  // than its free time plus its own time.
  double relaxed_bound(double so_far) const {
    if (targets_left_ == 0) return so_far;
    double quickest = std::numeric_limits<double>::infinity();
    for (const auto& h : holders_) quickest = std::min(quickest, h.time);
    for (const auto& c : classes_) {
      if (c.left > 0) quickest = std::min(quickest, c.time);
    }
    std::priority_queue<double, std::vector<double>, std::greater<>> next;
    for (const auto& h : holders_) next.push(h.free_at + h.time);
    double last = 0;
    for (int served = 0; served < targets_left_; ++served) {
      last = next.top();
      next.pop();
      next.push(last + quickest);
      next.push(last + quickest);
    }
    return std::max(so_far, last);
  }

  void search(double so_far) {
    if (targets_left_ == 0) {
      if (so_far < cap_ - tolerance_) cap_ = so_far;
      return;
    }
    if (budget_ == 0) {
      finished_ = false;
      return;
    }
    --budget_;
    if (relaxed_bound(so_far) >= cap_ - tolerance_) return;
    double earliest = std::numeric_limits<double>::infinity();
    for (const auto& h : holders_) earliest = std::min(earliest, h.free_at + h.time);
    double slowest_target = 0;
    for (const auto& c : classes_) {
      if (c.target && c.left > 0) slowest_target = std::max(slowest_target, c.time);
    }
    // Holders tied for the earliest completion, one per distinct time.
    std::vector<std::size_t> senders;
    for (std::size_t h = 0; h < holders_.size(); ++h) {
      if (holders_[h].free_at + holders_[h].time != earliest) continue;
      bool seen = false;
      for (auto s : senders) seen = seen || holders_[s].time == holders_[h].time;
      if (!seen) senders.push_back(h);
    }
    for (auto& c : classes_) {
      if (c.left == 0 || (!c.target && c.time >= slowest_target)) continue;
      for (auto h : senders) {
        const double free_before = holders_[h].free_at;
        holders_[h].free_at = earliest;
        holders_.push_back({earliest, c.time});
        --c.left;
        if (c.target) --targets_left_;
        search(c.target ? std::max(so_far, earliest) : so_far);
        if (c.target) ++targets_left_;
        ++c.left;
        holders_.pop_back();
        holders_[h].free_at = free_before;
        if (!finished_) return;
      }
    }
  }

  std::vector<TimeClass> classes_;
  std::vector<Holder> holders_;
  int targets_left_ = 0;
  double cap_;
  double tolerance_;
  std::uint64_t& budget_;
  bool finished_ = true;
};

// The reversed reduce: holders are told apart only by when they are free.
class ReduceSearch {
 public:
  ReduceSearch(std::vector<TimeClass> classes, double cap, double tolerance, std::uint64_t& budget)
      : classes_(std::move(classes)), cap_(cap), tolerance_(tolerance), budget_(budget) {
    free_at_.push_back(0.0);
    for (const auto& c : classes_) left_ += c.left;
  }

  ExactSearch run() {
    search(0.0);
    return {finished_, cap_};
  }

 private:
  double relaxed_bound(double so_far, double earliest) const {
    if (left_ == 0) return so_far;
    double quickest = std::numeric_limits<double>::infinity();
    double slowest = 0;
    for (const auto& c : classes_) {
      if (c.left == 0) continue;
      quickest = std::min(quickest, c.time);
      slowest = std::max(slowest, c.time);
    }
    std::priority_queue<double, std::vector<double>, std::greater<>> free(free_at_.begin(), free_at_.end());
    double last = 0;
    for (int served = 0; served < left_; ++served) {
      last = free.top() + quickest;
      free.pop();
      free.push(last);
      free.push(last);
    }
    return std::max({so_far, last, earliest + slowest});
  }

  void search(double so_far) {
    if (left_ == 0) {
      if (so_far < cap_ - tolerance_) cap_ = so_far;
      return;
    }
    if (budget_ == 0) {
      finished_ = false;
      return;
    }
    --budget_;
    const auto holder = static_cast<std::size_t>(std::min_element(free_at_.begin(), free_at_.end()) - free_at_.begin());
    const double earliest = free_at_[holder];
    if (relaxed_bound(so_far, earliest) >= cap_ - tolerance_) return;
    for (auto& c : classes_) {
      if (c.left == 0) continue;
      const double done = earliest + c.time;
      free_at_[holder] = done;
      free_at_.push_back(done);
      --c.left;
      --left_;
      search(std::max(so_far, done));
      ++left_;
      ++c.left;
      free_at_.pop_back();
      free_at_[holder] = earliest;
      if (!finished_) return;
    }
  }

  std::vector<TimeClass> classes_;
  std::vector<double> free_at_;
  int left_ = 0;
  double cap_;
  double tolerance_;
  std::uint64_t& budget_;
  bool finished_ = true;
};

}  // namespace

double broadcast_closed_bound(const std::vector<double>& times, ProcessorIndex source) {
  if (times.size() < 2) return 0;
  return times[static_cast<std::size_t>(source)] + fastest(times) * (ceil_log2_of(times.size()) - 1);
}

double multicast_closed_bound(const std::vector<double>& times, ProcessorIndex source, std::size_t target_count) {
  if (target_count == 0) return 0;
  return times[static_cast<std::size_t>(source)] + fastest(times) * (ceil_log2_of(target_count + 1) - 1);
}

double reduce_closed_bound(const std::vector<double>& times, ProcessorIndex root) {
  if (times.size() < 2) return 0;
  double slowest_sender = 0;
  for (std::size_t p = 0; p < times.size(); ++p) {
    if (static_cast<ProcessorIndex>(p) != root) slowest_sender = std::max(slowest_sender, times[p]);
  }
  return std::max(fastest(times) * ceil_log2_of(times.size()), slowest_sender);
}

double allreduce_any_schedule_closed_bound(const std::vector<double>& times) {
  if (times.size() < 2) return 0;
  return *std::max_element(times.begin(), times.end()) + fastest(times) * (ceil_log2_of(times.size()) - 1);
}

double allreduce_composition_closed_bound(const std::vector<double>& times) {
  if (times.size() < 2) return 0;
  const double quickest = fastest(times);
  const int levels = ceil_log2_of(times.size());
  // The slowest and second slowest: the slowest sender when the root is not / is the slowest.
  double first = 0, second = 0;
  std::size_t first_at = 0;
  for (std::size_t p = 0; p < times.size(); ++p) {
    if (times[p] > first) {
      second = first;
      first = times[p];
      first_at = p;
    } else {
      second = std::max(second, times[p]);
    }
  }
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t r = 0; r < times.size(); ++r) {
    const double slowest_sender = r == first_at ? second : first;
    const double reduce = std::max(quickest * levels, slowest_sender);
    const double broadcast = times[r] + quickest * (levels - 1);
    best = std::min(best, reduce + broadcast);
  }
  return best;
}

ExactSearch exact_broadcast(const std::vector<double>& times, ProcessorIndex source, const std::vector<char>& is_target,
                            double cap, double tolerance, std::uint64_t& node_budget) {
  return BroadcastSearch(classes_of(times, source, is_target), times[static_cast<std::size_t>(source)], cap, tolerance,
                         node_budget)
      .run();
}

ExactSearch exact_reduce(const std::vector<double>& times, ProcessorIndex root, double cap, double tolerance,
                         std::uint64_t& node_budget) {
  return ReduceSearch(classes_of(times, root, {}), cap, tolerance, node_budget).run();
}

}  // namespace hetcoll::verify_detail
