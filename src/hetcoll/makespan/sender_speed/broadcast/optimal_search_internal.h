// Internals of the exact broadcast search (optimal_search.h), not installed:
// the search state and the per-node machinery shared by its four files —
// optimal_search.cpp (the entry points and the passes), optimal_search_branching.cpp
// (expanding a node: dominance rules, compositions, memo keys),
// optimal_search_bounds.cpp (the proven lower bounds) and
// optimal_search_parallel.cpp (the threads).
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/makespan/search_memo_internal.h"
#include "hetcoll/makespan/sender_speed/broadcast/broadcast_search_common.h"
#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"

namespace hetcoll::optimal_broadcast_internal {

using Clock = std::chrono::steady_clock;
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr int kSourceClass = -1;
// `count` holders of one class whose next sends all end at `next`.
struct Holders {
  double next;
  double period;
  int cls;  // receiver class, or kSourceClass
  int count;
};

// The memo of a parallel search, shared by its threads: MemoTable shards
// chosen by the hash's top bits, each behind its own mutex. Values are
// proven bounds whichever thread stored them, so sharing keeps the search
// exact; which entries exist at a lookup depends on the threads' timing.
class ShardedMemo {
 public:
  explicit ShardedMemo(std::size_t budget_bytes) {
    shards_.reserve(kShards);
    for (std::size_t i = 0; i < kShards; ++i) shards_.push_back(std::make_unique<Shard>(budget_bytes / kShards));
  }
  bool find(const std::vector<std::int64_t>& key, std::uint64_t hash, double& value) {
    Shard& shard = *shards_[hash >> kShardShift];
    std::lock_guard lock(shard.mutex);
    const double* found = shard.table.find(key, hash);
    if (found) value = *found;
    return found != nullptr;
  }
  void store(const std::vector<std::int64_t>& key, std::uint64_t hash, double value) {
    Shard& shard = *shards_[hash >> kShardShift];
    std::lock_guard lock(shard.mutex);
    shard.table.store(key, hash, value);
  }
  std::size_t size() {
    std::size_t total = 0;
    for (auto& shard : shards_) {
      std::lock_guard lock(shard->mutex);
      total += shard->table.size();
    }
    return total;
  }

 private:
  static constexpr std::size_t kShards = 64;
  static constexpr int kShardShift = 58;  // 64 - log2(kShards)
  struct alignas(64) Shard {
    explicit Shard(std::size_t budget_bytes) : table(budget_bytes) {}
    std::mutex mutex;
    MemoTable table;
  };
  std::vector<std::unique_ptr<Shard>> shards_;
};

// What the threads of a parallel search share: the limits (one node count,
// one clock), the incumbent (read by every thread at every node, so a
// completion one thread finds prunes in all of them), the best sequence,
// the memo, and the flags that stop them.
struct SharedSearch {
  SharedSearch(const SearchLimits& search_limits, double incumbent, std::size_t memo_bytes)
      : limits(search_limits),
        node_limited(search_limits.node_limit != kNoNodeLimit),
        started(Clock::now()),
        last_report(started),
        best(incumbent),
        memo(memo_bytes) {}

  // Stops every thread; the first reason is the one reported.
  void halt(SearchStatus why) {
    int expected = static_cast<int>(SearchStatus::finished);
    status.compare_exchange_strong(expected, static_cast<int>(why));
    stop.store(true);
  }

  // As SearchBudget: false (and halted) past the time limit or when the
  // progress callback (one thread at a time, at most twice a second) says stop.
  bool read_clock(double best_makespan) {
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - started).count();
    if (elapsed > limits.time_limit_seconds) {
      halt(SearchStatus::time_limit);
      return false;
    }
    if (limits.progress) {
      std::unique_lock lock(progress_mutex, std::try_to_lock);
      if (lock.owns_lock() && std::chrono::duration<double>(now - last_report).count() >= 0.5) {
        last_report = now;
        SearchStats so_far;
        so_far.nodes = nodes.load(std::memory_order_relaxed);
        so_far.seconds = elapsed;
        if (!limits.progress(so_far, std::min(best_makespan, best.load()))) {
          halt(SearchStatus::stopped_by_caller);
          return false;
        }
      }
    }
    return !stop.load(std::memory_order_relaxed);
  }

  SearchLimits limits;
  bool node_limited;
  Clock::time_point started;
  // Nodes counted: exact under a node limit (every admission), else
  // brought up to date every 64 nodes per thread (for the progress callback).
  std::atomic<std::uint64_t> nodes{0};
  std::atomic<bool> stop{false};
  std::atomic<int> status{static_cast<int>(SearchStatus::finished)};
  std::atomic<bool> unwind{false};  // a target pass found its completion: every thread returns
  std::mutex progress_mutex;
  Clock::time_point last_report;
  std::atomic<double> best;
  std::mutex mutex;  // guards found, best_groups and the writes of best
  bool found = false;
  std::vector<std::vector<int>> best_groups;
  ShardedMemo memo;
};

// A subtree of the parallel search: the slot groups (k counts each) from
// the root to a node at `depth`, the bound its parent evaluated for it
// (-infinity: none) and max(that, its slot time) for ordering and pruning.
struct Subproblem {
  std::vector<int> groups;
  size_t depth = 0;
  double known_bound = -kInfinity;
  double bound = 0;
};

class Search {
 public:
  Search(const ClassProblem& problem, const SearchLimits& limits, const OptimalBroadcastOptions& options,
         double incumbent);

  // The lower bound of the relaxation at the root (before any receiver).
  double root_bound();

  // Iterative targets (IDA*-like, the memo acting as transposition table):
  // search for a completion ending by `target`, starting from the proven
  // lower bound; a failed pass proves the optimum >= the smallest bound it
  // pruned, which becomes the next target. The first completion found is
  // then optimal. Slowly creeping targets (many distinct times) switch to
  // bisection passes: the target kBisectionStep of the way from the proven
  // bound to the incumbent, so each pass either raises the bound past it or
  // finds a schedule ending by it — the gap shrinks by a factor of at least
  // 1 - kBisectionStep per pass. Once the gap
  // is within kPlainGap of the incumbent, one plain branch-and-bound pass
  // against the incumbent finishes. A pass stopped by a limit still proves
  // the smallest bound over its open subtrees (expand()).
  void run(double proven_lower_bound);

  double lower_bound() const { return lower_bound_; }
  bool finished() const { return finished_; }
  bool found() const { return found_; }
  double best() const { return best_; }
  // This thread's nodes (serial: the run's).
  std::uint64_t nodes() const { return shared_ ? local_nodes_ : budget_.nodes(); }
  // The run's totals, over every thread.
  std::uint64_t total_nodes() const {
    std::uint64_t total = nodes();
    for (const auto& worker : workers_) total += worker->nodes();
    return total;
  }
  SearchStatus status() const {
    if (!shared_) return budget_.status();
    return finished_ ? SearchStatus::finished : static_cast<SearchStatus>(shared_->status.load());
  }
  std::uint64_t memo_hits() const {
    std::uint64_t total = memo_hits_;
    for (const auto& worker : workers_) total += worker->memo_hits_;
    return total;
  }
  std::size_t memo_entries() { return shared_ ? shared_->memo.size() : memo_.size(); }
  std::uint64_t counting_prunes() const {
    std::uint64_t total = counting_prunes_;
    for (const auto& worker : workers_) total += worker->counting_prunes_;
    return total;
  }
  // Worker threads for run(): 1 = the serial search.
  void set_threads(unsigned threads) { threads_ = std::max(1U, threads); }
  // The best sequence as class counts per slot group, in time order.
  const std::vector<std::vector<int>>& best_groups() const { return best_groups_; }

 private:
  double time(int cls) const { return problem_.class_time[static_cast<size_t>(cls)]; }

  // One node: counts it and returns true, or returns false when the run
  // stops (a limit, the caller, or — parallel — another thread's
  // completion ending a target pass).
  bool admit() {
    if (!shared_) return budget_.admit(best_);
    if (!shared_proceed()) return false;
    if (shared_->node_limited) {
      if (shared_->nodes.fetch_add(1, std::memory_order_relaxed) >= shared_->limits.node_limit) {
        shared_->nodes.fetch_sub(1, std::memory_order_relaxed);
        shared_->halt(SearchStatus::node_limit);
        return false;
      }
    } else if ((local_nodes_ & 63) == 63) {
      shared_->nodes.fetch_add(64, std::memory_order_relaxed);
    }
    ++local_nodes_;
    return true;
  }
  // A node counted before (its bound was evaluated): only the stop tests.
  bool check() { return shared_ ? shared_proceed() : budget_.check(best_); }

  // Parallel search: false once the run stopped or a target pass found its
  // completion; takes up the other threads' incumbent (pruning with it).
  bool shared_proceed() {
    if (shared_->stop.load(std::memory_order_relaxed) || shared_->unwind.load(std::memory_order_relaxed)) return false;
    take_shared_best();
    return (calls_++ & 63) != 0 || shared_->read_clock(best_);
  }
  // Two slot times are one (slots of one group, holders merged, exchange
  // windows) when they differ by at most tie(x): tau (the rule's floor,
  // 1e-9 of the fastest time) or 1e-12 of their size, whichever is larger.
  // 1e-12 of a time stamp is far above the rounding of the sums that make
  // it (1e-16 per addition) and far below the rule's 1e-9 (core/ids.h): a
  // search that grouped slots by 1e-9 of the stamp would serve a receiver
  // at 1e4 + 2e-8 "at 1e4" and hand the error on down every chain of sends.
  // Which plans are better (cutoffs, incumbents, the stop) follows the rule
  // itself: below().
  double tie(double x) const {
    return std::isfinite(x) ? std::fmax(tolerance_, kSlotTimeNoise * std::fabs(x)) : tolerance_;
  }
  static constexpr double kSlotTimeNoise = 1e-12;
  // Just below x beyond a tie of the rule (core/ids.h): the cutoff of a
  // search that must beat x.
  double below(double x) const { return x - tie_tolerance(x, x, tolerance_); }
  // The memo key of a time offset from tau: a multiple of the quantum
  // while it fits (the quantum is tau's floor, so an offset of 1e20 next to
  // a fastest time of 1e-20 does not), else the offset's own bits after a
  // marker (two states share a key only when their offsets agree).
  void push_offset_key(double offset) {
    const double steps = offset / quantum_;
    if (std::fabs(steps) < 0x1p62) {
      key_.push_back(std::llround(steps));
    } else {
      key_.push_back(std::numeric_limits<std::int64_t>::min());
      key_.push_back(std::bit_cast<std::int64_t>(offset));
    }
  }
  void take_shared_best() {
    const double best = shared_->best.load(std::memory_order_relaxed);
    if (best < best_) {
      best_ = best;
      cutoff_ = std::min(cutoff_, below(best_));
    }
  }

  bool memo_find(const std::vector<std::int64_t>& key, std::uint64_t hash, double& value) {
    if (shared_) return shared_->memo.find(key, hash, value);
    const double* found = memo_.find(key, hash);
    if (found) value = *found;
    return found != nullptr;
  }
  void memo_store(const std::vector<std::int64_t>& key, std::uint64_t hash, double value) {
    if (shared_) {
      shared_->memo.store(key, hash, value);
    } else {
      memo_.store(key, hash, value);
    }
  }

  // A completion ending at tau, better than this thread's incumbent: the
  // receivers left are all served at tau (path_[0..depth) leads here).
  void record_completion(size_t depth, double tau);

  // The parallel search (threads_ > 1): this Search coordinates; workers_
  // (one per thread, each with its own buffers, all on shared_) solve the
  // subproblems.
  void start_parallel();

  // One pass of run() on every thread. This thread explores the tree down
  // to split_depth and records the nodes there as subproblems (in the
  // serial search's order: children by increasing bound), deepening until
  // there are at least options_.subproblems_per_thread per thread; the threads then
  // take them in that order (an atomic index) with the pass's cutoff,
  // lowered by every completion any thread finds. Returns, like expand(0),
  // a bound on every completion: the minimum of what the collection pruned
  // and each subproblem's value (its parent's bound if it was pruned or
  // left open). Sets aborted_ when a limit stopped the pass — except when a
  // target pass found its completion (then the pass succeeded; the values
  // of the threads it interrupted are no bounds and are not used).
  double parallel_pass();

  // A worker: the subtree of `sub` with the pass's cutoff (lowered by the
  // shared incumbent); returns expand()'s value for it.
  double solve(const Subproblem& sub, double cutoff, bool stop_at_first);
  double last_window(int a, int b) const { return last_window_[static_cast<size_t>(a * problem_.classes() + b)]; }

  // Exchange rule: may a receiver of class a be served at tau? Only if,
  // after every slower receiver q (ready r), d = tau - r is 0 (same slot
  // group) or lies in some window (k t_b, (k+1) t_a), i.e.
  // floor(d / t_a) < ceil(d / t_b).
  bool exchange_allows(int a, double tau) const;

  // The time from which class a can never be served again (infinity: no
  // such time yet), from the receivers already informed.
  double deadline(int a) const;

  // Relaxation bound (optimal_search_bounds.cpp proves it): every
  // completion of the state ends at or after the returned time; infinity
  // when no completion can exist.
  // `class_deadlines`: per class, the time from which it may no longer be
  // served (nullptr: ignore deadlines).
  double relaxation_bound(const std::vector<Holders>& holders,
                          const std::vector<double>* class_deadlines);

  // Fluid bound (optimal_search_bounds.cpp proves it): the informed count
  // N(x) of any completion satisfies N(x) <= S(x) + integral_tau^x G(N(y)) dy, where S counts the
  // holders' slots up to x and G(m) sums the m largest rates 1/t of the
  // remaining receivers (linear between integers, so concave and
  // nondecreasing). By comparison N <= U, the solution of the equality,
  // which is exponential between slot times and class boundaries; every
  // completion therefore ends no earlier than the time U reaches K.
  double fluid_bound(const std::vector<Holders>& holders, double tau);


  // The remaining class counts are not part of the key: every informed
  // receiver is a holder (holders are never dropped), so the holders'
  // classes and counts determine them (remaining = initial - held).
  void build_key(const std::vector<Holders>& holders, double tau);

  // Explores the node whose holders are levels_[depth] and returns a lower
  // bound on every completion of it (infinity: none is valid); completions
  // ending by cutoff_ become the incumbent. Sets aborted_ when a limit stops
  // the search, unwinding_ when a target pass found its completion.
  // A child whose bound was evaluated (known_bound) was counted then.
  // When a limit stops the search the value is still a proven bound on
  // every completion of the node: the smallest over what was explored or
  // pruned and the bounds of the subtrees left open (at worst the node's
  // own bound), so the run's bound is the minimum over its open nodes.
  double expand(size_t depth, double known_bound = -kInfinity);

  // The bound of a node: the relaxation, and the fluid bound when the
  // relaxation alone does not reach the cutoff.
  double node_bound(const std::vector<Holders>& holders, double tau, const std::vector<double>* class_deadlines);

  // Counting bound (optimal_search_bounds.cpp proves it): on the grid
  // x_g = tau + g h (h at most half the fastest remaining time), counts_[g] >= N(x) for every x in
  // (x_{g-1}, x_g] and every completion. Returns x_{g-1} for the first g
  // whose count reaches the receivers left (no completion informs them all
  // by x_{g-1}), or the grid's end (just past the cutoff) if none does.
  // O(grid x k_max x receivers left), k_max = (cutoff - tau) / fastest time;
  // only evaluated when the relaxation and fluid bounds do not prune.
  double counting_bound(const std::vector<Holders>& holders, double tau);

  // Serving class b at tau makes every faster receiver left over (classes
  // a < b, not served at tau) due before tau + D(a, b) (exchange rule).
  // capacity_ holds, for the node being expanded, an upper bound on how many
  // receivers any completion can serve after tau and before a given time:
  // the relaxation in which the group gets its fastest possible composition
  // and everyone after it the fastest remaining time. A composition whose leftovers cannot all meet their
  // deadlines has no valid completion and is never generated.
  void build_capacity(const std::vector<Holders>& holders, double tau, int slots, const std::vector<int>& allowed);

  // The group being composed serves class b: every faster class a < b
  // left over becomes due before tau + D(a, b) (exchange rule).
  // group_deadline_[a] is the node's deadline of a, lowered so by the
  // classes chosen so far; unchoose restores it (a stack of old values).
  void choose(int b);

  void unchoose(int b);

  // Can the receivers the group leaves over in classes 0..last (the group's
  // counts for them are decided in `take`; 0 for classes not allowed at
  // tau) still meet their deadlines? A class a is due before the deadline
  // set by earlier receivers (history) and before tau + D(a, b) for every
  // slower class b the group serves.
  bool leftovers_fit(const std::vector<int>& take, int last);

  // Appends every composition reachable from this prefix to children_[depth].
  // Classes are decided fastest first; once a prefix is decided and several
  // completions remain, a bound valid for all of them (partial_bound) may
  // prune the whole range. `value` collects the bounds of pruned ranges.
  void collect(size_t depth, double tau, const std::vector<int>& allowed, const std::vector<int>& suffix,
               size_t index, int slots_left, double& value);

  // A lower bound on every child whose composition extends take_buffer(depth)
  // (decided for allowed[0..index)) with `left` more receivers from
  // allowed[index..]: those receivers get the fastest of these times, and
  // the receivers left after the group are the remaining ones minus the
  // `left` slowest candidates — elementwise no slower than in any such
  // child. Lowering times never delays anyone, and the relaxation without
  // deadlines and the fluid bound hold for every completion.
  double partial_bound(size_t depth, double tau, const std::vector<int>& allowed, size_t index, int left);

  // Builds the child of levels_[depth] whose group at tau takes `take`
  // receivers per class into levels_[depth + 1]; undo_child reverts the
  // counts and ready times.
  void apply_child(size_t depth, double tau, const int* take);

  void undo_child(size_t depth, const int* take);

  // Per-depth buffers, sized once (references into them stay valid).
  std::vector<int>& allowed_buffer(size_t depth) { return allowed_[depth]; }
  std::vector<int>& take_buffer(size_t depth) { return take_[depth]; }
  std::vector<int>& suffix_buffer(size_t depth) { return suffix_[depth]; }

  // The send streams of a simulation (relaxation, fluid and capacity
  // bounds), earliest next send on top: O(log streams) per event, where a
  // scan cost O(streams) — with every class a singleton, up to n of them.
  class StreamHeap {
   public:
    struct Stream {
      double next;
      double period;
      int count;
    };
    void reset(const std::vector<Holders>& holders) {
      heap_.clear();
      for (const auto& h : holders) heap_.push_back({h.next, h.period, h.count});
      std::make_heap(heap_.begin(), heap_.end(), later);
    }
    void push(const Stream& stream) {
      heap_.push_back(stream);
      std::push_heap(heap_.begin(), heap_.end(), later);
    }
    // Infinity when empty.
    double earliest() const { return heap_.empty() ? kInfinity : heap_.front().next; }
    // Every stream whose next send ends by `until` sends once (its next
    // moves a period on); returns the receivers they serve.
    int take_due(double until) {
      due_.clear();
      while (!heap_.empty() && heap_.front().next <= until) {
        std::pop_heap(heap_.begin(), heap_.end(), later);
        due_.push_back(heap_.back());
        heap_.pop_back();
      }
      int served = 0;
      for (auto& stream : due_) {
        served += stream.count;
        stream.next += stream.period;
        push(stream);
      }
      return served;
    }

   private:
    struct Later {  // a type, not a function pointer: the heap operations inline it
      bool operator()(const Stream& a, const Stream& b) const { return a.next > b.next; }
    };
    static constexpr Later later{};
    std::vector<Stream> heap_;
    std::vector<Stream> due_;
  };

  const ClassProblem& problem_;
  OptimalBroadcastOptions options_;
  MemoTable memo_;
  double best_;
  SearchBudget budget_;
  double tolerance_ = 0;  // tau, the floor of the rule; every comparison goes through tie() (core/ids.h)
  double quantum_ = 0;
  std::uint64_t memo_min_nodes_ = 0;  // store only subtrees of at least this many nodes (kSingletonMemoMinNodes)
  bool apply_fastest_first_ = false;
  std::vector<double> last_window_;  // D(a, b) per pair of classes
  double longest_window_ = 0;        // max D(a, b)

  std::vector<int> remaining_;
  int total_remaining_ = 0;
  std::vector<std::vector<double>> history_;  // ready times of the receivers served, per class
  std::vector<std::vector<Holders>> levels_;
  std::vector<std::vector<int>> allowed_;
  std::vector<std::vector<int>> take_;
  std::vector<std::vector<int>> suffix_;
  std::vector<std::vector<int>> children_;  // per depth: compositions, k counts each
  std::vector<std::vector<std::pair<double, size_t>>> order_;  // per depth: (bound, composition)
  std::vector<std::vector<int>> path_;  // per depth: the group chosen there (entries 0..depth-1 valid)
  std::vector<std::vector<int>> best_groups_;
  std::vector<std::int64_t> key_;
  std::vector<std::vector<std::int64_t>> keys_;
  std::vector<std::pair<double, int>> deadlines_;
  std::vector<int> need_before_;
  std::vector<double> fastest_after_;
  StreamHeap sim_;
  std::vector<std::pair<double, int>> capacity_;  // (time, receivers served after tau up to it)
  double current_tau_ = 0;
  std::vector<std::vector<double>> deadlines_by_depth_;  // per depth: the node's class deadlines
  std::vector<double> child_deadlines_;
  std::vector<std::pair<double, int>> due_;
  std::vector<int> removed_;
  std::vector<double> weights_;      // counting_bound: the remaining receivers' times, ascending
  std::vector<int> slots_by_grid_;   // counting_bound: holder slots per grid cell
  std::vector<int> counts_;          // counting_bound: Ñ per grid point
  std::vector<int> offsets_;         // counting_bound: grid offset of x - k w_i, per (k, i)
  std::vector<double> group_deadline_;  // per class: due before (the node's and the group's classes)
  std::vector<double> saved_deadlines_;  // choose()'s old values

  std::uint64_t memo_hits_ = 0;
  std::uint64_t counting_prunes_ = 0;

  // Parallel search (threads_ > 1; see parallel_pass).
  unsigned threads_ = 1;
  SharedSearch* shared_ = nullptr;              // coordinator's own_shared_, or the coordinator's for a worker
  std::unique_ptr<SharedSearch> own_shared_;
  std::vector<std::unique_ptr<Search>> workers_;
  std::uint64_t local_nodes_ = 0;               // nodes this thread admitted
  std::uint64_t calls_ = 0;                     // admit/check calls (the clock is read every 64)
  bool collecting_ = false;                     // expand() records the nodes at split_depth_
  std::uint64_t last_pass_nodes_ = 0;           // nodes of the previous pass, over all threads
  size_t split_depth_ = 0;
  std::vector<Subproblem> subproblems_;
  bool aborted_ = false;
  bool unwinding_ = false;      // a target pass found its completion
  bool stop_at_first_ = false;  // target pass (vs plain branch-and-bound)
  double cutoff_ = kInfinity;   // completions ending after this are pruned
  double lower_bound_ = 0;      // proven lower bound on the optimum
  bool finished_ = false;
  bool found_ = false;
};

}  // namespace hetcoll::optimal_broadcast_internal
