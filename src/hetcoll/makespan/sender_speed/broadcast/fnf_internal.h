// The two implementations behind fnf_transfers (makespan/sender_speed/broadcast/fnf.h),
// exposed for the differential test (tests/greedy_property_test.cpp).
//
// fnf_transfers uses one FIFO of pending sends per class when the processors
// taking part have at most kFewDistinctTimes distinct times, any two of them
// more than the tolerance apart (so every class of the tolerance rule is one
// exact time), the fastest more than the tolerance (so a group's new sends
// finish after the group): a class's sends all take the same time, so its pending sends
// join its FIFO in order of finish time, and the next group is found by
// looking at k FIFO heads instead of a heap of n senders. O(n (k + log g))
// for groups of g senders, against O(n log n) for the priority queue, which
// handles every other cluster. Both give the same transfers in the same order.
#pragma once

#include <optional>
#include <vector>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// The priority-queue FNF (any cluster).
std::vector<Transfer> fnf_transfers_by_heap(const Cluster& cluster, ProcessorIndex source,
                                            const std::vector<ProcessorIndex>& receivers, double start_time);

// The class-queue FNF; nullopt when the times do not allow it (see above).
std::optional<std::vector<Transfer>> fnf_transfers_by_class(const Cluster& cluster, ProcessorIndex source,
                                                            const std::vector<ProcessorIndex>& receivers,
                                                            double start_time);

}  // namespace hetcoll
