// Ordered broadcast trees and their no-delay schedules (sender-speed model).
//
// An ordered tree gives, for every processor, the list of processors it sends
// to, in order. Its no-delay schedule (Liu 2002 Thm 4.1; Khuller, Kim, Woeginger 2003 sec. 1):
// the j-th child of p receives at r(p) + j * t(p), p sending back to back
// from the moment it holds the message. Shortening any transmission time
// never delays any receive in such a schedule, which is why planners may
// reason on rounded-up times and then re-time the same tree with the true
// ones (the PTAS does exactly that).
//
// Complexity: O(n + m) time and space for n processors and m edges.
#pragma once

#include <vector>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// children[p] = the processors p sends to, in sending order. Processors not
// reachable from `source` are ignored. `start_time`: when the source holds
// the message.
std::vector<Transfer> ordered_tree_transfers(const Cluster& cluster, ProcessorIndex source,
                                         const std::vector<std::vector<ProcessorIndex>>& children,
                                         double start_time = 0.0);

// The ordered tree of a broadcast schedule: each processor's receivers sorted
// by the start of the message (ties by receiver index).
std::vector<std::vector<ProcessorIndex>> ordered_children(const std::vector<Transfer>& transfers,
                                                          ProcessorIndex processor_count);

// Multicast clean-up: repeatedly removes every receiver that is not a target
// and forwards to nobody (a helper that helps nobody), then re-times the tree
// without delays. No receive time grows. Returns the new transfers.
std::vector<Transfer> prune_idle_helpers(const Cluster& cluster, ProcessorIndex source,
                                         const std::vector<Transfer>& transfers,
                                         const std::vector<ProcessorIndex>& targets);

}  // namespace hetcoll
