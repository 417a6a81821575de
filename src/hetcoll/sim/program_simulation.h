// Predicting a communication program (plan/comm_program.h) on a flow network
// (model/flow_network.h): when every rank finishes if the program runs with
// MPI point-to-point semantics as SimGrid SMPI simulates them. This is the
// one cost model in which the MPI runtime's chooser compares its candidates
// (MPI libraries' own algorithms and hetcoll's plans).
//
// Semantics (SMPI's, with its default settings):
//  * Posting a send or a receive takes no time; a message starts when both
//    its send and its matching receive are posted, then waits its route's
//    latency and flows (FlowNetwork: max-min sharing of the links it crosses
//    with every other message flowing at the time).
//  * A send of fewer than `detached_below_bytes` bytes (SMPI's
//    smpi/send-is-detached-thresh, 65536) that is not synchronous completes
//    as soon as it is posted (the eager protocol: the library buffers it);
//    other sends complete when the message has arrived. A receive completes
//    when its message has arrived.
//  * wait blocks its rank until the listed requests have completed; pace(t)
//    until time t (every rank enters the call at time 0);
//    combine and copy take `seconds_per_combined_byte` per byte (0: free, as
//    SMPI with smpi/simulate-computation:no).
// The message's size on the network is its elements times the element size,
// plus `envelope_bytes`.
//
// Exact for the model: events are processed in time order, rates are
// recomputed by weighted progressive filling whenever a message starts or
// ends flowing (messages between the same two ranks share a path and a
// weight: they are filled as one class). Complexity: O(E · (A + C · P + R²))
// for E events, at most A messages in flight in C classes, each crossing
// at most P of the R resources; O(M + n²) space for M messages, n ranks.
//
// STABLE INTERFACE: ProgramTiming, FlowModelOptions, predict_program.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "hetcoll/model/flow_network.h"
#include "hetcoll/plan/comm_program.h"

namespace hetcoll::sim {

// Bytes SMPI's messages take on the network beyond their data (1 to 64 int
// broadcasts on the 8-host NIC cluster: predictions 3 % short without them,
// within 1 % with them); MPI libraries' headers are of that size.
inline constexpr double kSmpiEnvelopeBytes = 16;

struct FlowModelOptions {
  double detached_below_bytes = 65536;
  double envelope_bytes = 0;
  double seconds_per_combined_byte = 0;
};

// One message of a predicted program: when both its ends were posted
// (it starts its route's latency) and when it arrived (NaN: never).
struct MessageTiming {
  int from = 0, to = 0;
  double start = 0, end = 0;
  double bytes = 0;  // on the network, envelope included
};

struct ProgramTiming {
  double makespan = 0;               // the last rank's finish (seconds)
  std::vector<double> rank_finish;   // per rank: when its last step ends
  std::size_t messages = 0;
  // Every message, in the order of the sends (rank by rank, step by step).
  std::vector<MessageTiming> message_times;
  // Ranks blocked for ever (a wait on a message never sent); empty when the
  // program completes.
  std::vector<int> stuck_ranks;
  bool completed() const { return stuck_ranks.empty(); }
};

// `program.ranks` must equal network.size() (rank r is member r); call
// check_program first (malformed programs give undefined timings).
ProgramTiming predict_program(const CommProgram& program, const FlowNetwork& network, std::size_t element_bytes,
                              const FlowModelOptions& options = {});

}  // namespace hetcoll::sim
