// The limits every exact search honours: a node limit, a wall-clock limit
// and a progress callback that may ask to stop (MakespanRequest). One object
// per search run; `exhausted()` is called once per node.
//
// The clock is read every 64 calls (cheap next to a node's work) and the
// progress callback is called at most every half second. Once exhausted the
// budget stays exhausted, so recursive searches unwind quickly.
#pragma once

#include <chrono>
#include <cstdint>
#include <limits>

#include "hetcoll/makespan/registry.h"

namespace hetcoll {

class SearchBudget {
 public:
  SearchBudget(std::uint64_t node_limit = std::numeric_limits<std::uint64_t>::max(),
               double time_limit_seconds = std::numeric_limits<double>::infinity(), ProgressCallback progress = {})
      : node_limit_(node_limit),
        time_limit_seconds_(time_limit_seconds),
        progress_(std::move(progress)),
        started_(Clock::now()),
        last_report_(started_) {}

  // `nodes` = nodes examined so far (including the current one). True when
  // the search must stop: more than `node_limit` nodes, the time limit, or
  // the progress callback returned false.
  bool exhausted(std::uint64_t nodes, double best_makespan) {
    if (exhausted_) return true;
    if (nodes > node_limit_) return exhausted_ = true;
    if ((++calls_ & 63) != 0) return false;
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - started_).count();
    if (elapsed > time_limit_seconds_) return exhausted_ = true;
    if (progress_ && std::chrono::duration<double>(now - last_report_).count() >= 0.5) {
      last_report_ = now;
      SearchStats so_far;
      so_far.nodes = nodes;
      so_far.seconds = elapsed;
      if (!progress_(so_far, best_makespan)) return exhausted_ = true;
    }
    return false;
  }

  bool exhausted() const { return exhausted_; }
  double elapsed_seconds() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }

 private:
  using Clock = std::chrono::steady_clock;
  std::uint64_t node_limit_;
  double time_limit_seconds_;
  ProgressCallback progress_;
  Clock::time_point started_, last_report_;
  std::uint64_t calls_ = 0;
  bool exhausted_ = false;
};

}  // namespace hetcoll
