// Exhaustive optimal makespans for tiny clusters, written independently of
// the library's planners, so that tests can check guarantees and optimality
// claims against them.
//
// Two formulations each, so they also check each other:
//  * broadcast_by_sequences: every order of the receivers (Liu 2002 eq. 1:
//    the i-th receiver is served by the sender that can finish earliest);
//    exact by Thm 4.1 (no-delay trees). (n - 1)! orders; n <= 9.
//  * broadcast_by_pairs: depth-first over every (holder, non-holder) choice,
//    each message starting when its sender is free; covers every schedule.
//    n <= 7.
//  * reduce_by_ep_orders: every order of the senders through an EP timing
//    written here from Liu, Kuo, Wang 2009 Fig. 2; n <= 9.
//  * reduce_by_pairs: depth-first over every (sender, receiver) choice among
//    the processors still holding unsent data, each message starting when
//    both are free; covers every schedule. n <= 7.
//  * multicast_by_helper_sets: for *every* set H of non-members (not only
//    the fastest ones, so it also checks Khuller, Kim, Woeginger 2003
//    sec. 4), broadcast_by_sequences over {source} + targets + H; the least.
//  * allreduce_by_compositions: the optimum of the all-reduce model hetcoll
//    plans in (makespan/sender_speed/allreduce/reduce_broadcast.h): the least, over every
//    root r, of reduce_by_ep_orders(r) + broadcast_by_sequences(r).
// Times should be exact in binary (integers, halves) so ties are exact.
#pragma once

#include <vector>

#include "hetcoll/model/cluster.h"

namespace hetcoll::testing {

double broadcast_by_sequences(const Cluster& cluster, ProcessorIndex source);
double broadcast_by_pairs(const Cluster& cluster, ProcessorIndex source);
double reduce_by_ep_orders(const Cluster& cluster, ProcessorIndex root);
double reduce_by_pairs(const Cluster& cluster, ProcessorIndex root);
double multicast_by_helper_sets(const Cluster& cluster, ProcessorIndex source,
                                const std::vector<ProcessorIndex>& targets);
double allreduce_by_compositions(const Cluster& cluster);

}  // namespace hetcoll::testing
