// Slowest-node-first (SNF) reduce — Liu, Kuo, Wang 2009 sec. 4.
//
// SNF = the EP schedule (makespan/sender_speed/reduce/ep.h) of the senders in
// non-increasing transmission time (ties: lower index first), so that slow
// senders overlap each other at the start instead of queueing at the end.
// Guarantee: <= 2 x optimal for any cluster and root (Liu, Kuo, Wang 2009 Thm 2).
// Optimal when the senders' times form a divisibility chain (Liu, Kuo, Wang 2009 sec. 1
// and Thm 1 for powers of 2) or take exactly two values with ratio >= 2
// (Thm 4). Not optimal for ratio < 2: Fig. 8 (8 fast t = 1, 4 slow t = x,
// root slow) takes x + 3 against 4 (1 < x < 1.5) or 2x + 1 (1.5 <= x < 2).
// Complexity: O(n log n) time, O(n) space.
#pragma once

#include <string>
#include <vector>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// All processors but `root`, slowest first (times equal under the
// tolerance rule, core/ids.h, by index).
std::vector<ProcessorIndex> snf_order(const Cluster& cluster, ProcessorIndex root);

MakespanPlan plan_reduce_snf(const Cluster& cluster, ProcessorIndex root);

// Why SNF is provably optimal for this cluster and root, or "".
std::string snf_optimality(const Cluster& cluster, ProcessorIndex root);

}  // namespace hetcoll
