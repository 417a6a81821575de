// The two implementations behind ep_transfers (makespan/sender_speed/reduce/ep.h),
// exposed for the differential test (tests/greedy_property_test.cpp).
//
// ep_transfers times the sends with one FIFO of active sends per class when
// the senders have at most kFewDistinctTimes distinct times, any two of
// them more than the tolerance apart (so a class of the tolerance rule is
// one exact time), and the order lists each class in one run (as SNF's
// order does): EP starts sends in order, so a class's sends, which all take
// the same time, complete in order too, and its active sends are a window
// of its run; a group of sends completing together is a prefix of each
// window, already in order of send index when the windows are taken in the
// order's run order. O(n k) time for k classes, against O(n log n) for the
// priority queue, which handles every other order. Both give the same
// transfers in the same order.
#pragma once

#include <optional>
#include <vector>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// The priority-queue EP (any order; the order is not checked here).
std::vector<Transfer> ep_transfers_by_heap(const Cluster& cluster, ProcessorIndex root,
                                           const std::vector<ProcessorIndex>& sender_order, double start_time);

// The class-window EP; nullopt when the times or the order do not allow it
// (see above; the order is not checked here).
std::optional<std::vector<Transfer>> ep_transfers_by_class(const Cluster& cluster, ProcessorIndex root,
                                                           const std::vector<ProcessorIndex>& sender_order,
                                                           double start_time);

}  // namespace hetcoll
