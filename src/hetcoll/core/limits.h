// Limits and outcomes shared by every search, dynamic program and
// approximation scheme (HiGHS style: "the call failed" is an exception;
// "what the run found" is a SearchStatus in its result).
//
// STABLE INTERFACE (other layers and engineers build on it): SearchStats,
// ProgressCallback, SearchLimits, SearchStatus and its strings, and
// SearchBudget's public members. Fields may be added; none will be removed
// or change meaning.
//
// Semantics, for every algorithm that takes SearchLimits:
//  * node_limit N: at most N search nodes are examined (exactly: a search
//    stopped by its node limit reports nodes == N). N = 0 examines none —
//    the algorithm returns its incumbent (e.g. the greedy plan) at once.
//    Dynamic programs and the PTAS count no nodes and ignore it.
//  * time_limit_seconds S > 0: wall-clock limit on the whole run. Searches
//    stop within about a millisecond past S; DPs and the PTAS first predict
//    their time and memory and *refuse* (status refused, in time
//    proportional to the prediction, not to the work) when the prediction
//    exceeds S, then also stop at S while running. Infinity = no limit.
//    Zero, negative or NaN limits are rejected by validate_limits().
//  * threads T: worker threads for the searches that can use several
//    (today the exact broadcast search, makespan/sender_speed/broadcast/optimal_search.h;
//    every other algorithm ignores it). 1 (the default) = the serial
//    search, deterministic under a node limit; 0 = one per hardware thread
//    (resolved_threads()); more than kMaxSearchThreads is rejected by
//    validate_limits(). With T > 1 the node limit still caps the nodes
//    examined over all threads exactly, but which nodes (hence the plan and
//    the bound of a stopped run) depends on the threads' timing.
//  * progress: called about twice a second with the statistics so far and
//    the best makespan found (infinity if none); returning false stops the
//    run (status stopped_by_caller).
// A stopped or refused run still returns a complete plan: the best found so
// far, at worst the algorithm's documented fallback (FNF, SNF), with
// optimal = false unless its bound proves it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string_view>

namespace hetcoll {

struct SearchStats {
  std::uint64_t nodes = 0;             // search-tree nodes examined
  std::uint64_t table_references = 0;  // DP table look-ups
  double seconds = 0;                  // wall-clock planning time
};

// Called now and then by long runs; returning false asks them to stop.
using ProgressCallback = std::function<bool(const SearchStats& so_far, double best_makespan)>;

// How a run ended. `finished`: the algorithm ran to its end (its guarantee
// holds as documented). The others: a limit or the caller stopped it, or it
// refused to start because its predicted time or memory exceeds the limit.
enum class SearchStatus : std::uint8_t { finished, node_limit, time_limit, stopped_by_caller, refused };

// "finished", "node_limit", "time_limit", "stopped", "refused" (plan files).
const char* to_string(SearchStatus status);
std::optional<SearchStatus> search_status_from_string(std::string_view name);

inline constexpr std::uint64_t kNoNodeLimit = std::numeric_limits<std::uint64_t>::max();

inline constexpr unsigned kMaxSearchThreads = 1024;

struct SearchLimits {
  std::uint64_t node_limit = kNoNodeLimit;
  double time_limit_seconds = std::numeric_limits<double>::infinity();
  ProgressCallback progress;  // with threads > 1: called from any of the search's threads, one at a time
  unsigned threads = 1;       // 0 = std::thread::hardware_concurrency()

  bool has_time_limit() const { return time_limit_seconds < std::numeric_limits<double>::infinity(); }
};

// Throws InputError naming `time_limit` when the time limit is zero,
// negative or NaN (infinity means none), `threads` when above kMaxSearchThreads.
void validate_limits(const SearchLimits& limits);

// limits.threads with 0 resolved to the hardware's thread count (at least 1).
unsigned resolved_threads(const SearchLimits& limits);

// The limits of one run, with the node count and the reason it stopped.
// admit() is called once per node before examining it; check() where work
// that is not a node (a DP row, a PTAS guess) may take long. The clock is
// read every 64 calls and the progress callback at most twice a second.
// Once stopped, a budget stays stopped, so recursive searches unwind.
class SearchBudget {
 public:
  explicit SearchBudget(SearchLimits limits = {});

  // Counts one node and returns true, or returns false (without counting)
  // when a limit stops the run.
  bool admit(double best_makespan = std::numeric_limits<double>::infinity());
  // False when the time limit passed or the callback asked to stop.
  bool check(double best_makespan = std::numeric_limits<double>::infinity());
  // Marks the run refused (before it started).
  void refuse() { status_ = SearchStatus::refused; }

  bool stopped() const { return status_ != SearchStatus::finished; }
  SearchStatus status() const { return status_; }
  std::uint64_t nodes() const { return nodes_; }
  const SearchLimits& limits() const { return limits_; }
  double elapsed_seconds() const;
  // The time left before the time limit (infinity without one, >= 0).
  double remaining_seconds() const;
  // Extra statistics passed to the progress callback (e.g. DP references).
  std::uint64_t table_references = 0;

 private:
  using Clock = std::chrono::steady_clock;
  bool read_clock(double best_makespan);

  SearchLimits limits_;
  Clock::time_point started_, last_report_;
  std::uint64_t nodes_ = 0;
  std::uint64_t calls_ = 0;
  SearchStatus status_ = SearchStatus::finished;
};

// One budget for a command that runs several searches (an all-reduce's two
// phases for each root tried): every run gets what the runs before it left
// — the node limit less the nodes they examined (0 once spent: a run then
// returns its incumbent at once), the time limit less the time elapsed since
// the budget was made (a microsecond at least once passed: the run stops at
// its first clock reading).
class SharedLimits {
 public:
  explicit SharedLimits(SearchLimits limits);
  SearchLimits remaining() const;
  void spend(std::uint64_t nodes) { spent_nodes_ += nodes; }
  std::uint64_t spent_nodes() const { return spent_nodes_; }
  // False once the time limit has passed.
  bool time_left() const;
  double remaining_seconds() const;

 private:
  SearchLimits limits_;
  std::chrono::steady_clock::time_point started_;
  std::uint64_t spent_nodes_ = 0;
};

}  // namespace hetcoll
