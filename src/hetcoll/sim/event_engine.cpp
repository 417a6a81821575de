#include "hetcoll/sim/event_engine.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>
#include <tuple>

namespace hetcoll::sim {

ResourceId EventEngine::add_resource(Discipline discipline) {
  disciplines_.push_back(discipline);
  return static_cast<ResourceId>(disciplines_.size() - 1);
}

void EventEngine::reserve(std::size_t tasks, std::size_t holdings, std::size_t predecessors) {
  tasks_.reserve(tasks);
  resource_first_.reserve(tasks + 1);
  predecessor_first_.reserve(tasks + 1);
  resource_pool_.reserve(holdings);
  predecessor_pool_.reserve(predecessors);
}

TaskId EventEngine::add_task(const SimTask& task, std::span<const ResourceId> resources,
                             std::span<const TaskId> predecessors) {
  if (!(task.duration >= 0) || !std::isfinite(task.duration) || !std::isfinite(task.release)) {
    throw std::invalid_argument("simulation task: duration and release must be finite, duration >= 0");
  }
  const auto id = static_cast<TaskId>(tasks_.size());
  for (auto r : resources) {
    if (r >= disciplines_.size()) throw std::invalid_argument("simulation task: unknown resource");
    if (disciplines_[r] == Discipline::first_ready && resources.size() != 1) {
      throw std::invalid_argument("simulation task: a task on a first_ready resource holds only that resource");
    }
  }
  for (auto p : predecessors) {
    if (p >= id) throw std::invalid_argument("simulation task: predecessors must be added first");
  }
  tasks_.push_back(task);
  resource_pool_.insert(resource_pool_.end(), resources.begin(), resources.end());
  resource_first_.push_back(resource_pool_.size());
  predecessor_pool_.insert(predecessor_pool_.end(), predecessors.begin(), predecessors.end());
  predecessor_first_.push_back(predecessor_pool_.size());
  return id;
}

namespace {

// Compressed lists: items of key k are pool[first[k] .. first[k+1]).
// 32-bit offsets: the pools hold task ids and resource holdings of at most
// 2^32 tasks (TaskId), half the bytes of a million-task run's size_t.
struct Csr {
  std::vector<std::uint32_t> first;
  std::vector<TaskId> pool;
  std::span<const TaskId> of(std::size_t k) const { return {pool.data() + first[k], pool.data() + first[k + 1]}; }
};

}  // namespace

SimOutcome EventEngine::run() const {
  const std::size_t task_count = tasks_.size();
  const std::size_t resource_count = disciplines_.size();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  SimOutcome outcome;
  outcome.start.assign(task_count, nan);
  outcome.end.assign(task_count, nan);

  auto resources_of = [&](TaskId t) {
    return std::span<const ResourceId>(resource_pool_.data() + resource_first_[t],
                                       resource_pool_.data() + resource_first_[t + 1]);
  };
  auto key_less = [&](TaskId a, TaskId b) {
    const auto& x = tasks_[a];
    const auto& y = tasks_[b];
    return std::tie(x.order_major, x.order_minor, a) < std::tie(y.order_major, y.order_minor, b);
  };

  // Successors, and each in_order resource's service sequence.
  Csr successors{std::vector<std::uint32_t>(task_count + 1, 0), {}};
  for (std::size_t t = 0; t < task_count; ++t) {
    for (std::size_t k = predecessor_first_[t]; k < predecessor_first_[t + 1]; ++k) {
      ++successors.first[predecessor_pool_[k] + 1];
    }
  }
  for (std::size_t t = 0; t < task_count; ++t) successors.first[t + 1] += successors.first[t];
  successors.pool.resize(predecessor_pool_.size());
  {
    std::vector<std::uint32_t> fill(successors.first.begin(), successors.first.end() - 1);
    for (std::size_t t = 0; t < task_count; ++t) {
      for (std::size_t k = predecessor_first_[t]; k < predecessor_first_[t + 1]; ++k) {
        successors.pool[fill[predecessor_pool_[k]]++] = static_cast<TaskId>(t);
      }
    }
  }
  Csr sequence{std::vector<std::uint32_t>(resource_count + 1, 0), {}};
  for (auto r : resource_pool_) ++sequence.first[r + 1];
  for (std::size_t r = 0; r < resource_count; ++r) sequence.first[r + 1] += sequence.first[r];
  sequence.pool.resize(resource_pool_.size());
  {
    std::vector<std::uint32_t> fill(sequence.first.begin(), sequence.first.end() - 1);
    for (std::size_t t = 0; t < task_count; ++t) {
      for (auto r : resources_of(static_cast<TaskId>(t))) sequence.pool[fill[r]++] = static_cast<TaskId>(t);
    }
    for (std::size_t r = 0; r < resource_count; ++r) {
      if (disciplines_[r] != Discipline::in_order) continue;
      const auto begin = sequence.pool.begin() + static_cast<std::ptrdiff_t>(sequence.first[r]);
      const auto end = sequence.pool.begin() + static_cast<std::ptrdiff_t>(sequence.first[r + 1]);
      if (!std::is_sorted(begin, end, key_less)) std::sort(begin, end, key_less);  // usually added in order
    }
  }

  std::vector<std::uint32_t> remaining(task_count);  // predecessors not yet ended
  std::vector<double> ready(task_count);
  for (std::size_t t = 0; t < task_count; ++t) {
    remaining[t] = static_cast<std::uint32_t>(predecessor_first_[t + 1] - predecessor_first_[t]);
    ready[t] = tasks_[t].release;
  }
  std::vector<std::uint32_t> position(resource_count, 0);  // next in the in_order sequence
  std::vector<char> busy(resource_count, 0);
  std::vector<char> started(task_count, 0);

  // first_ready queues: (ready time, key..., task), smallest first; made
  // for a resource when a task first waits on it (a million processors
  // with nothing to combine need none).
  using Waiting = std::tuple<double, std::uint64_t, double, TaskId>;
  using WaitingQueue = std::priority_queue<Waiting, std::vector<Waiting>, std::greater<>>;
  constexpr std::uint32_t kNoQueue = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> queue_of(resource_count, kNoQueue);
  std::vector<WaitingQueue> waiting;
  auto queue = [&](ResourceId r) -> WaitingQueue& {
    if (queue_of[r] == kNoQueue) {
      queue_of[r] = static_cast<std::uint32_t>(waiting.size());
      waiting.emplace_back();
    }
    return waiting[queue_of[r]];
  };

  enum EventKind : std::uint8_t { completion = 0, wake = 1 };
  using Event = std::tuple<double, std::uint8_t, TaskId>;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  for (std::size_t t = 0; t < task_count; ++t) {
    if (remaining[t] == 0) events.emplace(ready[t], wake, static_cast<TaskId>(t));
  }

  std::vector<TaskId> tasks_to_examine;
  std::vector<ResourceId> resources_to_examine;
  double now = 0;

  auto try_start = [&](TaskId t) {
    if (started[t] || remaining[t] > 0 || ready[t] > now) return;
    for (auto r : resources_of(t)) {
      if (busy[r]) return;
      if (disciplines_[r] == Discipline::in_order) {
        const auto seq = sequence.of(r);
        if (position[r] >= seq.size() || seq[position[r]] != t) return;
      }
    }
    started[t] = 1;
    outcome.start[t] = now;
    for (auto r : resources_of(t)) busy[r] = 1;
    events.emplace(now + tasks_[t].duration, completion, t);
  };

  while (!events.empty()) {
    now = std::get<0>(events.top());
    // Apply every event of this instant before starting anything.
    while (!events.empty() && std::get<0>(events.top()) == now) {
      auto [time, kind, t] = events.top();
      events.pop();
      if (kind == wake) {
        tasks_to_examine.push_back(t);
        continue;
      }
      outcome.end[t] = now;
      for (auto r : resources_of(t)) {
        busy[r] = 0;
        if (disciplines_[r] == Discipline::in_order) ++position[r];
        resources_to_examine.push_back(r);
      }
      for (auto s : successors.of(t)) {
        ready[s] = std::max(ready[s], now);
        if (--remaining[s] == 0) {
          if (ready[s] > now) {
            events.emplace(ready[s], wake, s);
          } else {
            tasks_to_examine.push_back(s);
          }
        }
      }
    }
    for (auto t : tasks_to_examine) {
      const auto held = resources_of(t);
      if (held.size() == 1 && disciplines_[held[0]] == Discipline::first_ready) {
        queue(held[0]).emplace(ready[t], tasks_[t].order_major, tasks_[t].order_minor, t);
        resources_to_examine.push_back(held[0]);
      } else {
        try_start(t);
      }
    }
    tasks_to_examine.clear();
    for (auto r : resources_to_examine) {
      if (busy[r]) continue;
      if (disciplines_[r] == Discipline::in_order) {
        const auto seq = sequence.of(r);
        if (position[r] < seq.size()) try_start(seq[position[r]]);
      } else if (queue_of[r] != kNoQueue && !waiting[queue_of[r]].empty()) {
        WaitingQueue& served = waiting[queue_of[r]];
        const TaskId t = std::get<3>(served.top());
        served.pop();
        started[t] = 1;
        outcome.start[t] = now;
        busy[r] = 1;
        events.emplace(now + tasks_[t].duration, completion, t);
      }
    }
    resources_to_examine.clear();
  }
  for (std::size_t t = 0; t < task_count; ++t) {
    if (!started[t]) outcome.stuck.push_back(static_cast<TaskId>(t));
    else outcome.makespan = std::max(outcome.makespan, outcome.end[t]);
  }
  return outcome;
}

}  // namespace hetcoll::sim
