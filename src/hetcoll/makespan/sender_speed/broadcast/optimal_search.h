// Exact optimal broadcast by branch-and-bound — Liu 2002 sec. 5 (Table 1),
// with a stronger (proven) exchange rule, relaxation and fluid bounds,
// target passes and memoisation.
//
// Problem: sender-speed cluster, a given source s (any processor, fast or
// slow) holding one message, a set R of receivers (all other processors for
// a broadcast; any subset for exact multicast); minimise the time the last
// receiver has the message.
//
// Search space (Liu 2002 eq. 1, Thm 4.1): an optimal schedule is a no-delay
// tree, i.e. a sequence of receivers in ready-time order, the i-th served by
// the holder whose next send ends first. Every holder p sends without pause
// from its ready time r(p): its "slots" are r(p) + k t(p), k >= 1. We branch
// one slot time at a time: all slots ending at the current frontier time
// tau (equal up to the cluster tolerance) are served together, and a branch
// is the multiset of receiver *classes* (equal transmission times) they get.
// Processors of one class are interchangeable, so no two branches build the
// same schedule up to renaming, and the order inside a slot group does not
// matter. FNF's schedule is the first incumbent; with mostly distinct
// times (classes >= receivers / 2, 4-64 receivers) its sequence improved by
// pairwise interchanges (sequence_local_search.h; at most
// local_search_evaluations, deterministic, skipped under a time limit below
// 0.1 s).
//
// Dominance rules, with the theorem each relies on. All rules are "if a
// sequence breaks it, exchanging two receivers gives a sequence that is
// lexicographically smaller in (t(s_1), t(s_2), ...) and no later for any
// receiver". The lexicographically smallest optimal sequence therefore
// breaks none of them, so pruning every sequence that breaks one (any
// combination) keeps an optimum.
//  * Exchange rule (our generalisation of Liu 2002 Lemmas 4.2-4.4). Let q
//    be a receiver (never the source) of time b informed at r(q), and p a
//    later receiver of a faster time a < b informed at r(p) = r(q) + d,
//    d > 0. If floor(d / a) >= ceil(d / b), exchanging p and q in the
//    sequence never delays anyone. Proof: every ready time is the i-th
//    smallest slot of the processors before it (eq. 1), so it suffices that
//    for every x the number of slots <= x of the exchanged pair is no
//    smaller: p from r(q) and q from r'(q) <= r(p) give, per half-open
//    window (y - d, y], at least floor(d/a) multiples of a against at most
//    ceil(d/b) multiples of b (and for y < d, floor(y/a) >= floor(y/b));
//    receivers in between only gain (p's slots from r(q) are pointwise
//    earlier than q's).
//    Equivalently, p may follow q only if d lies in a window (k b, (k+1) a)
//    with k b < (k+1) a, i.e. k < a / (b - a): a faster class a is due
//    before r(q) + D(a, b), D(a, b) = (k_max + 1) a (e.g. D = 4 for times
//    2 and 3, D = a whenever b >= 2a). The rule contains Thm 4.2 ("a
//    sender is never slower than its receiver", d = k b), also for
//    simultaneous senders: a slow holder with a slot at tau forbids every
//    faster receiver at tau, whoever serves it — the seed's sec. 5 reading
//    "drop the partial solution if any sender is slower than any possible
//    receiver" is thus proven (stronger than the matching reading). It also
//    contains Lemma 4.2's step (d = t_min).
//    The source is not a receiver: its slots may serve anyone, so a slow
//    given source is allowed to send to faster processors (sec. 4.4).
//  * Fastest first (Liu 2002 Thm 4.3): the receivers of the fastest time
//    come before all others — applied only when the source has that same
//    time (then it is a fastest processor of {s} ∪ R, as Lemma 4.1 needs:
//    a fastest root sending at every multiple of t_min). A source strictly
//    faster than every receiver is the only fastest processor, and the
//    theorem says nothing about the order of the receivers (Liu 2002 Fig. 2
//    is such a case: the 2 must not go first). For a slower given source
//    Thm 4.3 is FALSE (brute force: times 4 | 3 4 3.5 3.5 3 4 from the
//    first: 11, but 11.5 with the 3s first; tests/broadcast_search_test.cpp),
//    and sec. 4.4 proves the fastest-first property only for power-2
//    clusters (Lemma 4.7), so with a slow source the exchange rule alone
//    orders the receivers.
//  * Group compositions: when a composition at tau leaves receivers of a
//    class a for later, they must all be served before their deadline
//    (from earlier slower receivers, and tau + D(a, b) for every slower b
//    served at tau). A composition whose leftovers exceed an upper bound on
//    how many receivers any completion can serve before those deadlines
//    (the relaxation below with the group's fastest possible composition)
//    is never generated.
//
// Lower bounds (all proven, each valid for every completion of a node):
//  * Relaxation: give every remaining receiver the time of the fastest
//    remaining class still allowed at its slot (classes past their
//    exchange-rule deadline excluded). Lowering transmission times never
//    delays a sequence (each ready time is an order statistic of pointwise
//    earlier slots), and with identical receivers the greedy no-delay
//    schedule is the only one, so simulating it bounds every completion.
//    A class whose remaining receivers cannot all be served before its
//    deadline, even in the relaxation, makes the node dead.
//  * Fluid bound: the informed count N(x) of any completion satisfies
//    N(x) <= S(x) + int_tau^x G(N(y)) dy (S: the holders' slots up to x;
//    G(m): the sum of the m largest rates 1/t left, concave), so N <= U,
//    the solution of the equality (exponential between events). Stronger
//    than the relaxation when the receivers left are mostly slow.
//  * Counting bound (floors, not fluid; all-distinct times are where it
//    pays). Let w_0 <= w_1 <= ... be the remaining receivers' times and, in
//    a completion, N(x) the number of them informed by x (N(y) = 0 for
//    y < tau) and H(x) the holders' slots ending in [tau, x]. Each receiver
//    informed by x takes its own slot ending by x; a receiver j informed at
//    r_j has floor((x - r_j) / t_j) slots by x, i.e. one per k >= 1 with
//    r_j <= x - k t_j. So N(x) <= H(x) + sum_{k>=1} G_k, G_k = |J_k|,
//    J_k = {j : r_j <= x - k t_j}. Sort J_k by time: its i-th fastest has
//    time u_i >= w_i, and its |J_k| - i members of time >= u_i all have
//    r_j <= x - k u_i, so they are informed by x - k w_i (N nondecreasing):
//    |J_k| - i <= N(x - k w_i) for every i < |J_k|. Hence N(x) <= N*(x) =
//    min(left, H(x) + sum_k max{m : m - i <= N*(x - k w_i) for all i < m}),
//    by induction on x (each argument is at least w_0 smaller). Every
//    completion ends after any x with N*(x) < left. Computed on a grid of
//    spacing h <= w_0 / 2 with every argument rounded up one cell (so the
//    grid values bound N* on the cell they close; proof by the same
//    induction). Unlike the fluid bound it keeps the integrality of slots;
//    unlike the relaxation it does not give everyone the fastest time.
//    Evaluated only where relaxation and fluid do not prune (grid of 512
//    cells up to just past the cutoff): with all-distinct times it halves
//    the gap left under a node budget (docs/RESULTS.md, issue 13).
//  * Partial compositions: classes of a group are decided fastest first;
//    a bound valid for every completion of a partial composition (the
//    undecided receivers of the group get the fastest undecided time; the
//    receivers left are the remaining ones minus the slowest candidates;
//    relaxation without deadlines, and the fluid bound) prunes all of them
//    at once. This removes most of the width of large slot groups.
//  * Memo: the future depends only on the remaining class counts, the
//    holders' (class, next slot - tau, multiplicity), and the ready times
//    (relative to tau) of receivers still able to trigger the exchange rule.
//    Completions are translation invariant, so a finished subtree's value
//    "every completion ends >= tau + v" prunes the same state reached at
//    any time (memo_megabytes budget, then no more insertions). The key
//    holds the holders and those ready times only: every informed receiver
//    stays a holder, so the holders' classes and multiplicities give the
//    remaining counts (with every class a singleton the counts were half
//    the key). With every class a singleton, only states whose subtree
//    took 32+ nodes are stored (hits are rare there; storing fewer entries
//    never affects exactness).
//  The Khuller–Kim fractional-blocks argument (Khuller, Kim, Woeginger 2003 Thm 1) is stated
//  for a whole FNF broadcast from a fastest source, not from an arbitrary
//  partial schedule; we do not prune with it (the fluid bound is our
//  proven stand-in).
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
//
// Parallel search (SearchLimits::threads T > 1; default 1 = the serial
// search above, unchanged). Each pass after one of 2000+ nodes
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
//
// Ties: times within the cluster tolerance (core/ids.h) are equal — one
// class, one slot group, and window boundaries count as outside.
// Guarantee: exact when the search finishes (optimal = true, lower_bound =
// makespan; makespan/claims.h). With a node/time limit or a progress
// callback returning false (core/limits.h) it returns the best schedule so
// far (at worst FNF: <= 2 x optimal, Liu 2002 Thm 4.7; <= 1.5 from a
// fastest source) with its status and the best proven lower bound.
// Complexity: exponential in the worst case (the problem is NP-hard,
// Khuller, Kim, Woeginger 2003 sec. 1); per node O(k^2 + holders) plus the bounds' simulations,
// O(slot times x log streams) (the send streams in a heap), and the counting
// bound's O(512 x k_max x receivers left) when it is evaluated. Memory: O(n k) plus the memo budget.
// Counting: stats.nodes = nodes examined: every child whose bound is
// evaluated (explored or pruned, counted when evaluated), every child
// explored without a bound, every partial composition bounded; a child
// extends the receiver sequence by every receiver ready at one slot time.
// A node limit N stops the search after exactly N nodes. 0 nodes means the root bound already equals FNF's makespan.
// Measured (experiment bcast-search, docs/RESULTS.md, 2 cores): 3 classes,
// P = 21: about 0.015 ms; P = 5000: 2.4 ms; 5 classes of times 1..5:
// P = 2000 in 0.7 ms; 5 classes drawn in [1, 4): P = 150 in 21 ms on
// average. Hard cases: many distinct times (every processor its own class:
// P = 30 unsolved in 10 s).
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
  // many nodes (about 10 ms; tests set 0 to run every pass on the threads).
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
