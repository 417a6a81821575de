// Split broadcast in the eager model: the source cuts the message into
// pieces, hands each piece to a "spreader", and every spreader sends its
// piece to all the other participants — a scatter followed by an
// all-gather, with the pieces sized to the spreaders' speeds and each piece
// cut into chunks so that spreading starts before the scatter ends.
//
// Problem: broadcast a message of `elements` elements (each `element_bytes`
// bytes; every message also carries `envelope_bytes`) from a source to k
// participants on a platform graph, moving parts of the message rather
// than the whole. The whole-message plans (eager_broadcast.h) send the
// message once per tree edge, so the source's or some forwarder's link
// carries the whole message several times; here every participant's link
// carries a share, so the time approaches the total bytes the participants
// must receive divided by the links' joint capacity.
//
// Plan: pieces (a spreader and a contiguous range of elements; at most one
// piece per spreader; together they cover the message once), a number of
// chunks K (piece p's elements split into K near-equal chunks,
// split_chunk_range; empty chunks send nothing) and the transfers:
//  * handing: for chunk c = 0..K-1, for each piece in order, the source
//    sends chunk c of the piece to its spreader, or — for the source's own
//    piece — to every other participant;
//  * spreading: a spreader other than the source sends each chunk of its
//    piece, as it arrives (chunk order), to every participant but itself
//    and the source, in member order starting after itself.
// Times follow the eager model (model/eager_model.h): a sender's link
// carries one message at a time, each for its occupancy, latencies overlap,
// receiving is free; a spreader sends a chunk once it holds it. Costs are
// affine in the bytes: occupancy(u, v, S) = fixed + S / bandwidth along
// u's route to v, the delay its latencies (SplitCosts, read from the eager
// matrices of two message sizes; routes are those of the whole message).
// The makespan is the last arrival.
//
// Planner: for each K in 1, 2, 3, 4, 6, 8, 12, 16 (K x k at most the
// elements), three starts — pieces proportional to each member's spreading
// rate (1 / the per-byte occupancy of sending one byte to all the others),
// the same without the source, and the source's piece alone (the flat tree
// in K chunks) — each refined by up to 60 rounds that move elements from
// the pieces that finish last to those that finish first (each piece scaled
// by sqrt(mean finish / its finish), rounded to whole elements); the best
// schedule seen wins (ties: the first found). So the plan is never slower,
// in the model, than the flat tree sending the whole message.
// Guarantee: none (a heuristic in the eager model); no lower bound is
// claimed. In SimGrid SMPI on NIC clusters it broadcasts 4096 ints 2.4x
// faster than the best built-in (docs/RESULTS.md).
// Complexity: one schedule is O(K · k²) (every chunk to every member);
// planning O(8 · 60 · K · k²) plus the two eager matrices (O(k · route
// search)).
// References: the homogeneous scheme is the scatter + all-gather broadcast
// of long messages (Barnett, Gupta, Payne, Shuler, van de Geijn, Watts,
// "Interprocessor collective communication library (InterCom)", 1994;
// Thakur, Rabenseifner, Gropp, "Optimization of collective communication
// operations in MPICH", 2005); the sizing to heterogeneous links is
// hetcoll's.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/eager_model.h"
#include "hetcoll/model/graph_network.h"

namespace hetcoll {

// Affine eager costs between members: occupancy(u, v, S) = fixed + S x
// per_byte, delay independent of S.
class SplitCosts {
 public:
  SplitCosts() = default;
  // From the eager matrices of the same members at two different message
  // sizes (bytes_a < bytes_b). Throws InputError (parameter "participants")
  // when two members are not connected.
  SplitCosts(const EagerMatrix& at_a, double bytes_a, const EagerMatrix& at_b, double bytes_b);
  // Builds both matrices for `members` of `platform` (sizes 1 KiB and 64 KiB).
  static SplitCosts of(const Platform& platform, std::vector<ProcessorIndex> members);

  std::size_t size() const { return members_.size(); }
  const std::vector<ProcessorIndex>& members() const { return members_; }
  double occupancy(std::size_t from, std::size_t to, double bytes) const {
    const auto& pair = pairs_[from * members_.size() + to];
    return pair.fixed + bytes * pair.per_byte;
  }
  double delay(std::size_t from, std::size_t to) const { return pairs_[from * members_.size() + to].delay; }
  double per_byte(std::size_t from, std::size_t to) const { return pairs_[from * members_.size() + to].per_byte; }

 private:
  struct Pair {
    double fixed = 0, per_byte = 0, delay = 0;
  };
  std::vector<ProcessorIndex> members_;
  std::vector<Pair> pairs_;
};

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

struct SplitBroadcastPlan {
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
  std::string description;
};

// The elements [first, first + count) of chunk `chunk` of a piece of
// `piece_elements` elements cut into `chunks` chunks (the first
// piece_elements % chunks chunks get one more).
std::pair<std::size_t, std::size_t> split_chunk_range(std::size_t piece_elements, std::size_t chunks,
                                                      std::size_t chunk);

// The schedule of the header for given pieces and chunk count: fills
// `transfers` and `makespan` of `plan` (members, source, elements, sizes,
// chunks and pieces set).
void schedule_split_broadcast(SplitBroadcastPlan& plan, const SplitCosts& costs);

// The planner of the header. `source` is a member index. Throws InputError
// naming the parameter (elements, element_bytes, envelope_bytes, source).
SplitBroadcastPlan plan_split_broadcast(const SplitCosts& costs, std::size_t source, std::size_t elements,
                                        double element_bytes, double envelope_bytes = 0);

}  // namespace hetcoll
