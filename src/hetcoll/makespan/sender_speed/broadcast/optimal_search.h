// Exact optimal broadcast by branch-and-bound — Liu, "Broadcast scheduling
// optimization for heterogeneous cluster systems", 2002, sec. 5 (Table 1),
// with a stronger (proven) exchange rule, relaxation, fluid and counting
// bounds, target passes, memoisation and an optional parallel search.
//
// Problem: sender-speed cluster, a given source s (any processor, fast or
// slow) holding one message, a set R of receivers (all other processors for
// a broadcast; any subset for exact multicast); minimise the time the last
// receiver has the message.
// Model: a holder sends to one receiver at a time, each send of p taking
// t(p); times within the cluster tolerance (core/ids.h) are equal.
// Method: an optimal schedule is a no-delay receiver sequence (Liu 2002
// eq. 1, Thm 4.1). The search branches one slot time at a time on the
// multiset of receiver classes (equal times) served there; dominance rules
// (a generalised exchange rule, Liu 2002 Thm 4.3 fastest-first when the
// source has the fastest time, group-composition deadlines) and proven
// lower bounds (relaxation, fluid, counting, partial compositions, memo)
// prune it. First incumbent: FNF, its sequence improved by pairwise
// interchanges for mostly distinct times (sequence_local_search.h). The
// proofs open optimal_search_branching.cpp and optimal_search_bounds.cpp;
// the search order optimal_search_run.cpp; the parallel search's exactness
// argument optimal_search_parallel.cpp.
// Guarantee: exact when the search finishes (optimal = true, lower_bound =
// makespan; makespan/claims.h). With a node/time limit or a progress
// callback returning false (core/limits.h) it returns the best schedule so
// far (at worst FNF: <= 2 x optimal, Liu 2002 Thm 4.7; <= 1.5 from a
// fastest source) with its status and the best proven lower bound.
// Threads (SearchLimits::threads > 1) keep the search exact; which optimal
// plan is returned, the node count, and a stopped run's plan and bound then
// depend on the threads' timing. With one thread a node limit is
// deterministic.
// Complexity: exponential in the worst case (NP-hard: Khuller, Kim,
// Woeginger, "Approximation schemes for broadcasting in heterogeneous
// networks", 2003, sec. 1); per node O(k^2 + holders) plus the bounds'
// simulations, O(slot times x log streams), and the counting bound's
// O(512 x k_max x receivers left) when evaluated. Memory: O(n k) plus the
// memo budget. stats.nodes counts every child whose bound is evaluated,
// every child explored without one and every partial composition bounded;
// a node limit N stops after exactly N nodes (0: the root bound met FNF).
// Hard cases: many distinct times (every processor its own class).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// The search's techniques, all on by default; switch them off for ablation
// experiments and for tests that cross-check the rules against each other.
struct OptimalBroadcastOptions {
  bool fastest_first = true;     // Thm 4.3 (applied only when the source is in the fastest class)
  bool exchange_rule = true;     // generalised Lemma 4.2 / Thm 4.2 exchange
  bool relaxation_bound = true;  // relaxation + deadline bound
  bool counting_bound = true;    // the floor-exact counting bound (with relaxation_bound)
  bool memoize = true;
  bool fnf_incumbent = true;     // start from FNF's makespan
  // Pairwise-interchange local search from FNF's sequence (mostly distinct
  // times, <= 64 receivers): at most this many evaluations; 0 = off.
  std::size_t local_search_evaluations = 4000;
  bool iterative_targets = true; // target passes from the lower bound up (else plain B&B)
  std::size_t memo_megabytes = 128;  // memo memory budget (then no more insertions)
  // Parallel search (SearchLimits::threads > 1): the tree is split at the
  // shallowest depth with at least this many subproblems per thread (tests
  // set 1 to hand small trees to the threads).
  std::size_t subproblems_per_thread = 32;
  // ... and a pass runs on the threads only after a pass of at least this
  // many nodes (tests set 0 to run every pass on the threads).
  std::uint64_t parallel_pass_min_nodes = 2000;
};

struct BroadcastSearchResult {
  // The best schedule found that beats the incumbent (FNF's, or the given
  // one if smaller); empty when nothing does. Starts at time 0 at the source.
  std::vector<Transfer> transfers;
  double makespan = std::numeric_limits<double>::infinity();
  double lower_bound = 0;   // proven lower bound on the optimum over the receivers
  // finished: `makespan` (or the incumbent) is optimal; else why it stopped.
  SearchStatus status = SearchStatus::finished;
  SearchStats stats;        // nodes examined, seconds
  std::uint64_t memo_hits = 0;
  std::uint64_t memo_entries = 0;
  std::uint64_t counting_prunes = 0;  // bounds that only the counting bound lifted past the cutoff
  bool used_fastest_first = false;  // Thm 4.3 was applied

  bool complete() const { return status == SearchStatus::finished; }
};

// The exact broadcast from `source` to exactly `receivers` (distinct, not
// containing the source; other processors stay idle). Searches only for
// schedules strictly better than `incumbent` (infinity: any). Throws
// InputError for an invalid processor list.
BroadcastSearchResult optimal_broadcast(const Cluster& cluster, ProcessorIndex source,
                                        const std::vector<ProcessorIndex>& receivers, const SearchLimits& limits = {},
                                        double incumbent = std::numeric_limits<double>::infinity(),
                                        const OptimalBroadcastOptions& options = {});

// `--algo optimal` for broadcast: the plan of the search over every other
// processor, FNF as the first incumbent.
MakespanPlan plan_broadcast_optimal(const Cluster& cluster, ProcessorIndex source, const SearchLimits& limits = {},
                                    const OptimalBroadcastOptions& options = {});

// The no-delay schedule of a receiver sequence (Liu 2002 eq. 1): the i-th
// receiver is served by the holder whose next send ends first (ties within
// the cluster tolerance: faster sender, then lower index). Shared by the
// searches to rebuild their plans.
std::vector<Transfer> no_delay_transfers(const Cluster& cluster, ProcessorIndex source,
                                         const std::vector<ProcessorIndex>& sequence);

}  // namespace hetcoll
