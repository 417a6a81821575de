// Earliest-possible (EP) reduce schedule — Liu, Kuo, Wang 2009 sec. 3 (Fig. 2) and the
// destination assignment of sec. 3.1 (Lemma 1).
//
// Problem: sender-speed cluster, every processor holds one value; combine
// them all (associative, commutative operator) at the root d. Every
// processor but d sends exactly once; a sender occupies itself and its
// receiver for t(sender).
// EP: given the order of the n - 1 senders, start each send as soon as two
// processors are free (a sender and a receiver). Only the receiver of a send
// stays free afterwards. Every valid schedule can be turned into an EP one
// without getting longer, so the order alone fixes the schedule.
// Lemma 1 (receivers): each send consumes two "free tokens" (initial ones,
// or one left by the receiver of an earlier send); the tokens form a binary
// tree whose root is the last send. Walking it top-down, the last send's
// receiver is d, and the two tokens a send consumed belong to its sender and
// its receiver. Every processor's receives then precede its own send, and no
// two overlapping sends share a processor.
// Ties: sends whose completion times agree within the cluster tolerance
// complete as one group at the group's latest time (so no message can start
// before its receiver is truly free). Token rule: initial tokens are
// consumed before tokens of completed sends, those oldest first; of the two
// tokens a send consumes, the first goes to its receiver, the second to its
// sender.
// Guarantee: none by itself (SNF, an EP order, is <= 2 x optimal).
// Complexity: O(n log n) time, O(n) space.
#pragma once

#include <vector>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// The EP schedule of `sender_order` (all processors but `root`, each once;
// checked, InputError otherwise), with receivers assigned by Lemma 1.
std::vector<Transfer> ep_transfers(const Cluster& cluster, ProcessorIndex root,
                                   const std::vector<ProcessorIndex>& sender_order, double start_time = 0.0);

// Only the EP completion time of an order (no receivers): O(n log n).
double ep_makespan(const Cluster& cluster, const std::vector<ProcessorIndex>& sender_order);

// A reduce plan from an explicit order (`hetcoll reduce --algo ep --order`).
MakespanPlan plan_reduce_ep(const Cluster& cluster, ProcessorIndex root, const std::vector<ProcessorIndex>& order);

}  // namespace hetcoll
