// Discrete-event simulation of a periodic (steady-state) plan running K
// operations, with its start-up and clean-up phases (Legrand, Marchal,
// Robert 2003 sec. 3.4, Props. 1-3).
//
// All K operations are ready at time 0 on their sources (scatter/gossip) or
// participants (reduce); each period releases `operations_per_period` of
// them into the schedule (reduce: each tree takes weight x period of them,
// trees in order), until K have been released. The period's slots then run
// one after the other, forever, with this policy for every transfer:
//  * a node sends what the slot says if it has it, else as much as it has:
//    only messages it holds completely (store and forward; with split
//    messages a piece of a message it holds may go in one slot and the rest
//    in a later one); nothing is sent that was not received (start-up: the
//    pipeline fills period by period) and nothing waits once it is there
//    (clean-up: after the last release the nodes empty their buffers);
//  * a transfer over a port-using edge arrives at the end of its slot; over
//    an edge that uses no port (a wire, or between unlimited ports), c(e)
//    after the slot starts;
//  * reduce: the tasks of a period use the values present when the period
//    starts and deliver their results at its end (computation overlaps
//    communication; the verifier checks a period's tasks fit in it);
//    messages and tasks of one tree only ever combine values of that tree,
//    so every operation is reduced by one reduction tree, in order.
// Broadcast (pipelined broadcast trees, one slice per operation): each
// period releases weight x period slices per tree on the source; a node
// forwards each slice it holds once per child edge of that slice's tree
// (transfers name their tree), store and forward as above.
// An operation is complete when every target holds its message (scatter,
// gossip, broadcast) or the root holds its result (reduce). The simulation reports the
// time the K-th completes (makespan), the measured throughput K / makespan,
// its ratio to the plan's throughput — which tends to 1 as K grows (Props. 1,
// 3) — and the start-up time (first completion).
// Exact rational times and amounts; cost O(periods x transfers), periods ~=
// K / operations_per_period + the depth of the schedule.
// Stops after `max_periods` periods without completing (`finished` false),
// which only a broken plan causes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hetcoll/core/rational.h"
#include "hetcoll/model/platform.h"
#include "hetcoll/plan/periodic_plan.h"

namespace hetcoll {

struct PeriodicSimulationOptions {
  std::uint64_t operations = 1000;        // K
  std::optional<double> message_size;     // overrides the plan's
  std::uint64_t max_periods = 10'000'000;
  std::size_t max_samples = 200;          // progress samples kept
};

struct PeriodicSimulationResult {
  std::uint64_t operations = 0;  // K
  std::uint64_t completed = 0;
  bool finished = false;
  Rational makespan;             // time the K-th operation completed
  Rational first_completion;     // start-up: time the first one completed
  Rational measured_throughput;  // K / makespan
  double ratio = 0;              // measured / plan throughput
  std::uint64_t periods = 0;     // periods simulated (started)
  // (time, operations completed by then), sampled at period ends.
  std::vector<std::pair<Rational, std::uint64_t>> progress;
};

// The result as a JSON object: operations, completed, finished, makespan
// ("p/q") and makespan_value, first_completion(_value),
// measured_throughput(_value), ratio, periods, progress [[time, completed]].
std::string simulation_result_json(const PeriodicSimulationResult& result);

// A caveat when K is below 10 periods' worth of operations: the start-up
// and clean-up then dominate the measured throughput (a plan with a huge
// exact period needs a fixed period, Prop. 4, to be simulated usefully).
std::optional<std::string> short_run_caveat(const PeriodicPlan& plan, std::uint64_t operations);

// Throws InputError when the platform lacks an edge of the plan or a
// message size it needs (run verify_periodic_plan first for full checks).
PeriodicSimulationResult simulate_periodic_plan(const Platform& platform, const PeriodicPlan& plan,
                                                const PeriodicSimulationOptions& options = {});

}  // namespace hetcoll
