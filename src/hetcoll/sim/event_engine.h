// A discrete-event engine for executing schedules: tasks that hold
// resources for a duration, wait for their predecessors, and are served by
// each resource in a given order. sim/makespan_simulation.h builds the tasks
// of a makespan plan (transfers on ports and links, combines on a node's
// processor); periodic (steady-state) plans build theirs the same way.
//
// STABLE INTERFACE (other parts of hetcoll build on it; extend, do not
// change): EventEngine::add_resource, add_task, run, and the SimTask /
// SimOutcome fields below.
//
// Semantics. A task starts at the earliest time t such that
//   * t >= its release time and every predecessor has ended;
//   * every resource it holds is free at t, and
//       - an `in_order` resource serves its tasks strictly in the order of
//         their keys (major, minor, task id): a task waits for all tasks
//         before it on that resource to start and end (an MPI rank posting
//         its sends in plan order);
//       - a `first_ready` resource serves whichever waiting task became
//         ready first (ties by key): a processor combining arrivals as they
//         come. A task on a first_ready resource holds only that resource.
// and then holds its resources for its duration. Events at the same instant
// are all applied (every resource freed at t is free at t) before anything
// starts at t. Durations must be finite and >= 0.
// If tasks remain that can never start (an in_order sequence contradicting
// the predecessors: a deadlock), run() reports them instead of hanging.
//
// Complexity: O((T + H) log T) time and O(T + H) space for T tasks holding
// H resources in all.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace hetcoll::sim {

using TaskId = std::uint32_t;
using ResourceId = std::uint32_t;

enum class Discipline : std::uint8_t { in_order, first_ready };

struct SimTask {
  double duration = 0;
  double release = 0;
  // Order on in_order resources: by (major, minor, id). A plan replayed K
  // times uses major = the operation (or period) number and minor = the
  // planned start time.
  std::uint64_t order_major = 0;
  double order_minor = 0;
};

struct SimOutcome {
  std::vector<double> start, end;  // per task; NaN for tasks that never started
  double makespan = 0;             // the last end (0 without tasks)
  std::vector<TaskId> stuck;       // tasks that could never start (deadlock); empty when all ran
  bool completed() const { return stuck.empty(); }
};

class EventEngine {
 public:
  ResourceId add_resource(Discipline discipline);
  // Resources and predecessors must already exist. Throws std::invalid_argument
  // for a task on a first_ready resource that holds anything else.
  TaskId add_task(const SimTask& task, std::span<const ResourceId> resources, std::span<const TaskId> predecessors);

  // Room for `tasks` tasks holding `holdings` resources and waiting for
  // `predecessors` tasks in all (an estimate: more may still be added).
  void reserve(std::size_t tasks, std::size_t holdings, std::size_t predecessors);

  std::size_t task_count() const { return tasks_.size(); }
  std::size_t resource_count() const { return disciplines_.size(); }

  SimOutcome run() const;

 private:
  std::vector<Discipline> disciplines_;
  std::vector<SimTask> tasks_;
  // Flat adjacency: resources_of task t are resource_pool_[resource_first_[t] .. resource_first_[t+1]).
  std::vector<std::size_t> resource_first_{0};
  std::vector<ResourceId> resource_pool_;
  std::vector<std::size_t> predecessor_first_{0};
  std::vector<TaskId> predecessor_pool_;
};

}  // namespace hetcoll::sim
