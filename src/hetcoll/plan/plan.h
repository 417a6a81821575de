// What makespan planners return: a complete schedule of one collective
// operation in the sender-speed model or on a platform graph (then every
// transfer names its route), with the evidence of how good it is.
//
// A plan is a value: the list of every message (Transfer), the numbers the
// planner claims (makespan, lower bound, guarantee, optimality) and search
// statistics. verify/ re-checks every claim from the plan and the cluster
// alone, independently of the planner that made it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/core/limits.h"
#include "hetcoll/plan/plan_header.h"
#include "hetcoll/plan/transfer_route.h"

namespace hetcoll {

// What a message carries, and what its receiver does with it. In a
// reduce-then-broadcast all-reduce the first phase moves partial reductions
// towards the root and the second broadcasts the result; in an exchange
// all-reduce (recursive doubling: is_exchange_allreduce below) a pair's
// second message carries their combined value.
enum class Payload : std::uint8_t {
  broadcast_value,    // the receiver takes it as its value: the broadcast message, the
                      // all-reduce result, or an exchange's combined value
  partial_reduction,  // the sender's combined contributions; the receiver combines them with its own
};

// verify/ checks exchange all-reduce plans by the set of contributions every
// message carries (O(n / 64) words per message in flight), up to this many
// processors; planners of that shape refuse larger clusters.
inline constexpr std::size_t kMaxExchangeAllreduceProcessors = 16384;

const char* to_string(Payload payload);
std::optional<Payload> payload_from_string(std::string_view name);

struct Transfer {
  ProcessorIndex from = kNoProcessor;
  ProcessorIndex to = kNoProcessor;
  double start = 0;
  double end = 0;
  Payload payload = Payload::broadcast_value;
  // Platform-graph plans: the edges (indices into Platform::edges()) the
  // message travels, from `from` to `to`; one edge when they are adjacent.
  // Empty in sender-speed plans, and in hand-written graph plans that leave
  // the route to the platform (model/graph_network.h). One pointer, null when
  // empty (plan/transfer_route.h): a Transfer is 40 bytes.
  TransferRoute route;

  bool operator==(const Transfer&) const = default;
};

// How far from optimal a plan may be, as proven by its algorithm.
struct Guarantee {
  enum class Kind { exact, ratio, heuristic };
  Kind kind = Kind::heuristic;
  double ratio = 0;  // for Kind::ratio: makespan <= ratio x optimal
  std::string text;  // human form, e.g. "<= 2 x optimal"

  static Guarantee exact();
  static Guarantee at_most(double ratio);
  static Guarantee none();
};

// The header (plan_header.h) holds the operation, the algorithm, the model
// (sender-speed, graph or eager), the run's status, statistics and notes.
struct MakespanPlan : PlanHeader {
  // Platform-graph plans: the message size (bytes) that turned latency and
  // bandwidth into edge costs; none when every edge has a fixed cost.
  std::optional<double> message_size;
  // The broadcast/multicast source, or the reduce/all-reduce root.
  ProcessorIndex root = kNoProcessor;
  // Multicast: the processors that must receive (helpers may receive too).
  std::vector<ProcessorIndex> targets;
  // Multicast: the non-targets that receive and forward (Khuller, Kim, Woeginger 2003 sec. 4).
  std::vector<ProcessorIndex> helpers;
  std::vector<Transfer> transfers;

  double makespan = 0;
  double lower_bound = 0;  // a proven lower bound on the optimal makespan
  Guarantee guarantee;
  bool optimal = false;          // true only when proven
  std::string optimality_proof;  // why `optimal` holds (theorem or search)
  // Where the claims (guarantee, optimality, bound) hold when that is not the
  // platform the plan is printed for, e.g. "the sender-speed view of
  // grid.json"; empty: they hold for the plan's model.
  std::string claims_scope;
  // What a plan file states about the platform it was made for (read by
  // plan_json.h, checked by verify/ against the platform it is checked on);
  // none when the file does not say.
  std::optional<std::int64_t> stated_processors;
  std::optional<std::string> stated_time_unit;
  bool stated_helpers = false;  // a multicast file that lists its helpers (then all of them)
};

// The largest end time of the transfers (0 for an empty plan).
double last_completion(const std::vector<Transfer>& transfers);

// An all-reduce plan in which some processor sends more than one partial
// result, or the root sends one (recursive doubling), rather than a reduce
// then a broadcast.
bool is_exchange_allreduce(const MakespanPlan& plan);

// Broadcast tree view: parent[p] = the processor p first received from
// (kNoProcessor for the root and for processors that never receive).
std::vector<ProcessorIndex> parents_of(const MakespanPlan& plan, ProcessorIndex processor_count);

}  // namespace hetcoll
