#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <queue>
#include <thread>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/sender_speed/broadcast/broadcast_search_common.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/broadcast/sequence_local_search.h"
#include "hetcoll/makespan/claims.h"
#include "hetcoll/makespan/search_memo_internal.h"

namespace hetcoll {

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr int kSourceClass = -1;
// Bisection passes aim this fraction of the way from the proven bound to
// the incumbent. Low targets fail (raising the bound) in far fewer nodes
// than the midpoint: on all-distinct times, under a node budget, the gap
// left at n = 30-40 drops by about a quarter against 1/2 (docs/RESULTS.md).
constexpr double kBisectionStep = 0.15;
// With every class a singleton (all-distinct times) the memo stores a
// state only when its subtree took at least this many nodes. There keys
// are long (one holder triple per informed processor) and hits rare (about
// 1 lookup in 100-1000 at n = 25-30), so storing every node filled memory
// (about 100 MB per 200 k nodes) for little: with this threshold a node
// budget runs 1.3-1.6x faster and finishes in about as many nodes
// (docs/RESULTS.md). Storing fewer entries never affects exactness.
constexpr std::uint64_t kSingletonMemoMinNodes = 32;
// The local-search incumbent (sequence_local_search.h) runs for at most
// this many receivers, and not under a time limit shorter than this.
constexpr std::size_t kLocalSearchMaxReceivers = 64;
constexpr double kLocalSearchMinSeconds = 0.1;

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
         double incumbent)
      : problem_(problem),
        options_(options),
        memo_(options.memoize ? options.memo_megabytes * (std::size_t{1} << 20) : 0),
        best_(incumbent),
        budget_(limits) {
    const int k = problem.classes();
    tolerance_ = problem.tolerance;
    quantum_ = tolerance_;
    remaining_ = problem.counts;
    for (int c : remaining_) total_remaining_ += c;
    const size_t max_depth = static_cast<size_t>(total_remaining_) + 2;
    levels_.resize(max_depth);
    allowed_.resize(max_depth);
    take_.resize(max_depth);
    suffix_.resize(max_depth);
    children_.resize(max_depth);
    deadlines_by_depth_.resize(max_depth);
    order_.resize(max_depth);
    keys_.resize(max_depth);
    path_.resize(max_depth);
    history_.assign(static_cast<size_t>(k), {});
    apply_fastest_first_ = options.fastest_first && problem.source_in_fastest_class;
    if (std::all_of(problem.counts.begin(), problem.counts.end(), [](int c) { return c <= 1; })) {
      memo_min_nodes_ = kSingletonMemoMinNodes;
    }
    // The exchange rule lets class a follow a class-b receiver by d only
    // for d in (k b, (k+1) a), k = 0..k_max (k b < (k+1) a); from
    // D(a, b) = (k_max + 1) a on, never.
    last_window_.assign(static_cast<size_t>(k * k), kInfinity);
    for (int a = 0; a < k; ++a) {
      for (int b = a + 1; b < k; ++b) {
        const double ta = problem.class_time[static_cast<size_t>(a)], tb = problem.class_time[static_cast<size_t>(b)];
        double k_max = std::max(0.0, std::ceil((ta - 2 * tolerance_) / (tb - ta)) - 1);
        while (k_max > 0 && !(k_max * tb + tolerance_ < (k_max + 1) * ta - tolerance_)) k_max -= 1;
        while ((k_max + 1) * tb + tolerance_ < (k_max + 2) * ta - tolerance_) k_max += 1;
        last_window_[static_cast<size_t>(a * k + b)] = (k_max + 1) * ta;
        longest_window_ = std::max(longest_window_, (k_max + 1) * ta);
      }
    }
  }

  // The lower bound of the relaxation at the root (before any receiver).
  double root_bound() {
    std::vector<Holders> start{{problem_.source_time, problem_.source_time, kSourceClass, 1}};
    return relaxation_bound(start, nullptr);
  }

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
  void run(double proven_lower_bound) {
    levels_[0] = {{problem_.source_time, problem_.source_time, kSourceClass, 1}};
    lower_bound_ = proven_lower_bound;
    if (total_remaining_ == 0) {
      finished_ = true;
      return;
    }
    if (threads_ > 1) start_parallel();
    constexpr int kTargetPasses = 8;
    constexpr double kPlainGap = 0.01;
    for (int pass = 0;; ++pass) {
      if (lower_bound_ >= best_ - tolerance_) break;  // the incumbent is optimal
      const bool ida = options_.iterative_targets && pass < kTargetPasses;
      const bool bisect = options_.iterative_targets && !ida && std::isfinite(best_) &&
                          best_ - lower_bound_ > kPlainGap * best_;
      const bool plain = !ida && !bisect;
      cutoff_ = plain ? best_ - tolerance_
                      : std::min(ida ? lower_bound_ + tolerance_ : lower_bound_ + (best_ - lower_bound_) * kBisectionStep,
                                 best_ - tolerance_);
      stop_at_first_ = !plain;
      unwinding_ = false;
      const double before = best_;
      // Parallel: the passes after one of options_.parallel_pass_min_nodes+
      // nodes (small passes cost less than starting the threads; either
      // way the pass is exact).
      const std::uint64_t nodes_before = total_nodes();
      if (shared_) shared_->unwind.store(false);  // set by the last pass's completion
      const double value =
          shared_ && last_pass_nodes_ >= options_.parallel_pass_min_nodes ? parallel_pass() : expand(0);
      last_pass_nodes_ = total_nodes() - nodes_before;
      if (aborted_) {
        // Every completion lies in an explored, pruned or open subtree.
        lower_bound_ = std::max(lower_bound_, std::min(value, best_));
        break;
      }
      if (best_ < before && stop_at_first_) {
        if (ida) {
          lower_bound_ = best_;  // found by a target pass: optimal
          break;
        }
        continue;  // a bisection pass lowered the incumbent
      }
      if (plain) {
        lower_bound_ = std::max(lower_bound_, std::min(value, best_));
        break;
      }
      lower_bound_ = std::max(lower_bound_, value);
    }
    finished_ = !aborted_;
  }

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
  void take_shared_best() {
    const double best = shared_->best.load(std::memory_order_relaxed);
    if (best < best_) {
      best_ = best;
      cutoff_ = std::min(cutoff_, best_ - tolerance_);
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
  void record_completion(size_t depth, double tau) {
    if (shared_) {
      std::lock_guard lock(shared_->mutex);
      const double shared_best = shared_->best.load();
      if (!(tau < shared_best - tolerance_)) {  // another thread found one as short
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
    cutoff_ = std::min(cutoff_, best_ - tolerance_);
    if (stop_at_first_) unwinding_ = true;
  }

  // The parallel search (threads_ > 1): this Search coordinates; workers_
  // (one per thread, each with its own buffers, all on shared_) solve the
  // subproblems.
  void start_parallel() {
    own_shared_ = std::make_unique<SharedSearch>(budget_.limits(), best_,
                                                 options_.memoize ? options_.memo_megabytes * (std::size_t{1} << 20) : 0);
    shared_ = own_shared_.get();
    for (unsigned t = 0; t < threads_; ++t) {
      OptimalBroadcastOptions worker_options = options_;
      worker_options.memo_megabytes = 0;  // the shared memo only
      workers_.push_back(std::make_unique<Search>(problem_, SearchLimits{}, worker_options, best_));
      workers_.back()->shared_ = shared_;
      workers_.back()->memo_min_nodes_ = memo_min_nodes_;
    }
  }

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
  double parallel_pass() {
    const size_t per_thread = std::max<std::size_t>(1, options_.subproblems_per_thread);
    SharedSearch& shared = *shared_;
    const double pass_cutoff = cutoff_;
    double value = kInfinity;
    for (split_depth_ = 1;; ++split_depth_) {
      subproblems_.clear();
      collecting_ = true;
      value = expand(0);
      collecting_ = false;
      if (aborted_ || unwinding_ || subproblems_.empty() ||
          subproblems_.size() >= per_thread * threads_ || split_depth_ + 2 >= levels_.size()) {
        break;
      }
    }
    if (!aborted_ && !unwinding_ && !subproblems_.empty()) {
      std::vector<double> results(subproblems_.size());
      for (size_t i = 0; i < subproblems_.size(); ++i) results[i] = subproblems_[i].bound;
      std::atomic<size_t> next{0};
      const bool stop_at_first = stop_at_first_;
      auto work = [&](Search& worker) {
        for (size_t i; (i = next.fetch_add(1)) < subproblems_.size();) {
          if (shared.stop.load() || shared.unwind.load()) break;
          const Subproblem& sub = subproblems_[i];
          if (sub.bound > std::min(pass_cutoff, shared.best.load() - tolerance_)) continue;  // pruned: its bound
          results[i] = worker.solve(sub, pass_cutoff, stop_at_first);
        }
      };
      {
        std::vector<std::jthread> pool;
        for (unsigned t = 1; t < threads_; ++t) pool.emplace_back(work, std::ref(*workers_[t]));
        work(*workers_[0]);
      }
      for (double result : results) value = std::min(value, result);
    } else {
      for (const auto& sub : subproblems_) value = std::min(value, sub.bound);
    }
    aborted_ = shared.stop.load() && !shared.unwind.load();
    {
      std::lock_guard lock(shared.mutex);
      best_ = std::min(best_, shared.best.load());
      found_ = shared.found;
      best_groups_ = shared.best_groups;
    }
    return value;
  }

  // A worker: the subtree of `sub` with the pass's cutoff (lowered by the
  // shared incumbent); returns expand()'s value for it.
  double solve(const Subproblem& sub, double cutoff, bool stop_at_first) {
    levels_[0] = {{problem_.source_time, problem_.source_time, kSourceClass, 1}};
    remaining_ = problem_.counts;
    total_remaining_ = 0;
    for (int c : remaining_) total_remaining_ += c;
    for (auto& ready : history_) ready.clear();
    best_ = std::min(best_, shared_->best.load());
    cutoff_ = std::min(cutoff, best_ - tolerance_);
    stop_at_first_ = stop_at_first;
    unwinding_ = false;
    aborted_ = false;
    const auto k = static_cast<size_t>(problem_.classes());
    for (size_t d = 0; d < sub.depth; ++d) {
      const int* take = &sub.groups[d * k];
      double tau = kInfinity;
      for (const auto& h : levels_[d]) tau = std::min(tau, h.next);
      apply_child(d, tau, take);
      path_[d].assign(take, take + k);
    }
    const double value = expand(sub.depth, sub.known_bound);
    unwinding_ = false;
    aborted_ = false;
    return value;
  }
  double last_window(int a, int b) const { return last_window_[static_cast<size_t>(a * problem_.classes() + b)]; }

  // Exchange rule: may a receiver of class a be served at tau? Only if,
  // after every slower receiver q (ready r), d = tau - r is 0 (same slot
  // group) or lies in some window (k t_b, (k+1) t_a), i.e.
  // floor(d / t_a) < ceil(d / t_b).
  bool exchange_allows(int a, double tau) const {
    if (!options_.exchange_rule) return true;
    const double ta = time(a);
    for (int b = a + 1; b < problem_.classes(); ++b) {
      const auto& ready = history_[static_cast<size_t>(b)];
      if (ready.empty()) continue;
      if (tau - ready.front() >= last_window(a, b) - tolerance_) return false;
      const double tb = time(b);
      for (auto it = ready.rbegin(); it != ready.rend(); ++it) {
        const double d = tau - *it;
        if (d <= tolerance_) continue;  // same slot group: order inside a group is free
        const double k = std::floor(d / tb);
        if (!(d > k * tb + tolerance_ && d < (k + 1) * ta - tolerance_)) return false;
      }
    }
    return true;
  }

  // The time from which class a can never be served again (infinity: no
  // such time yet), from the receivers already informed.
  double deadline(int a) const {
    if (!options_.exchange_rule) return kInfinity;
    double earliest = kInfinity;
    for (int b = a + 1; b < problem_.classes(); ++b) {
      const auto& ready = history_[static_cast<size_t>(b)];
      if (!ready.empty()) earliest = std::min(earliest, ready.front() + last_window(a, b));
    }
    return earliest;
  }

  // Relaxation bound (see the header): every completion of the state ends at
  // or after the returned time; infinity when no completion can exist.
  // `class_deadlines`: per class, the time from which it may no longer be
  // served (nullptr: ignore deadlines).
  double relaxation_bound(const std::vector<Holders>& holders,
                          const std::vector<double>* class_deadlines) {
    const int k = problem_.classes();
    // (deadline, class) of the classes with receivers left and a finite
    // deadline, by deadline; then the fastest class without one (the
    // others without one are never reached: the simulation stops there).
    deadlines_.clear();
    int fastest_free = -1;
    for (int c = 0; c < k; ++c) {
      if (remaining_[static_cast<size_t>(c)] == 0) continue;
      const double due = class_deadlines ? (*class_deadlines)[static_cast<size_t>(c)] : kInfinity;
      if (due < kInfinity) {
        deadlines_.push_back({due, c});
      } else if (fastest_free < 0) {
        fastest_free = c;
      }
    }
    std::sort(deadlines_.begin(), deadlines_.end());
    if (fastest_free >= 0) deadlines_.push_back({kInfinity, fastest_free});
    // need_before[i]: receivers that must be served before deadlines_[i];
    // fastest_after[i]: the fastest time among deadlines_[i..].
    need_before_.assign(deadlines_.size(), 0);
    fastest_after_.assign(deadlines_.size() + 1, kInfinity);
    int need = 0;
    for (size_t i = 0; i < deadlines_.size(); ++i) {
      need += remaining_[static_cast<size_t>(deadlines_[i].second)];
      need_before_[i] = need;
    }
    for (size_t i = deadlines_.size(); i-- > 0;) {
      fastest_after_[i] = std::min(fastest_after_[i + 1], time(deadlines_[i].second));
    }
    sim_.reset(holders);
    int served = 0;
    size_t next_deadline = 0;
    while (true) {
      const double x = sim_.earliest();
      while (next_deadline < deadlines_.size() && deadlines_[next_deadline].first <= x + tolerance_) {
        if (served < need_before_[next_deadline]) return kInfinity;
        ++next_deadline;
      }
      // The fastest class with receivers left that may still be served at x.
      const double relaxed_time = fastest_after_[next_deadline];
      if (relaxed_time == kInfinity) return kInfinity;
      const int slots = sim_.take_due(x + tolerance_);
      const int give = std::min(slots, total_remaining_ - served);
      served += give;
      if (served == total_remaining_) return x;
      sim_.push({x + relaxed_time, relaxed_time, give});
    }
  }

  // Fluid bound (see the header): the informed count N(x) of any completion
  // satisfies N(x) <= S(x) + integral_tau^x G(N(y)) dy, where S counts the
  // holders' slots up to x and G(m) sums the m largest rates 1/t of the
  // remaining receivers (linear between integers, so concave and
  // nondecreasing). By comparison N <= U, the solution of the equality,
  // which is exponential between slot times and class boundaries; every
  // completion therefore ends no earlier than the time U reaches K.
  double fluid_bound(const std::vector<Holders>& holders, double tau) {
    const int k = problem_.classes();
    const double target = total_remaining_;
    sim_.reset(holders);
    double x = tau, u = 0;
    // The class piece u lies in: u only grows, so it only moves on.
    double below = 0, rate_below = 0;  // mass and rate of the faster classes
    int c = 0;
    while (true) {
      // Holder slots at x join at once.
      u += sim_.take_due(x + tolerance_);
      const double next_event = sim_.earliest();
      if (u >= target) return x;
      // Integrate u' = G(u) from x to next_event, one class piece at a time.
      while (true) {
        for (; c < k; ++c) {
          const double n = remaining_[static_cast<size_t>(c)];
          if (u < below + n) break;
          below += n;
          rate_below += n / time(c);
        }
        if (c == k) return x;  // cannot happen: u < target
        const double t = time(c);
        const double piece_end = std::min(below + remaining_[static_cast<size_t>(c)], target);
        // w = u - below + rate_below t grows as exp((x - x0) / t).
        const double w0 = u - below + rate_below * t;
        const double w1 = piece_end - below + rate_below * t;
        if (w0 <= 0) {  // nobody informed yet: nothing grows before the next slot
          if (next_event == kInfinity) return kInfinity;
          x = next_event;
          break;
        }
        const double reach = x + t * std::log(w1 / w0);
        if (reach <= next_event) {
          x = reach;
          u = piece_end;
          if (u >= target) return x;
          continue;
        }
        if (next_event == kInfinity) return kInfinity;
        u = below - rate_below * t + w0 * std::exp((next_event - x) / t);
        x = next_event;
        break;
      }
    }
  }


  // The remaining class counts are not part of the key: every informed
  // receiver is a holder (holders are never dropped), so the holders'
  // classes and counts determine them (remaining = initial - held).
  void build_key(const std::vector<Holders>& holders, double tau) {
    key_.clear();
    for (const auto& h : holders) {
      key_.push_back(h.cls);
      key_.push_back(std::llround((h.next - tau) / quantum_));
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
        key_.push_back(std::llround(age / quantum_));
      }
    }
  }

  // Explores the node whose holders are levels_[depth] and returns a lower
  // bound on every completion of it (infinity: none is valid); completions
  // ending by cutoff_ become the incumbent. Sets aborted_ when a limit stops
  // the search, unwinding_ when a target pass found its completion.
  // A child whose bound was evaluated (known_bound) was counted then.
  // When a limit stops the search the value is still a proven bound on
  // every completion of the node: the smallest over what was explored or
  // pruned and the bounds of the subtrees left open (at worst the node's
  // own bound), so the run's bound is the minimum over its open nodes.
  double expand(size_t depth, double known_bound = -kInfinity) {
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
      if (h.next <= tau + tolerance_) slots += h.count;
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
        if (node_deadlines[static_cast<size_t>(c)] <= tau + tolerance_) return kInfinity;  // never servable again
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
      if (tau < best_ - tolerance_) record_completion(depth, tau);
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

  // The bound of a node: the relaxation, and the fluid bound when the
  // relaxation alone does not reach the cutoff.
  double node_bound(const std::vector<Holders>& holders, double tau, const std::vector<double>* class_deadlines) {
    double bound = std::max(tau, relaxation_bound(holders, class_deadlines));
    if (bound <= cutoff_) bound = std::max(bound, fluid_bound(holders, tau));
    if (options_.counting_bound && bound <= cutoff_) {
      bound = std::max(bound, counting_bound(holders, tau));
      if (bound > cutoff_) ++counting_prunes_;
    }
    return bound;
  }

  // Counting bound (see the header): on the grid x_g = tau + g h (h at most
  // half the fastest remaining time), counts_[g] >= N(x) for every x in
  // (x_{g-1}, x_g] and every completion. Returns x_{g-1} for the first g
  // whose count reaches the receivers left (no completion informs them all
  // by x_{g-1}), or the grid's end (just past the cutoff) if none does.
  // O(grid x k_max x receivers left), k_max = (cutoff - tau) / fastest time;
  // only evaluated when the relaxation and fluid bounds do not prune.
  double counting_bound(const std::vector<Holders>& holders, double tau) {
    const int m = total_remaining_;
    if (m == 0) return tau;
    weights_.clear();
    for (int c = 0; c < problem_.classes(); ++c) {
      weights_.insert(weights_.end(), static_cast<size_t>(remaining_[static_cast<size_t>(c)]), time(c));
    }
    const double w_min = weights_.front();
    const double end = cutoff_ + 0.02 * (cutoff_ - tau) + tolerance_;
    if (!(end > tau) || !std::isfinite(end)) return tau;
    constexpr int kGrid = 512;
    double h = (end - tau) / kGrid;
    if (h >= 0.5 * w_min) h = 0.5 * w_min;
    const int grid = static_cast<int>(std::ceil((end - tau) / h));
    slots_by_grid_.assign(static_cast<size_t>(grid) + 1, 0);
    for (const auto& holder : holders) {
      for (double slot = holder.next; slot <= end + tolerance_; slot += holder.period) {
        const double index = std::ceil((slot - tolerance_ - tau) / h);
        const int g = index <= 0 ? 0 : static_cast<int>(index);
        if (g <= grid) slots_by_grid_[static_cast<size_t>(g)] += holder.count;
      }
    }
    // The argument x_g - k w_i (+ tolerance), rounded up to the grid, is
    // the point g - offset(k, i): offset = floor((k w_i - tolerance) / h),
    // taken a hair smaller so that rounding never moves an index down.
    const int k_max = static_cast<int>((end - tau) / w_min) + 1;
    const size_t width = static_cast<size_t>(m);
    offsets_.resize(static_cast<size_t>(k_max) * width);
    for (int k = 1; k <= k_max; ++k) {
      for (size_t i = 0; i < width; ++i) {
        offsets_[static_cast<size_t>(k - 1) * width + i] =
            static_cast<int>(std::floor((k * weights_[i] - tolerance_) / h - 1e-7));  // >= 2 as h <= w_i / 2
      }
    }
    counts_.assign(static_cast<size_t>(grid) + 1, 0);
    int held = 0;
    for (int g = 0; g <= grid; ++g) {
      held += slots_by_grid_[static_cast<size_t>(g)];
      long total = held;
      for (int k = 1; k <= k_max && total < m; ++k) {
        // G_k: the largest m' with m' - i <= Ñ(x - k w_i) for every i < m'.
        const int* offset = &offsets_[static_cast<size_t>(k - 1) * width];
        int most = std::numeric_limits<int>::max();
        int fit = 0;
        for (size_t i = 0; i < width; ++i) {
          const int index = g - offset[i];
          const int n_y = index < 0 ? 0 : counts_[static_cast<size_t>(index)];  // index 0: may round up from below tau
          most = std::min(most, static_cast<int>(i) + n_y);
          if (most < static_cast<int>(i) + 1) break;
          fit = static_cast<int>(i) + 1;
        }
        if (fit == 0) break;  // larger k only lowers every argument
        total += fit;
      }
      counts_[static_cast<size_t>(g)] = static_cast<int>(std::min<long>(total, m));
      if (counts_[static_cast<size_t>(g)] >= m) return g == 0 ? tau : tau + (g - 1) * h;
    }
    return tau + grid * h;
  }

  // Serving class b at tau makes every faster receiver left over (classes
  // a < b, not served at tau) due before tau + D(a, b) (exchange rule).
  // capacity_ holds, for the node being expanded, an upper bound on how many
  // receivers any completion can serve after tau and before a given time:
  // the relaxation in which the group gets its fastest possible composition
  // and everyone after it the fastest remaining time. A composition whose leftovers cannot all meet their
  // deadlines has no valid completion and is never generated.
  void build_capacity(const std::vector<Holders>& holders, double tau, int slots, const std::vector<int>& allowed) {
    capacity_.clear();
    if (allowed.empty()) return;
    double fastest_remaining = kInfinity;
    for (int c = 0; c < problem_.classes(); ++c) {
      if (remaining_[static_cast<size_t>(c)] > 0) fastest_remaining = std::min(fastest_remaining, time(c));
    }
    sim_.reset(holders);
    sim_.take_due(tau + tolerance_);  // the slots at tau serve the group
    // The group's fastest possible composition: elementwise no slower than any.
    int group_left = slots;
    for (int c : allowed) {
      const int x = std::min(group_left, remaining_[static_cast<size_t>(c)]);
      if (x > 0) sim_.push({tau + time(c), time(c), x});
      group_left -= x;
    }
    int served = 0;
    const int after_group = total_remaining_ - slots;
    const double horizon = longest_window_;  // deadlines reach at most max D(a, b) past tau
    while (served < after_group) {
      const double x = sim_.earliest();
      if (x >= tau + horizon) break;
      const int found = sim_.take_due(x + tolerance_);
      const int give = std::min(found, after_group - served);
      served += give;
      capacity_.push_back({x, served});
      sim_.push({x + fastest_remaining, fastest_remaining, give});
    }
  }

  // The group being composed serves class b: every faster class a < b
  // left over becomes due before tau + D(a, b) (exchange rule).
  // group_deadline_[a] is the node's deadline of a, lowered so by the
  // classes chosen so far; unchoose restores it (a stack of old values).
  void choose(int b) {
    for (int a = 0; a < b; ++a) {
      double& deadline = group_deadline_[static_cast<size_t>(a)];
      saved_deadlines_.push_back(deadline);
      deadline = std::min(deadline, current_tau_ + last_window(a, b));
    }
  }

  void unchoose(int b) {
    for (int a = b; a-- > 0;) {
      group_deadline_[static_cast<size_t>(a)] = saved_deadlines_.back();
      saved_deadlines_.pop_back();
    }
  }

  // Can the receivers the group leaves over in classes 0..last (the group's
  // counts for them are decided in `take`; 0 for classes not allowed at
  // tau) still meet their deadlines? A class a is due before the deadline
  // set by earlier receivers (history) and before tau + D(a, b) for every
  // slower class b the group serves.
  bool leftovers_fit(const std::vector<int>& take, int last) {
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
      while (event < capacity_.size() && capacity_[event].first < due[i].first - tolerance_) ++event;
      const int capacity = event == 0 ? 0 : capacity_[event - 1].second;
      if (total > capacity) return false;
    }
    return true;
  }

  // Appends every composition reachable from this prefix to children_[depth].
  // Classes are decided fastest first; once a prefix is decided and several
  // completions remain, a bound valid for all of them (partial_bound) may
  // prune the whole range. `value` collects the bounds of pruned ranges.
  void collect(size_t depth, double tau, const std::vector<int>& allowed, const std::vector<int>& suffix,
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

  // A lower bound on every child whose composition extends take_buffer(depth)
  // (decided for allowed[0..index)) with `left` more receivers from
  // allowed[index..]: those receivers get the fastest of these times, and
  // the receivers left after the group are the remaining ones minus the
  // `left` slowest candidates — elementwise no slower than in any such
  // child. Lowering times never delays anyone, and the relaxation without
  // deadlines and the fluid bound hold for every completion.
  double partial_bound(size_t depth, double tau, const std::vector<int>& allowed, size_t index, int left) {
    const std::vector<int>& take = take_buffer(depth);
    std::vector<Holders>& child = levels_[depth + 1];
    child.clear();
    for (const auto& h : levels_[depth]) {
      Holders next = h;
      if (h.next <= tau + tolerance_) next.next += h.period;
      child.push_back(next);
    }
    const int k = problem_.classes();
    removed_.assign(static_cast<size_t>(k), 0);
    for (int c = 0; c < k; ++c) removed_[static_cast<size_t>(c)] = take[static_cast<size_t>(c)];
    const int fastest_open = allowed[index];
    child.push_back({tau + time(fastest_open), time(fastest_open), fastest_open, left});
    int to_remove = left;
    for (size_t i = allowed.size(); i-- > index && to_remove > 0;) {
      const auto c = static_cast<size_t>(allowed[i]);
      const int x = std::min(to_remove, remaining_[c] - removed_[c]);
      removed_[c] += x;
      to_remove -= x;
    }
    for (int c = 0; c < k; ++c) {
      const auto cls = static_cast<size_t>(c);
      if (take[cls] > 0) child.push_back({tau + time(c), time(c), c, take[cls]});
      remaining_[cls] -= removed_[cls];
      total_remaining_ -= removed_[cls];
    }
    double child_tau = kInfinity;
    for (const auto& h : child) child_tau = std::min(child_tau, h.next);
    double bound = child_tau;
    if (total_remaining_ > 0) {
      bound = std::max(bound, relaxation_bound(child, nullptr));
      if (bound <= cutoff_) bound = std::max(bound, fluid_bound(child, child_tau));
    }
    for (int c = 0; c < k; ++c) {
      remaining_[static_cast<size_t>(c)] += removed_[static_cast<size_t>(c)];
      total_remaining_ += removed_[static_cast<size_t>(c)];
    }
    return bound;
  }

  // Builds the child of levels_[depth] whose group at tau takes `take`
  // receivers per class into levels_[depth + 1]; undo_child reverts the
  // counts and ready times.
  void apply_child(size_t depth, double tau, const int* take) {
    std::vector<Holders>& child = levels_[depth + 1];
    const std::vector<Holders>& holders = levels_[depth];
    child.clear();
    for (const auto& h : holders) {
      Holders next = h;
      if (h.next <= tau + tolerance_) next.next += h.period;
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
          std::fabs(child[out - 1].next - child[i].next) <= tolerance_) {
        child[out - 1].count += child[i].count;
      } else {
        child[out++] = child[i];
      }
    }
    child.resize(out);
  }

  void undo_child(size_t depth, const int* take) {
    (void)depth;
    for (int c = 0; c < problem_.classes(); ++c) {
      const int x = take[c];
      if (x == 0) continue;
      remaining_[static_cast<size_t>(c)] += x;
      total_remaining_ += x;
      history_[static_cast<size_t>(c)].pop_back();
    }
  }

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
  double tolerance_ = 0;
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

}  // namespace

std::vector<Transfer> no_delay_transfers(const Cluster& cluster, ProcessorIndex source,
                                         const std::vector<ProcessorIndex>& sequence) {
  struct Pending {
    double finish;
    double send_time;
    ProcessorIndex sender;
    bool operator>(const Pending& other) const {
      if (finish != other.finish) return finish > other.finish;
      if (send_time != other.send_time) return send_time > other.send_time;
      return sender > other.sender;
    }
  };
  const double tolerance = cluster.tolerance();
  // Ties within the tolerance (core/ids.h), so that rounding noise (decimal
  // times, rescaled instances) never changes who serves whom: of the
  // holders whose next send ends within the tolerance of the earliest, the
  // faster sender serves, then the lower index.
  auto preferred = [&](const Pending& a, const Pending& b) {
    if (!time_equal(a.send_time, b.send_time, tolerance)) return a.send_time < b.send_time;
    return a.sender < b.sender;
  };
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> holders;
  holders.push({cluster.transmission_time(source), cluster.transmission_time(source), source});
  std::vector<Transfer> transfers;
  transfers.reserve(sequence.size());
  std::vector<Pending> tied;
  for (ProcessorIndex receiver : sequence) {
    tied.clear();
    tied.push_back(holders.top());
    holders.pop();
    while (!holders.empty() && holders.top().finish <= tied.front().finish + tie_tolerance(tied.front().finish, tied.front().finish, tolerance)) {
      tied.push_back(holders.top());
      holders.pop();
    }
    auto chosen = std::min_element(tied.begin(), tied.end(), preferred);
    const Pending send = *chosen;
    tied.erase(chosen);
    for (const auto& other : tied) holders.push(other);
    transfers.push_back({send.sender, receiver, send.finish - send.send_time, send.finish, Payload::broadcast_value});
    holders.push({send.finish + send.send_time, send.send_time, send.sender});
    const double t = cluster.transmission_time(receiver);
    holders.push({send.finish + t, t, receiver});
  }
  return transfers;
}

BroadcastSearchResult optimal_broadcast(const Cluster& cluster, ProcessorIndex source,
                                        const std::vector<ProcessorIndex>& receivers, const SearchLimits& limits,
                                        double incumbent, const OptimalBroadcastOptions& options) {
  const auto started = Clock::now();
  ClassProblem problem = make_class_problem(cluster, source, receivers);
  BroadcastSearchResult result;
  if (receivers.empty()) {
    result.makespan = 0;
    return result;
  }
  double best = incumbent;
  std::vector<Transfer> best_transfers;
  if (options.fnf_incumbent) {
    std::vector<Transfer> fnf = fnf_transfers(cluster, source, receivers);
    const double fnf_makespan = last_completion(fnf);
    if (fnf_makespan < best) {
      best = fnf_makespan;
      best_transfers = std::move(fnf);
    }
  }
  // Mostly distinct times: improve FNF's sequence by pairwise interchanges
  // (sequence_local_search.h) for a better first incumbent. Bounded work,
  // deterministic; skipped under a short time limit.
  if (options.fnf_incumbent && options.local_search_evaluations > 0 && receivers.size() >= 4 &&
      receivers.size() <= kLocalSearchMaxReceivers && 2 * problem.classes() >= static_cast<int>(receivers.size()) &&
      (!limits.has_time_limit() || limits.time_limit_seconds >= kLocalSearchMinSeconds)) {
    std::vector<Transfer> start = best_transfers.empty() ? fnf_transfers(cluster, source, receivers) : best_transfers;
    std::stable_sort(start.begin(), start.end(), [](const Transfer& a, const Transfer& b) { return a.end < b.end; });
    std::vector<ProcessorIndex> sequence;
    for (const auto& transfer : start) sequence.push_back(transfer.to);
    improve_sequence_by_swaps(cluster, source, sequence, options.local_search_evaluations);
    std::vector<Transfer> improved = no_delay_transfers(cluster, source, sequence);
    const double makespan = last_completion(improved);
    if (time_less(makespan, best, problem.tolerance)) {
      best = makespan;
      best_transfers = std::move(improved);
    }
  }
  Search search(problem, limits, options, best);
  search.set_threads(resolved_threads(limits));
  // The doubling bound of bounds.h on {source} ∪ receivers, and the root
  // relaxation.
  const double fastest = std::min(problem.source_time, problem.class_time.front());
  const double doubling = problem.source_time + fastest * (ceil_log2(problem.receiver_count() + 1) - 1);
  const double root_bound = std::max(doubling, options.relaxation_bound ? search.root_bound() : 0.0);
  search.run(root_bound);
  if (search.found()) {
    best_transfers = no_delay_transfers(cluster, source, sequence_of_groups(problem, search.best_groups()));
    best = last_completion(best_transfers);
  }
  result.transfers = std::move(best_transfers);
  result.makespan = result.transfers.empty() ? incumbent : best;
  result.status = search.status();
  // Proven for every schedule (no cap at the makespan: verify/ must see a
  // wrong bound). When the search finished it meets the makespan up to the
  // tolerance.
  result.lower_bound = std::max(root_bound, search.lower_bound());
  result.stats.nodes = search.total_nodes();
  result.used_fastest_first = options.fastest_first && problem.source_in_fastest_class;
  result.memo_hits = search.memo_hits();
  result.memo_entries = search.memo_entries();
  result.counting_prunes = search.counting_prunes();
  result.stats.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

MakespanPlan plan_broadcast_optimal(const Cluster& cluster, ProcessorIndex source, const SearchLimits& limits,
                                    const OptimalBroadcastOptions& options) {
  std::vector<ProcessorIndex> receivers;
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != source) receivers.push_back(p);
  }
  OptimalBroadcastOptions with_fnf = options;
  with_fnf.fnf_incumbent = true;  // the plan must never be worse than FNF
  BroadcastSearchResult result = optimal_broadcast(cluster, source, receivers, limits, kInfinity, with_fnf);
  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.algorithm = "optimal";
  plan.root = source;
  plan.transfers = std::move(result.transfers);
  plan.makespan = last_completion(plan.transfers);
  plan.stats = result.stats;
  plan.status = result.status;
  // Never worse than FNF (its first incumbent): FNF's guarantee always holds.
  const bool source_is_fastest = time_leq(cluster.transmission_time(source), cluster.fastest_time(), cluster.tolerance());
  plan.guarantee = Guarantee::at_most(source_is_fastest ? 1.5 : 2.0);
  const double proven = std::max(result.lower_bound, broadcast_lower_bound(cluster, source));
  settle_claims(plan, proven, cluster.tolerance(),
                result.complete()
                    ? fmt::format("branch-and-bound finished ({} nodes): Liu 2002 eq. 1 / Thm 4.1 sequences, exchange "
                                  "rule, {}proven lower bounds",
                                  result.stats.nodes, result.used_fastest_first ? "Thm 4.3, " : "")
                    : kBoundMetProof);
  if (!result.complete()) {
    plan.notes.push_back(fmt::format("search stopped ({}) after {} nodes: best schedule so far (at worst FNF)",
                                     to_string(result.status), result.stats.nodes));
  } else {
    settle_merged_classes(plan, "search");
  }
  return plan;
}

}  // namespace hetcoll
