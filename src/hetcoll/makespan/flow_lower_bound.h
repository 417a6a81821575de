// A lower bound on the completion time of every broadcast, reduce or
// all-reduce schedule in the flow model (model/flow_network.h: routes'
// latencies, shared resources at their capacity, as SimGrid CM02 with
// crosstraffic 0 runs SMPI; sim/program_simulation.h predicts programs in it).
//
// Problem: n members, a root (broadcast, reduce), B = count x element_bytes
// bytes per buffer, e envelope bytes per message. Which time T no schedule
// of point-to-point messages reaches, whatever it splits, relays or combines.
//
// Guarantee: T_bound <= the flow model's time of every schedule that moves
// elements whole (each element of a message is a buffer element, raw or
// combined), as every MPI library's and hetcoll's do; no schedule is claimed
// to reach it. A message flows only after its route's latency, at most at
// its route's rate bound, and the messages crossing a shared resource share
// its capacity; posting, eager and rendezvous sends add nothing provable.
// With w(i,j) = latency(i,j) + (element_bytes + e) / rate bound(i,j) (the
// least time of a message carrying one element) and d the shortest chains
// of w, T_bound is the largest of:
//  * latency: the farthest destination from its data, d(root, v) (reduce:
//    d(u, root); all-reduce: max over pairs).
//  * cut: for a resource r (capacity c) and a destination v, U = the
//    members whose chains to v all cross r; the B bytes v needs from U
//    (broadcast: root in U) cross r on hops (s in U, m not in U): T >= min
//    (ready(s) + latency(s, m)) + (B + e) / c + min d(m, v), ready(s) =
//    d(root, s) for a broadcast, 0 otherwise. A host's own up and down
//    links and a site's WAN link are such cuts.
//  * direct or relayed (broadcast; reduce and all-reduce towards each
//    destination v), for X = the k hosts of the longest routes from the
//    root (to v), every k: either every host of X gets all B from the root
//    directly (sends all B to v directly) — then every resource r carries
//    B + e per route of X through it, each after its latency: T >= max over
//    release times x of x + (the bytes released at x or later) / c — or
//    some element of a host h of X is relayed: T >= min d(root, s) +
//    w(s, h), s not the root or h (min w(h, m) + d(m, v)). The smaller of
//    the two cases bounds T: it proves the flat tree optimal at small sizes
//    on a star (one up link, two latencies).
//  * traffic (all-reduce): every element takes at least 2 (n - 1)
//    transfers (one-way gossip), so the members' up links (resources every
//    route from a member crosses) carry 2 (n - 1)(B + e) bytes: the least T
//    with sum_u c_u max(0, T - min latency from u) >= 2 (n - 1)(B + e);
//    likewise the down links. The split all-reduce's NIC bounds
//    (makespan/split/split_allreduce_nic.h) in this model.
// Complexity: O(n^3 + n R (n + K)) time for R resources crossed by K
// route-resource pairs in all (all-reduce: + O(n (n^2 + K))); O(n^2 + K + R)
// space.
// Reference: cut and release-time bounds of flow scheduling; one-way
// gossip needs 2n - 2 calls (Hedetniemi, Hedetniemi, Liestman, "A survey of
// gossiping and broadcasting in communication networks", 1988); Patarasuk,
// Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
// workstations", 2009.
// Known limits: cuts of one resource only (a cut through two parallel links
// is not considered); the rate bound of a route is used for single
// messages only (concurrent messages on one route may each reach it).
#pragma once

#include <cstddef>
#include <string>

#include "hetcoll/model/flow_network.h"
#include "hetcoll/plan/plan_header.h"

namespace hetcoll {

struct FlowLowerBound {
  double seconds = 0;
  // Which bound gives `seconds`: "latency", "cut", "direct or relayed" or
  // "traffic" (empty for a single member).
  std::string binding;
};

// operation: broadcast, reduce or allreduce; root < network.size() (ignored
// for allreduce). Throws InputError naming the parameter otherwise, or when
// element_bytes is 0 or envelope_bytes is negative or not finite.
FlowLowerBound flow_lower_bound(const FlowNetwork& network, Operation operation, std::size_t root,
                                std::size_t count, std::size_t element_bytes, double envelope_bytes);

}  // namespace hetcoll
