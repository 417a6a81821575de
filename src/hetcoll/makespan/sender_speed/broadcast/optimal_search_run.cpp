// The exact broadcast search (optimal_search.h): optimal_broadcast(), its
// first incumbent, and the passes that drive the search.
//
// Search order: target passes (IDA*-like): search for a completion ending
// by the proven lower bound (+ tolerance); a failed pass proves the optimum
// at least the smallest bound it pruned, the next target; the first
// completion found is optimal. After 8 passes (slowly creeping targets,
// many distinct times) bisection passes take the target 15% of the way
// from the proven bound to the incumbent: each either finds a schedule
// ending by it (the incumbent drops) or proves the optimum above it, so the
// gap shrinks by at least 15% per pass (a low target fails in far fewer
// nodes than the midpoint); once the gap is within 1% of the incumbent,
// one plain branch-and-bound pass against the incumbent finishes. Children
// are visited by increasing bound (ties: FNF order, fastest classes first).
// Global bound when a limit stops the search: every completion lies in an
// explored or pruned subtree (bounded by what it returned) or in an open
// one (bounded by its own or its parent's bound), so the minimum of these
// is proven; the bound reported is the best of it and the finished passes.

#include "hetcoll/makespan/sender_speed/broadcast/optimal_search.h"

#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/broadcast/optimal_search_internal.h"
#include "hetcoll/makespan/sender_speed/broadcast/sequence_local_search.h"

namespace hetcoll {

namespace optimal_broadcast_internal {

namespace {

// Bisection passes aim this fraction of the way from the proven bound to
// the incumbent: a low target fails (raising the bound) in far fewer nodes
// than the midpoint.
constexpr double kBisectionStep = 0.15;
// With every class a singleton (all-distinct times) the memo stores a
// state only when its subtree took at least this many nodes: there keys
// are long (one holder triple per informed processor) and hits rare, so
// storing every node fills memory for little. Storing fewer entries never
// affects exactness.
constexpr std::uint64_t kSingletonMemoMinNodes = 32;
// The local-search incumbent (sequence_local_search.h) runs for at most
// this many receivers, and not under a time limit shorter than this.
constexpr std::size_t kLocalSearchMaxReceivers = 64;
constexpr double kLocalSearchMinSeconds = 0.1;

}  // namespace

Search::Search(const ClassProblem& problem, const SearchLimits& limits, const OptimalBroadcastOptions& options,
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
      // (Ties at the size of the windows compared, as in exchange_allows.)
      auto inside = [&](double k_b) { return k_b * tb + tie(k_b * tb) < (k_b + 1) * ta - tie(k_b * tb); };
      double k_max = std::max(0.0, std::ceil((ta - 2 * tie(ta)) / (tb - ta)) - 1);
      while (k_max > 0 && !inside(k_max)) k_max -= 1;
      while (inside(k_max + 1)) k_max += 1;
      last_window_[static_cast<size_t>(a * k + b)] = (k_max + 1) * ta;
      longest_window_ = std::max(longest_window_, (k_max + 1) * ta);
    }
  }
}

double Search::root_bound() {
  std::vector<Holders> start{{problem_.source_time, problem_.source_time, kSourceClass, 1}};
  return relaxation_bound(start, nullptr);
}

void Search::run(double proven_lower_bound) {
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
    if (lower_bound_ >= below(best_)) break;  // the incumbent is optimal
    const bool ida = options_.iterative_targets && pass < kTargetPasses;
    const bool bisect = options_.iterative_targets && !ida && std::isfinite(best_) &&
                        best_ - lower_bound_ > kPlainGap * best_;
    const bool plain = !ida && !bisect;
    cutoff_ = plain ? below(best_)
                    : std::min(ida ? lower_bound_ + tie_tolerance(lower_bound_, lower_bound_, tolerance_)
                                   : lower_bound_ + (best_ - lower_bound_) * kBisectionStep,
                               below(best_));
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

}  // namespace optimal_broadcast_internal

using optimal_broadcast_internal::Clock;
using optimal_broadcast_internal::kLocalSearchMaxReceivers;
using optimal_broadcast_internal::kLocalSearchMinSeconds;
using optimal_broadcast_internal::Search;


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

}  // namespace hetcoll
