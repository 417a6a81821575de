// Plans that cut the message into pieces (makespan/split/): the split
// broadcast and all-reduce (members, pieces, chunks and every message, in
// the eager model of model/split_costs.h; the all-reduce also in the NIC
// fluid model of model/nic_network.h) and the split reduce (pieces,
// aggregators and post times, in the NIC fluid model). verify/ checks them; mpi/ runs them.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/plan/plan_header.h"

namespace hetcoll {

struct SplitPiece {
  std::size_t spreader = 0;  // member index
  std::size_t first = 0;     // first element
  std::size_t elements = 0;
};

struct SplitTransfer {
  std::size_t piece = 0, chunk = 0;
  std::size_t from = 0, to = 0;  // member indices
  double start = 0, end = 0;     // end = start + occupancy + delay
};

// Header: operation broadcast, model split; `algorithm` describes the plan
// ("split broadcast: 3 pieces, 2 chunks each").
struct SplitBroadcastPlan : PlanHeader {
  SplitBroadcastPlan() {
    operation = Operation::broadcast;
    model = PlanModel::split;
  }
  std::vector<ProcessorIndex> members;  // member index -> processor
  std::size_t source = 0;               // member index
  std::size_t elements = 0;
  double element_bytes = 1;
  double envelope_bytes = 0;
  std::size_t chunks = 1;
  std::vector<SplitPiece> pieces;
  // Every message, in the order the schedule posts them (each sender's in
  // its send order).
  std::vector<SplitTransfer> transfers;
  double makespan = 0;  // eager-model time of the last arrival
};

// The elements [first, first + count) of chunk `chunk` of a piece of
// `piece_elements` elements cut into `chunks` chunks (the first
// piece_elements % chunks chunks get one more).
std::pair<std::size_t, std::size_t> split_chunk_range(std::size_t piece_elements, std::size_t chunks,
                                                      std::size_t chunk);

struct SplitAllreduceTransfer {
  bool contribution = true;  // false: a reduced chunk from the aggregator
  std::size_t piece = 0, chunk = 0;
  std::size_t from = 0, to = 0;  // member indices
  double start = 0, end = 0;     // eager: end = start + occupancy + delay
};

// Header: operation allreduce, model split (the eager model) or fluid (the
// NIC fluid model); `algorithm` describes the plan.
struct SplitAllreducePlan : PlanHeader {
  SplitAllreducePlan() {
    operation = Operation::allreduce;
    model = PlanModel::split;
  }
  std::vector<ProcessorIndex> members;  // member index -> processor
  std::size_t elements = 0;
  double element_bytes = 1;
  double envelope_bytes = 0;
  std::size_t chunks = 1;
  std::vector<SplitPiece> pieces;  // spreader = the piece's aggregator
  // Every message, each sender's in its send order.
  std::vector<SplitAllreduceTransfer> transfers;
  // The header's `model` says which model the times are in, by these two
  // names. eager (PlanModel::split): makespan/split/split_allreduce.h.
  // nic_fluid (PlanModel::fluid): makespan/split/split_allreduce_nic.h — a
  // transfer's start is when it is posted (a contribution at its start,
  // paced; a result once its chunk's contributions have all arrived), its
  // end when it arrives.
  struct Model {
    static constexpr PlanModel eager = PlanModel::split;
    static constexpr PlanModel nic_fluid = PlanModel::fluid;
  };
  // nic_fluid: how the planner timed the contributions (the starts say
  // when): at `pace` x the sender's up bandwidth; 0: all at the start (no
  // waiting needed); < 0: every sender through the chunks at one speed
  // (makespan/split/split_allreduce_nic.h).
  double pace = 1;
  double makespan = 0;  // the model's time of the last result's arrival
  // Lower bounds on every all-reduce in the NIC fluid model (seconds; 0
  // when not computed, eager plans): each member's own data must leave and
  // the result must arrive over its links; the total-traffic cut.
  double own_data_bound = 0;
  double traffic_bound = 0;
};

struct SplitReducePiece {
  std::size_t first = 0;  // first element
  std::size_t count = 0;  // elements, >= 1
  ProcessorIndex aggregator = 0;
};

// Header: operation reduce, model fluid; `algorithm` describes the plan
// ("split reduce, 3 pieces").
struct SplitReducePlan : PlanHeader {
  SplitReducePlan() {
    operation = Operation::reduce;
    model = PlanModel::fluid;
  }
  ProcessorIndex root = 0;
  std::size_t count = 0;        // elements reduced
  double element_bytes = 0;     // bytes per element
  std::vector<SplitReducePiece> pieces;  // consecutive, covering [0, count)
  // Per processor: the pieces it sends its own contribution of, in order,
  // and when it posts each (seconds after the start). Empty for the root.
  std::vector<std::vector<std::size_t>> contributions;
  std::vector<std::vector<double>> post_times;
  // From simulate_split_reduce: per piece, when its aggregator holds every
  // contribution (its forward is posted then), and when the reduced piece
  // is at the root.
  std::vector<double> piece_ready;
  std::vector<double> piece_at_root;
  double predicted_seconds = 0;
};

}  // namespace hetcoll
