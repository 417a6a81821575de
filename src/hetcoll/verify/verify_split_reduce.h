// Independent checking of split reduce plans (makespan/split/split_reduce.h)
// against the NIC fluid model: looks at the plan and the network only, never
// at the planner or its simulator, and checks
//  * well-formedness: the root and every aggregator are processors; the
//    pieces are consecutive, non-empty and cover [0, count); contributions
//    and post_times have one list per processor, of equal lengths, the
//    root's empty; every time is finite and >= 0; element_bytes > 0;
//  * completeness (every element of every processor combined exactly once
//    into the root's result): for each piece, the processors that send it to
//    its aggregator are exactly the non-root processors other than the
//    aggregator, each once (the aggregator adds its own, the root its own,
//    the forward carries the aggregator's combination to the root);
//  * causality (what the runtime's deadlock-freedom argument needs): a
//    piece is complete no sooner than each contribution to it can arrive
//    alone (its post + the sender's latency + its bytes at the narrower of
//    the sender's up and the aggregator's down bandwidth), so strictly
//    after it is posted; the forward likewise after the piece is complete;
//  * capacity: each processor's messages cannot all have arrived before its
//    first post + its latency + all their bytes at its up bandwidth, nor
//    the messages to a processor before the first of them is posted + the
//    smallest latency + their bytes at its down bandwidth;
//  * claims: predicted_seconds is the last piece's arrival at the root.
// Tolerance: 1e-9 relative to the times compared, plus 1e-15 s.
// Complexity: O(n k) time and space for n processors and k pieces.
#pragma once

#include "hetcoll/model/nic_network.h"
#include "hetcoll/plan/split_plans.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {

VerifyReport verify_split_reduce(const NicNetwork& network, const SplitReducePlan& plan);

}  // namespace hetcoll
