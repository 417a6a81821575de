// Multicast with helper processors — Khuller, Kim, Woeginger 2003 sec. 4 (Khuller, Kim, Woeginger).
//
// Problem: sender-speed cluster, a source holding one message; only the
// targets must receive it, but any other processor may receive and forward
// (a "helper"); minimise the last receive time of a target.
//
// Facts we build on:
//  * Khuller, Kim, Woeginger 2003 sec. 4 (proof of Thm 4): if an optimal multicast uses k
//    non-members, they may be taken to be the k fastest ones (a faster
//    processor in the same place of the tree never delays anything). So
//    OPT = min over k of OPT_broadcast(source ∪ targets ∪ H_k), H_k = the k
//    fastest non-members (ties by index).
//  * k <= |targets| - 1 suffices (our observation, proven here): a helper
//    with one child can be bypassed (its parent sends straight to the child
//    in the same slot, which is earlier), a helper with none removed; in the
//    resulting tree every helper has >= 2 children, and a tree has fewer
//    nodes with >= 2 children than leaves, all of which are targets.
//  * every plan is cleaned up by prune_idle_helpers (ordered_tree.h): helpers
//    that end up forwarding to nobody are dropped and the tree re-timed.
//
// Algorithms (registered for Operation::multicast):
//  * fnf: FNF over source ∪ targets ∪ H_k for every k in 0..min(#non-members,
//    |targets|), keep the best. <= 1.5 x optimal when the source is a
//    fastest processor among the targets and the helpers it may use
//    (Khuller–Kim via Khuller, Kim, Woeginger 2003 sec. 1, applied to the optimum's k), else
//    <= 2 x optimal (Liu 2002 Thm 4.7). O(|targets| g log g), g = group size.
//  * ptas: the broadcast PTAS (broadcast/ptas.h) for every k; the ratio
//    (1+eps)(1+eps')(1+3eps') of the best k carries over (Khuller, Kim, Woeginger 2003 Thm 4).
//  * optimal: exact. For every k, the optimal broadcast search of
//    broadcast/optimal_search.h over source ∪ targets ∪ H_k (Liu 2002 sec. 5:
//    receive orders by class, dominance rules, memoisation), all k sharing
//    one incumbent (the FNF multicast, then the best found). Exponential:
//    beyond kExactMulticastMaxReceivers receivers per k (targets + helpers)
//    it refuses (status refused, the FNF multicast returned); limits
//    (core/limits.h) return the best plan so far.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "hetcoll/core/limits.h"
#include "hetcoll/makespan/sender_speed/broadcast/ptas.h"
#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

// The largest number of receivers (targets + helpers) `optimal` searches.
inline constexpr int kExactMulticastMaxReceivers = 20;

struct MulticastGroup {
  ProcessorIndex source = kNoProcessor;
  std::vector<ProcessorIndex> targets;     // deduplicated, without the source
  std::vector<ProcessorIndex> candidates;  // non-members, fastest first (ties by index)
  int max_useful_helpers = 0;              // min(#candidates, |targets| - 1)

  // The targets followed by the k fastest candidates.
  std::vector<ProcessorIndex> receivers_with_helpers(int k) const;
};

// Throws InputError for an empty target list or an unknown processor.
MulticastGroup make_multicast_group(const Cluster& cluster, ProcessorIndex source,
                                    const std::vector<ProcessorIndex>& targets);

// min over k of the broadcast bound of bounds.h on source ∪ targets ∪ H_k.
double multicast_lower_bound(const Cluster& cluster, const MulticastGroup& group);

// `max_helpers` caps k (0 = the group alone); default: every useful k.
MakespanPlan plan_multicast_fnf(const Cluster& cluster, ProcessorIndex source,
                                const std::vector<ProcessorIndex>& targets, std::optional<int> max_helpers = {});

MakespanPlan plan_multicast_ptas(const Cluster& cluster, ProcessorIndex source,
                                 const std::vector<ProcessorIndex>& targets, const PtasParameters& parameters,
                                 std::optional<int> max_helpers = {});

MakespanPlan plan_multicast_exact(const Cluster& cluster, ProcessorIndex source,
                                  const std::vector<ProcessorIndex>& targets, const SearchLimits& limits = {},
                                  std::optional<int> max_helpers = {});

}  // namespace hetcoll
