// The eager model of a broadcast on a platform graph (its time reversal, the
// eager reduce: makespan/eager/eager_reduce.h): what a message costs
// when a node hands all its messages to the network at once, as MPI does
// with small messages (the eager protocol: a standard send of a small
// message completes at once, without waiting for its receiver).
//
// The model (docs/ALGORITHMS.md "The eager model" states it for users):
//  * A transfer u -> v follows the platform's route (model/graph_network.h,
//    Platform::route) and splits the route's time (Platform::route_time)
//    into two parts:
//      occupancy(u, v) = the route's fixed costs + S / its narrowest bandwidth,
//      delay(u, v)     = the sum of the route's latencies,
//    for the message size S. occupancy + delay = the route's time.
//  * A node sends to all its children as soon as it holds the message (the
//    source at time 0), in a send order, without waiting for any answer:
//    its link carries one message at a time, each for its occupancy, and
//    the next message leaves as soon as the previous one has left the link,
//    while the latencies overlap. Child number j of u (v_1, ..., v_j in
//    send order) holds the message at
//        t(v_j) = t(u) + delay(u, v_j) + occupancy(u, v_1) + ... + occupancy(u, v_j).
//    In a plan, the transfer u -> v_j starts when it starts to occupy u's
//    link, t(u) + occupancy(u, v_1) + ... + occupancy(u, v_{j-1}), and
//    lasts its route's time (delay + occupancy); the MPI runtime posts each
//    send (a standard, eager MPI_Isend) at its start time.
//  * Receiving costs nothing and a node receives once; there are no ports:
//    a node may receive while it sends, and messages of different senders
//    never wait for each other (the model ignores contention inside the
//    network, like the one-port models' unlimited nodes).
// With zero latencies it is the sender-speed one-port broadcast (each send
// occupies the sender for its whole time); with one occupancy o and one
// delay d for every pair it is the postal model of Bar-Noy and Kipnis,
// "Designing broadcasting algorithms in the postal model for
// message-passing systems" (1994), with λ = 1 + d / o in units of o.
// When it holds: small messages under an eager MPI protocol, whose sends
// complete without their receiver, on a network that gives a node's link
// to its messages one after the other. A network that shares the link
// among concurrent flows instead (SimGrid SMPI's fluid model) delays the
// first messages to when the last would arrive; the runtime avoids that by
// posting each send at its start time.
//
// STABLE INTERFACE: EagerCost, eager_cost, EagerMatrix.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/graph_network.h"

namespace hetcoll {

struct EagerCost {
  double occupancy = kNoRoute;  // fixed costs + S / narrowest bandwidth
  double delay = kNoRoute;      // sum of the latencies
  double time() const { return occupancy + delay; }
  bool connected() const { return occupancy < kNoRoute; }
};

// The eager cost of one message of the network's message size on `route`
// (edge indices into the platform's edges, in travel order). A non-empty
// route only; throws InputError (parameter message_size) when an edge needs
// a message size and the network has none.
EagerCost eager_cost(const GraphNetwork& network, std::span<const std::size_t> route);

// The eager matrix refuses more members than this: it keeps k x k costs
// (16 bytes a pair: 256 MiB at the cap).
inline constexpr std::size_t kEagerMemberCap = 4096;

// Eager costs between every ordered pair of a set of participants
// ("members"), with one route search per member: O(k · search) time, O(k²)
// space. Pairs that meet at a hub (the hosts of one SimGrid <cluster>,
// Platform::hub_route) need no search: their cost comes from the two route
// halves, worked out once per class of halves (O(k) halves, O(k²) copies).
// Either way every entry is eager_cost of the platform's route, bit for bit.
// Pairs without a route are not connected().
class EagerMatrix {
 public:
  EagerMatrix() = default;
  // Throws InputError (parameter "participants") beyond kEagerMemberCap
  // members, naming the count.
  EagerMatrix(const GraphNetwork& network, std::vector<ProcessorIndex> members);

  std::size_t size() const { return members_.size(); }
  const std::vector<ProcessorIndex>& members() const { return members_; }
  ProcessorIndex member(std::size_t i) const { return members_[i]; }
  const EagerCost& cost(std::size_t from, std::size_t to) const { return cost_[from * members_.size() + to]; }

  // The smallest occupancy and the smallest delay over the connected pairs
  // of distinct members (each may come from another pair): every eager
  // transfer takes at least them (kNoRoute when no pair is connected).
  double smallest_occupancy() const { return smallest_occupancy_; }
  double smallest_delay() const { return smallest_delay_; }

  // The same members with every pair reversed: transposed().cost(i, j) ==
  // cost(j, i). An eager reduce on these costs is the time reversal of an
  // eager broadcast on the transposed ones (makespan/eager/eager_reduce.h).
  // O(k²) time and space; the rvalue overload transposes in place (no
  // second k x k copy: EagerMatrix(network, members).transposed()).
  EagerMatrix transposed() const&;
  EagerMatrix transposed() &&;

 private:
  std::vector<ProcessorIndex> members_;
  std::vector<EagerCost> cost_;
  double smallest_occupancy_ = kNoRoute;
  double smallest_delay_ = kNoRoute;
};

}  // namespace hetcoll
