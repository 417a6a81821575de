// Independent checking of split all-reduce plans made in the NIC fluid
// model (makespan/split/split_allreduce_nic.h) against the network alone,
// never the planner or its simulator:
//  * well-formedness: model nic_fluid; n distinct members (member i is the
//    network's processor i); at
//    least one chunk; pieces with distinct aggregators, non-empty, covering
//    [0, elements) once; every time finite and >= 0;
//  * completeness: for every non-empty chunk of every piece, every member
//    but the aggregator contributes it to the aggregator exactly once and
//    receives its result from the aggregator exactly once, and nothing else;
//  * order: each member's messages are listed in the order of their starts
//    (the order the runtime posts them);
//  * causality: a message arrives no sooner than its start + the sender's
//    latency + its bytes (with the envelope) at the narrower of the
//    sender's up and the receiver's down bandwidth; a result starts no
//    sooner than the last contribution to its chunk has arrived;
//  * capacity: a member's messages cannot all have arrived before its first
//    start + its latency + all their bytes at its up bandwidth, nor the
//    messages to a member before the first of them starts + the smallest
//    latency among their senders + their bytes at its down bandwidth;
//  * claims: the makespan is the last result's arrival; the lower bounds
//    are those of the header of split_allreduce_nic.h (recomputed here) and
//    at most the makespan.
// Tolerance: 1e-9 relative to the times compared, plus 1e-15 s.
// Complexity: O(m + n x pieces x chunks) for m messages.
#pragma once

#include "hetcoll/model/nic_network.h"
#include "hetcoll/plan/split_plans.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {

VerifyReport verify_split_allreduce_nic(const NicNetwork& network, const SplitAllreducePlan& plan);

}  // namespace hetcoll
