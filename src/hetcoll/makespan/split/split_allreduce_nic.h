// Split all-reduce in the NIC fluid model: the reduce-scatter to
// aggregators + all-gather of split_allreduce.h (the same SplitAllreducePlan:
// pieces, chunks, every message), planned and predicted in the model that
// also charges down links and shares links among concurrent flows.
//
// Problem: combine the `elements` elements of every one of n processors
// with a commutative, associative operation and leave the result with all.
//
// Model: the NIC fluid model of split_reduce.h (model/nic_network.h: an up
// link L_u, U_u and a down link D_u per processor, weighted max-min sharing
// as SimGrid's CM02). The plan runs as the MPI runtime runs it: every
// processor posts its messages in the plan's order, a contribution at its
// start time (paced) or after the previous post, a result once every
// contribution to its chunk has arrived (combining is free) and after the
// previous post. simulate_split_allreduce replays that exactly, event by
// event; the last result's arrival is the prediction.
//
// Planner: for each pacing (contributions at the up link's rate; at a rate
// that takes every processor through the chunks together; all at once)
// and chunk counts K = 1, 2, 3, 4, 6, ... 64 while more chunks help (within
// a budget of simulated messages): pieces that balance the up links for a
// time T (a processor with a piece of m_u bytes sends B + (n - 2) m_u, so
// m_u ~ max(0, U_u (T - L_u) - B)), T searched by golden section against
// the simulated time, then rounds that scale each piece by its
// aggregator's finish. Each processor's posts are ordered by a greedy run
// in the model: a ready result chunk (to every other processor), else its
// next contribution (aggregators in turn from the one after it) — the
// greedy run is the replay of the plan it makes. Guarantee: none (a
// heuristic); the plan carries both bounds. Complexity: one simulation
// O(E (F + n)) for E = O(K n^2) events and F flows in flight; at most 16
// simulations per pacing and K.
//
// Lower bounds (split_allreduce_lower_bounds; valid in this model for every
// all-reduce that moves elements whole, raw or combined), with B = elements
// x element_bytes:
//  * own data: each processor must send B bytes (else some element of its
//    never leaves it) and receive B: T >= max_u L_u + (B + envelope) / U_u,
//    and T >= max_v min_{w != v} L_w + (B + envelope) / D_v;
//  * traffic: every element takes at least 2 (n - 1) transfers (one-way
//    gossip: n - 1 before some processor has all, n - 1 after), so the up
//    links carry 2 (n - 1) B in all: the least T with sum_u U_u max(0, T -
//    L_u) >= 2 (n - 1) B, and likewise for the down links (each behind the
//    smallest latency of the others).
// Known limits: commutative operations only; the model knows each host's
// own links, not shared backbones (NIC clusters); paced plans need their
// contributions posted at their starts (pace 0 plans do not).
// References: Rabenseifner, "Optimization of collective reduction
// operations", 2004 (reduce-scatter + all-gather); Patarasuk, Yuan,
// "Bandwidth optimal all-reduce algorithms for clusters of workstations",
// 2009 (the 2 (n - 1) / n per-processor traffic of the homogeneous case);
// Harary, Schwenk, "The communication problem on graphs and digraphs",
// 1974 (2n - 2 calls for one-way gossip).
#pragma once

#include <cstddef>
#include <vector>

#include "hetcoll/model/nic_network.h"
#include "hetcoll/plan/split_plans.h"

namespace hetcoll {

struct SplitAllreduceLowerBounds {
  double own_data = 0;  // seconds
  double traffic = 0;   // seconds
  double best() const { return own_data > traffic ? own_data : traffic; }
};

// The bounds of the header for `elements` elements of `element_bytes` bytes.
SplitAllreduceLowerBounds split_allreduce_lower_bounds(const NicNetwork& network, std::size_t elements,
                                                       double element_bytes);

struct SplitAllreduceNicOptions {
  // Most messages one simulation may carry (fewer chunks beyond).
  std::size_t max_messages = 40'000;
  // The sizing's budget: messages simulated in all (about 100,000 a second
  // on 64 processors); a chunk count is tried only if its whole sizing fits.
  std::size_t max_work = 1'200'000;
  // Chunk counts tried, in increasing order (those that fit max_messages,
  // the budget and the elements; the search stops at the first that does
  // not beat the best of fewer chunks by 1 %).
  std::vector<std::size_t> chunk_counts{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64};
  // Pacings tried (make_split_allreduce_nic's pace), each with an equal
  // share of max_work.
  std::vector<double> paces{1, -1, 0};
};

// The planner of the header: members are processors 0..n-1 (member i is
// the network's processor i; callers may rename them), model
// nic_fluid, makespan from simulate_split_allreduce, both bounds set.
// InputError naming the parameter for elements == 0, element_bytes <= 0,
// or a network with missing or non-positive bandwidths or bad latencies.
SplitAllreducePlan plan_split_allreduce_nic(const NicNetwork& network, std::size_t elements, double element_bytes,
                                            const SplitAllreduceNicOptions& options = {});

// Replays the plan in the model (see the header): rewrites every
// transfer's start (its post) and end (its arrival) and the makespan; sets
// model = nic_fluid. The plan's structure must be valid (pieces, chunks,
// every contribution and result once; InputError "plan" otherwise) and it
// must have one member per processor of the network (member i is processor
// i); each member's transfers keep their order.
void simulate_split_allreduce(const NicNetwork& network, SplitAllreducePlan& plan);

// The plan with these piece sizes (elements per member, zeros: no piece)
// and chunk count, posts ordered and timed by the greedy run of the header
// (which is the replay of its result): a processor's next contribution is
// posted once its up link would have sent what it posted at `pace` x its
// bandwidth (pace 0: every contribution at once, at the start; pace < 0:
// at its bytes / the longest time an up link needs for its own bytes, so
// that every processor goes through the chunks at the same speed); both
// bounds and the description set. InputError naming piece_elements,
// chunks or pace when they do not fit.
SplitAllreducePlan make_split_allreduce_nic(const NicNetwork& network, std::size_t elements, double element_bytes,
                                            const std::vector<std::size_t>& piece_elements, std::size_t chunks,
                                            double pace = 1);

}  // namespace hetcoll
