// Site-aware broadcast, reduce and all-reduce: the message crosses the WAN
// once per site, in segments, and spreads inside every site with the
// site's best MPI algorithm, segment by segment.
//
// Problem: one MPI_Bcast, MPI_Reduce or MPI_Allreduce (count elements) on
// ranks that sit in two or more sites, where links between sites are much
// slower than links inside them (a grid of clusters joined by a WAN).
// Flat algorithms cross the WAN once per receiver (a split plan, a flat
// tree) or several times (Rabenseifner); every schedule must carry the
// whole message across the cut to a site at least once.
//
// Sites (sites_of_ranks): the platform's declared sites of the ranks' hosts
// (SimGrid zones, JSON "site") when they name two or more; otherwise the
// groups joined by routes of small latency: the distinct route latencies
// between ranks, sorted, are cut at their largest gap of at least
// kSiteLatencyGap (latencies under 1 µs count as 1 µs), and the ranks the
// routes below the cut join are a site.
//
// Plan (SitePlan): per site a leader (the root in the root's site; else the
// rank of the fastest route from the root, to the root, or to and from the
// other leaders); the message cut into `segments` segments; per site and
// phase one MPI algorithm of makespan/mpi_algorithms/ run on the site's
// ranks for each segment (the one predicted fastest on the site alone).
//  * broadcast: the root posts segment k to every other leader at
//    k · pace_seconds (0: all at once), then runs its site's broadcast of
//    segment k; a leader waits for segment k, then broadcasts it in its site.
//    With a gateway, the root first sends every segment to it (blocking),
//    and the gateway, not the root, posts them over the WAN: under CM02's
//    sharing a WAN flow (long latency) gets almost nothing of a link that
//    LAN flows also cross;
//  * reduce: each site reduces segment k to its leader, which sends it to
//    the root; the root reduces its own site, then combines what arrives;
//  * all-reduce: each site reduces segment k to its leader, which sends it
//    to every other leader; `lag` segments later a leader combines every
//    site's part of segment k (in site order, so every site computes the
//    same result) and broadcasts it in its site; with gateways, a rank of
//    each site that takes no part in its site's reduce and broadcast does
//    the WAN exchange instead of the leader.
// Direct plans (broadcast, reduce): every rank of another site is its own
// leader, for calls bound by the WAN's latency rather than its bandwidth.
// The planner builds the program of every (segments, pace, lag) in a small
// set (segments 1, 2, 4, ..., 64 with at least one element each; with and
// without pacing and gateways; direct; lags 1, 2, 4, ..., segments) and
// keeps the one sim::predict_program times fastest on the ranks'
// FlowNetwork (the flow model the MPI runtime's chooser ranks every
// candidate by).
//
// Guarantee: none on time beyond "the fastest of the programs tried, as
// predicted". The program computes the collective for commutative
// operations (verify/verify_program.h checks it in the tests); each WAN
// cut is crossed by count elements per site and direction (per remote rank
// in direct plans).
// Complexity: O(S · R) programs predicted for S segment counts and R
// pacing/lag choices, each O(K · m) messages for m messages of one
// segment's intra-site programs.
// Reference: the two-level (inter-cluster, intra-cluster) scheme of
// Karonis, de Supinski, Foster, Gropp, Lusk, Bresnahan, "Exploiting
// hierarchy in parallel computer networks to optimize collective operation
// performance" (MPICH-G2, IPDPS 2000), with segment pipelining across the
// WAN as in Kielmann, Hofman, Bal, Plaat, Bhoedjang, "MagPIe: MPI's
// collective communication operations for clustered wide area systems"
// (PPoPP 1999).
// Limits: one WAN sender per site and direction (or one per rank): a WAN
// narrower than a host's own link is not spread over several senders;
// sites found by latency only (a WAN of LAN latency and low bandwidth, or
// sites of one host each, need declared sites); commutative operations only.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/flow_network.h"
#include "hetcoll/model/platform.h"
#include "hetcoll/plan/comm_program.h"
#include "hetcoll/plan/plan.h"
#include "hetcoll/sim/program_simulation.h"

namespace hetcoll {

inline constexpr double kSiteLatencyGap = 10.0;

// The ranks of every site, each in rank order; sites ordered by their
// lowest rank. One site when the ranks form no two sites.
std::vector<std::vector<int>> sites_of_ranks(const Platform& platform,
                                             const std::vector<ProcessorIndex>& processor_of_rank,
                                             const FlowNetwork& network);

// Header (plan/plan_header.h): the operation, algorithm "sites", model
// fluid (predicted_seconds is the flow model's, model/flow_network.h:
// links shared max-min fair by concurrent flows), stats.seconds the time
// plan_site_collective took.
struct SitePlan : PlanHeader {
  SitePlan() {
    algorithm = "sites";
    model = PlanModel::fluid;
  }
  int root = 0;  // broadcast and reduce
  std::size_t element_count = 0;
  std::size_t element_bytes = 1;
  int ranks = 0;
  std::vector<std::vector<int>> sites;  // ranks of each site
  std::vector<int> leaders;             // per site
  // Per site: the MPI algorithm (makespan/mpi_algorithms/ names) of its
  // broadcast and of its reduce phase ("" where the phase does not run or
  // the site has one rank).
  std::vector<std::string> site_broadcast, site_reduce;
  std::size_t segments = 1;
  double pace_seconds = 0;  // broadcast: segment k leaves for the WAN at k · pace_seconds
  // Broadcast: -1, or a rank of the root's site that receives every segment
  // from the root first and alone sends them over the WAN (its link then
  // carries no traffic of its site); the root's site's broadcast runs on its
  // other ranks.
  int gateway = -1;
  // All-reduce: per site -1, or a rank other than the leader that alone
  // crosses the WAN: the leader hands it the site's part of each segment,
  // it adds its own contribution, exchanges parts with the other sites,
  // combines, and hands the result back; the site's reduce and broadcast
  // run on its other ranks. Empty: no gateways.
  std::vector<int> allreduce_gateways;
  // Broadcast and reduce: every rank of another site is its own leader (the
  // WAN carries one message per remote rank, their latencies overlapping:
  // for calls whose time is the WAN's latency, not its bandwidth).
  bool direct = false;
  std::size_t lag = 0;      // all-reduce: segments reduced before the first is broadcast
  double predicted_seconds = 0;
};

// The fastest site plan tried (see the header). Throws InputError when the
// ranks form fewer than two sites, the operation is not one of the three,
// count is 0 or the root is not a rank.
SitePlan plan_site_collective(const Platform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                              const FlowNetwork& network, Operation operation, int root, std::size_t count,
                              std::size_t element_bytes, const sim::FlowModelOptions& flow = {});

// The program of a plan (what the runtime runs and the flow model times).
CommProgram program_of_site_plan(const SitePlan& plan);

}  // namespace hetcoll
