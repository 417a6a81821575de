// What steady-state planners return: a periodic schedule of a long series of
// operations on a platform graph (Legrand, Marchal, Robert 2003; Beaumont,
// Marchal, Robert 2004), with the evidence of its throughput.
//
// STABLE INTERFACE (the steady-state scatter/gossip/reduce planners and the
// pipelined-broadcast planners fill it; verify/, sim/ and the JSON writer
// read it). New fields may be added; existing fields keep their meaning.
//
// Model: the bidirectional one-port platform graph — in any instant a node
// sends on at most one edge and receives on at most one edge; computation
// overlaps communication. Times are in the platform's cost unit.
//
// A periodic plan repeats every `period` time units. One period is a list of
// slots; a slot is a matching of the platform graph (each node sends at most
// once and receives at most once) that lasts `length`; the slot lengths sum
// to the period. In a slot, each transfer moves `messages` messages of one
// type over one edge (several types may share an edge of the slot, one after
// the other; together they fit in the slot). `split_messages` says whether a
// message may be sent in pieces across slots (Legrand, Marchal, Robert 2003
// Fig. 4(a)) or every count is a whole number (Fig. 4(b)).
//
// `flows` are the totals per period (edge, type) — the linear program's
// solution times the period; the slots are their one-port decomposition
// (weighted bipartite edge colouring). `trees` decompose the flows into
// weighted trees — scatter trees (one path per target), per-source trees for
// gossip, reduction trees (Fig. 8) for reduce, broadcast trees — whose
// weights (operations per time unit) sum to the throughput and whose edges,
// weighted, sum to the flows.
//
// Numbers are exact: throughput and tree weights are rationals (operations
// per time unit), the period and per-period operation counts are integers
// (possibly huge: the lcm of the LP solution's denominators), message counts
// and slot lengths are rationals.
//
// Evidence: `throughput_bound` is the optimal throughput of the operation's
// linear program, proven by `certificate` (a dual solution, checked exactly
// by verify/ from the platform). `throughput` is what the schedule achieves;
// they are equal unless a fixed period was asked for (Prop. 4:
// bound - throughput <= trees / period).
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/core/rational.h"
#include "hetcoll/plan/plan.h"
#include "hetcoll/plan/lp_certificate.h"

namespace hetcoll {

// The steady-state operations are four of the one Operation enum (plan.h):
// scatter, gossip, reduce and broadcast.
using SteadyOperation = Operation;
bool is_steady_operation(Operation operation);
// One of those four names; nullopt for any other.
std::optional<SteadyOperation> steady_operation_from_string(std::string_view name);

// What a message carries.
//  * personal: the message from `source` to `target` (scatter, gossip);
//  * partial: the partial reduction v[first, last] of the participants at
//    positions first..last of the reduction order (reduce);
//  * broadcast: the broadcast message (pipelined broadcast).
struct MessageType {
  enum class Kind { personal, partial, broadcast };
  Kind kind = Kind::personal;
  ProcessorIndex source = kNoProcessor;  // personal
  ProcessorIndex target = kNoProcessor;  // personal
  int first = -1;                        // partial
  int last = -1;                         // partial

  static MessageType personal(ProcessorIndex source, ProcessorIndex target) {
    return {Kind::personal, source, target, -1, -1};
  }
  static MessageType partial(int first, int last) { return {Kind::partial, kNoProcessor, kNoProcessor, first, last}; }
  static MessageType broadcast() { return {Kind::broadcast, kNoProcessor, kNoProcessor, -1, -1}; }

  auto operator<=>(const MessageType&) const = default;
};

// One edge of one slot: `messages` messages of `type` from `from` to `to`.
struct PeriodicTransfer {
  ProcessorIndex from = kNoProcessor;
  ProcessorIndex to = kNoProcessor;
  MessageType type;
  Rational messages;
  int tree = -1;  // reduce: the tree whose operations these are (-1: any)
};

struct Slot {
  Rational length;
  std::vector<PeriodicTransfer> transfers;
};

// Per-period total of one (edge, type).
struct Flow {
  ProcessorIndex from = kNoProcessor;
  ProcessorIndex to = kNoProcessor;
  MessageType type;
  Rational messages;
};

// Reduce: task T[first, split, last] on `node` — v[first, split] (+)
// v[split + 1, last] -> v[first, last] — `count` times per period.
struct Computation {
  ProcessorIndex node = kNoProcessor;
  int first = -1;
  int split = -1;
  int last = -1;
  Rational count;
  int tree = -1;  // the tree whose operations these are (-1: any)
};

struct TreeEdge {
  ProcessorIndex from = kNoProcessor;
  ProcessorIndex to = kNoProcessor;
  MessageType type;
};

struct TreeTask {
  ProcessorIndex node = kNoProcessor;
  int first = -1;
  int split = -1;
  int last = -1;
};

struct WeightedTree {
  Rational weight;  // operations per time unit that follow this tree
  ProcessorIndex source = kNoProcessor;  // gossip: the source this tree serves
  std::vector<TreeEdge> edges;
  std::vector<TreeTask> computations;  // reduce
};

struct SteadyStats {
  int lp_rows = 0;
  int lp_columns = 0;
  std::size_t lp_nonzeros = 0;
  std::string lp_method;         // "clp-dual + exact basis", "qsopt_ex", ...
  std::string lp_fallback_reason;
  double lp_floating_throughput = 0;  // Clp's floating-point optimum
  double lp_seconds = 0;         // floating solve + exact re-solve + check
  double lp_floating_seconds = 0;  // of which Clp
  double lp_exact_seconds = 0;     // of which exact arithmetic (re-solve, QSopt_ex, check)
  int lp_columns_loaded = 0;       // columns Clp saw (fewer than lp_columns with column generation)
  int lp_generation_rounds = 0;
  double schedule_seconds = 0;   // trees, period, colouring
  int matchings = 0;             // non-idle slots
};

// Header: one of the four steady operations, model steady-state; its
// `algorithm` is the formulation, e.g. "scatter-per-type"; its `stats.seconds`
// the planning time, LP and schedule (scatter, gossip, reduce).
struct PeriodicPlan : PlanHeader {
  PeriodicPlan() {
    operation = Operation::scatter;
    model = PlanModel::steady_state;
  }
  ProcessorIndex root = kNoProcessor;  // scatter/broadcast source, reduce target
  std::vector<ProcessorIndex> sources;       // gossip sources
  std::vector<ProcessorIndex> targets;       // scatter/gossip/broadcast targets
  std::vector<ProcessorIndex> participants;  // reduce, in reduction order
  std::optional<double> message_size;        // bytes, when edge costs came from latency/bandwidth

  Rational throughput;        // operations per time unit the schedule achieves
  Rational throughput_bound;  // the LP optimum (proven by `certificate`)
  BigInteger period;          // time units
  BigInteger operations_per_period;  // throughput x period
  bool split_messages = true;
  std::optional<BigInteger> period_limit;  // --period-max, when it applied (Prop. 4)
  // When a fixed period applied and was shorter than the exact one: the
  // exact period (reaching throughput_bound) and Prop. 4's bound on the
  // throughput lost (trees / period; scatter/gossip: the most paths of one
  // pair / period). Unset otherwise.
  std::optional<BigInteger> exact_period;
  std::optional<Rational> loss_bound;

  std::vector<Slot> slots;
  std::vector<Flow> flows;
  std::vector<Computation> computations;
  std::vector<WeightedTree> trees;
  lp::LpCertificate certificate;

  SteadyStats steady_stats;  // the LP's size, method and times
  // What a plan file claims in its "optimal" field (unset when absent or
  // when the plan was planned here): validate checks it against optimal().
  std::optional<bool> claimed_optimal;
  // Where a plan file contradicts itself (a "throughput_value" that is not
  // its exact throughput, a message "type" naming another type than its
  // source and target fields): one line per field, reported by validate.
  std::vector<std::string> stated_contradictions;

  bool optimal() const { return !certificate.empty() && throughput == throughput_bound; }
};

}  // namespace hetcoll
