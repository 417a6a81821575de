// The parallel exact broadcast search (optimal_search.h): a pass split into
// subproblems that the threads share.
//
// Parallel search (SearchLimits::threads T > 1; default 1 = the serial
// search of optimal_search_run.cpp, unchanged). Each pass after one of 2000+ nodes
// (OptimalBroadcastOptions::parallel_pass_min_nodes; smaller ones run on
// the calling thread: starting threads would cost more) runs on T
// threads: this thread
// explores the tree down to a split depth (the shallowest giving at least
// OptimalBroadcastOptions::subproblems_per_thread x T nodes there, 32 x T
// by default) and records the nodes at that depth as subproblems, in the
// serial visiting order; the threads take them in that order (an atomic
// index) and explore each with expand(), as the serial search would below
// that node. Shared: the node limit (one atomic count, exact), the clock,
// the incumbent (an atomic read at every node: a completion any thread
// finds lowers every thread's cutoff at once), the best sequence (under a
// mutex) and the memo (64 shards by hash, a mutex each). Why it is exact:
// (1) the subproblems with the nodes the collection itself pruned, ended
// or stored cover every node at the split depth, hence every completion;
// (2) a subproblem's value is what expand() returns on that node, a proven
// bound on every completion below it whatever the cutoff it ran with (a
// subproblem skipped because its bound exceeds the cutoff, or never
// started, counts its parent's bound; an interrupted one its partial value,
// which already counts its open children's bounds); (3) the pass's value is
// the minimum of these and of what the collection pruned — exactly the
// minimum the serial expand(0) takes, only in another order — so failed
// passes raise the proven bound by the same rule, and a stopped parallel
// search reports the minimum over its unfinished subproblems' bounds,
// never more; (4) pruning against the shared incumbent discards only
// completions no shorter than one already found, as the serial search does
// with its own; memo values are proven bounds whichever thread stored
// them. A target pass ends when any thread finds a completion within its
// target (the others stop: their values are then not used).
// What threads > 1 makes non-deterministic: which optimal plan is returned
// (ties between optimal sequences, and the first completion found in a
// target pass, depend on the threads' timing), the node count and memo
// statistics, and — under a node or time limit, or the progress callback —
// the plan and bound of a stopped run. The optimum of a finished run is
// not (it is the optimum). With T = 1 a node limit gives the same nodes,
// plan and bound on every run; a time limit never does (it stops wherever
// the machine's speed and load put the search), with any T. The progress
// callback may be called from any of the threads (never two at once).
// Cost: the nodes above the split depth are explored again each time the
// split deepens (a few hundred nodes per pass at most), and a worker
// replays its subproblem's groups from the root (O(depth x holders)).

#include "hetcoll/makespan/sender_speed/broadcast/optimal_search_internal.h"

#include <thread>

namespace hetcoll::optimal_broadcast_internal {

void Search::start_parallel() {
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

double Search::parallel_pass() {
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
        if (sub.bound > std::min(pass_cutoff, below(shared.best.load()))) continue;  // pruned: its bound
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

double Search::solve(const Subproblem& sub, double cutoff, bool stop_at_first) {
  levels_[0] = {{problem_.source_time, problem_.source_time, kSourceClass, 1}};
  remaining_ = problem_.counts;
  total_remaining_ = 0;
  for (int c : remaining_) total_remaining_ += c;
  for (auto& ready : history_) ready.clear();
  best_ = std::min(best_, shared_->best.load());
  cutoff_ = std::min(cutoff, below(best_));
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

}  // namespace hetcoll::optimal_broadcast_internal
