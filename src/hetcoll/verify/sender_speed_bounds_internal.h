// What verify/ can prove about the optimum of a sender-speed instance, from
// the processors' times alone (never from the planner that made a plan):
// closed-form lower bounds, re-derived here, and an exact re-search for
// small instances. validate accepts a plan's lower bound, its `optimal` claim
// and its ratio guarantee only when they follow from these.
//
// Closed forms (n processors, t_min the fastest time, t_max the slowest):
//  * broadcast from s, n >= 2: t(s) + t_min (ceil(log2 n) - 1). Nothing is
//    received before t(s), when at most 2 processors hold the message; in
//    any window of length t_min a holder completes at most one send, so the
//    holders at most double.
//  * multicast from s to k targets (helpers allowed): the same with k + 1
//    in place of n (k + 1 processors must hold the message).
//  * reduce to d, n >= 2: max(t_min ceil(log2 n), max_{p != d} t(p)). A send
//    pairs two processors still holding unsent data; those at most halve per
//    t_min; every p != d sends once.
//  * all-reduce, any schedule, n >= 2: t_max + t_min (ceil(log2 n) - 1): the
//    processors whose data depends on a slowest processor's value are one
//    until its first send completes, then at most double per t_min. A plan
//    that reduces into a root and then broadcasts from it (a composition)
//    also costs at least min over roots r of (reduce bound(r) + broadcast
//    bound(r)).
// Exact re-search (decision: is there a schedule finishing before U?):
//  * broadcast and multicast: an optimal schedule is a no-delay receiver
//    sequence (Liu, "Broadcast scheduling optimization for heterogeneous
//    cluster systems", 2002, Thm 4.1): each next receiver is served by a
//    holder that completes the send earliest. The search branches on the
//    next receiver's time class (and on which holder, among those tied for
//    the earliest completion with different times); a helper slower than
//    every target still to serve is never needed (a target in its place
//    holds the message as early and sends faster).
//  * reduce: reversed in time, a reduce is a broadcast from the root in
//    which a message lasts its *receiver's* time (the reduce sender's);
//    sorting any schedule's messages by reversed start and serving each from
//    the earliest-free holder is no later message by message (the free
//    times stay dominated), so the search branches on the next class only.
//  * all-reduce compositions: min over roots of the two phases' optima.
// Pruning: the makespan so far, and a relaxation in which every later
// message takes the fastest remaining time. The search counts nodes against
// a budget and says whether it finished; an unfinished search proves
// nothing. Exponential in the worst case; classes of equal times keep small
// instances (up to about 12 processors) well within the budget.
#pragma once

#include <cstdint>
#include <vector>

#include "hetcoll/core/ids.h"

namespace hetcoll::verify_detail {

double broadcast_closed_bound(const std::vector<double>& times, ProcessorIndex source);
double multicast_closed_bound(const std::vector<double>& times, ProcessorIndex source, std::size_t target_count);
double reduce_closed_bound(const std::vector<double>& times, ProcessorIndex root);
double allreduce_any_schedule_closed_bound(const std::vector<double>& times);
double allreduce_composition_closed_bound(const std::vector<double>& times);

struct ExactSearch {
  bool finished = false;  // the whole tree was searched (else nothing is proven)
  double best = 0;        // the least makespan found below the given cap, or the cap
};

// The least makespan below `cap` (within `tolerance`) of a broadcast or
// multicast (is_target: who must receive; empty: everyone) from `source`.
ExactSearch exact_broadcast(const std::vector<double>& times, ProcessorIndex source, const std::vector<char>& is_target,
                            double cap, double tolerance, std::uint64_t& node_budget);
// The same for a reduce into `root`.
ExactSearch exact_reduce(const std::vector<double>& times, ProcessorIndex root, double cap, double tolerance,
                         std::uint64_t& node_budget);

}  // namespace hetcoll::verify_detail
