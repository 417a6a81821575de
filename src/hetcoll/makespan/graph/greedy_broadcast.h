// The list-scheduling loop shared by the greedy graph planners (FEF, ECEF,
// ECEF with look-ahead; Bhat, Raghavendra, Prasanna 2003): while a member
// that must receive is still waiting, place the candidate transfer
// (informed member -> waiting member) of smallest key, as early as the model
// allows (graph_schedule.h). The planners differ only in the key.
//
// Keys must never decrease as the schedule grows (resources only get busier,
// waiting sets only shrink), except where the rule reports it (take_lowered:
// the look-ahead term of the last waiting member drops to 0), so candidates
// sit in one priority queue and are re-evaluated lazily when they reach the
// top: a popped candidate whose key is still current is the true minimum. Ties: smaller key, then the lower
// sender member index, then the lower receiver (members are in node index
// order), on exactly equal doubles.
// Multicast: only targets are candidates; if none can be reached directly
// from an informed member, other participants become candidates until one
// can (they relay as helpers).
// Complexity: O(n² log n) pushes for n members plus the lazy re-evaluations
// (each O(route length)); O(n²) space for the route table. On a table
// through one hub with equal costs (a SimGrid <cluster>) and a rule with
// uniform_keys(): O(n log n) key evaluations, the same plan.
#pragma once

#include "hetcoll/makespan/graph/graph_planner.h"
#include "hetcoll/makespan/graph/graph_schedule.h"

namespace hetcoll {

class GreedyRule {
 public:
  virtual ~GreedyRule() = default;
  // The key of from -> to in the current partial schedule (kNoRoute when
  // the pair has no route).
  virtual double key(const FlatBroadcast& state, std::size_t from, std::size_t to) = 0;
  // Called after from -> to was placed.
  virtual void placed(const FlatBroadcast& state, std::size_t from, std::size_t to) {
    (void)state, (void)from, (void)to;
  }
  // The waiting members whose keys (as receivers) may have decreased since
  // the last call: the loop queues their candidates again with fresh keys.
  // Keys must otherwise never decrease.
  virtual void take_lowered(std::vector<std::size_t>& out) { (void)out; }
  // True when, on a uniform_cost() table on which every member not yet
  // informed must receive, key(from, to) is one nondecreasing function of
  // window(from, to).start for every candidate pair. The loop then finds the
  // minimum without the queue (same result, O(log n) keys per transfer on a
  // through_hub() table).
  virtual bool uniform_keys() const { return false; }
};

// Runs the loop on `state` (built by the caller for its task).
EngineResult greedy_broadcast(const GraphNetwork& network, FlatBroadcast& state, const char* planner,
                              GreedyRule& rule);

}  // namespace hetcoll
