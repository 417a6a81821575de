// From per-period message counts to the one-port slots of a period:
// Legrand, Marchal, Robert 2003 sec. 3.3 (Figs. 3-4), sec. 4.3.
//
// Input: for every edge, the messages of each type (and, for reduce, each
// tree) it carries per period — whole numbers — and the period T.
// The bipartite graph has a sender vertex per node whose port the edge uses
// and a receiver vertex likewise; an edge is weighted by its busy time
// (messages x c(e)). An end with unlimited ports gets a vertex of its own
// per edge (it constrains nothing). Edges that use no port at all (cost 0,
// or unlimited ports at both ends) need no slot of their own: their
// transfers are listed in the first slot and take no port time.
// weighted_edge_colouring (edge_colouring.h) decomposes the graph into
// matchings whose lengths sum to the largest port load Delta <= T; each
// matching becomes a slot, and the rest of the period an idle slot. Within a
// slot an edge carries its types one after the other (in input order),
// continuing where the previous slot stopped: a message may be split across
// slots (Fig. 4(a)). With `split_messages` false, everything is multiplied
// by the lcm of the denominators of the per-slot counts, so every count is a
// whole number (Fig. 4(b)); the throughput is unchanged, the period grows by
// that factor (`scale`).
// Polynomial: at most |E| + N matchings, never one step per time unit.
#pragma once

#include <vector>

#include "hetcoll/plan/periodic_plan.h"
#include "hetcoll/model/steady_platform.h"

namespace hetcoll {

struct ScheduledItem {
  std::size_t edge = 0;
  MessageType type;
  int tree = -1;
  Rational messages;  // per period, > 0
};

struct OnePortSchedule {
  std::vector<Slot> slots;  // lengths sum to `period`
  BigInteger period;        // the input period x scale
  BigInteger scale = 1;     // 1 when messages may be split
  int matchings = 0;        // non-idle slots
};

// Throws std::logic_error when a port is busier than the period (the counts
// do not come from a feasible solution).
OnePortSchedule build_one_port_schedule(const SteadyPlatform& platform, const BigInteger& period,
                                        const std::vector<ScheduledItem>& items, bool split_messages);

// Whether an edge occupies its sender's / receiver's port.
bool uses_sender_port(const SteadyPlatform& platform, std::size_t edge);
bool uses_receiver_port(const SteadyPlatform& platform, std::size_t edge);

}  // namespace hetcoll
