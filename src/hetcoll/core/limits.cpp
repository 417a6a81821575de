#include "hetcoll/core/limits.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

const char* to_string(SearchStatus status) {
  switch (status) {
    case SearchStatus::finished: return "finished";
    case SearchStatus::node_limit: return "node_limit";
    case SearchStatus::time_limit: return "time_limit";
    case SearchStatus::stopped_by_caller: return "stopped";
    case SearchStatus::refused: return "refused";
  }
  return "?";
}

std::optional<SearchStatus> search_status_from_string(std::string_view name) {
  for (auto status : {SearchStatus::finished, SearchStatus::node_limit, SearchStatus::time_limit,
                      SearchStatus::stopped_by_caller, SearchStatus::refused}) {
    if (name == to_string(status)) return status;
  }
  return std::nullopt;
}

void validate_limits(const SearchLimits& limits) {
  if (!(limits.time_limit_seconds > 0)) {
    throw InputError(fmt::format("time limit: must be a positive number of seconds (infinity for none), got {}",
                                 limits.time_limit_seconds));
  }
  if (limits.threads > kMaxSearchThreads) {
    throw InputError("threads", fmt::format("at most {} (0 = one per hardware thread), got {}", kMaxSearchThreads,
                                            limits.threads));
  }
}

unsigned resolved_threads(const SearchLimits& limits) {
  if (limits.threads > 0) return limits.threads;
  return std::max(1U, std::thread::hardware_concurrency());
}

SearchBudget::SearchBudget(SearchLimits limits)
    : limits_(std::move(limits)), started_(Clock::now()), last_report_(started_) {}

bool SearchBudget::admit(double best_makespan) {
  if (stopped()) return false;
  if (nodes_ >= limits_.node_limit) {
    status_ = SearchStatus::node_limit;
    return false;
  }
  if ((calls_++ & 63) == 0 && !read_clock(best_makespan)) return false;
  ++nodes_;
  return true;
}

bool SearchBudget::check(double best_makespan) {
  if (stopped()) return false;
  if ((calls_++ & 63) != 0) return true;
  return read_clock(best_makespan);
}

bool SearchBudget::read_clock(double best_makespan) {
  const auto now = Clock::now();
  const double elapsed = std::chrono::duration<double>(now - started_).count();
  if (elapsed > limits_.time_limit_seconds) {
    status_ = SearchStatus::time_limit;
    return false;
  }
  if (limits_.progress && std::chrono::duration<double>(now - last_report_).count() >= 0.5) {
    last_report_ = now;
    SearchStats so_far;
    so_far.nodes = nodes_;
    so_far.table_references = table_references;
    so_far.seconds = elapsed;
    if (!limits_.progress(so_far, best_makespan)) {
      status_ = SearchStatus::stopped_by_caller;
      return false;
    }
  }
  return true;
}

double SearchBudget::elapsed_seconds() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }

double SearchBudget::remaining_seconds() const {
  if (!limits_.has_time_limit()) return std::numeric_limits<double>::infinity();
  return std::max(0.0, limits_.time_limit_seconds - elapsed_seconds());
}

SharedLimits::SharedLimits(SearchLimits limits)
    : limits_(std::move(limits)), started_(std::chrono::steady_clock::now()) {}

double SharedLimits::remaining_seconds() const {
  if (!limits_.has_time_limit()) return std::numeric_limits<double>::infinity();
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  return limits_.time_limit_seconds - elapsed;
}

bool SharedLimits::time_left() const { return remaining_seconds() > 0; }

SearchLimits SharedLimits::remaining() const {
  SearchLimits left = limits_;
  if (left.node_limit != kNoNodeLimit) left.node_limit = spent_nodes_ >= left.node_limit ? 0 : left.node_limit - spent_nodes_;
  if (left.has_time_limit()) left.time_limit_seconds = std::max(1e-6, remaining_seconds());
  return left;
}

}  // namespace hetcoll
