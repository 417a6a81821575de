// The flow model of a platform graph: what a message between two members
// costs when messages share links, as SimGrid's CM02 network model times
// them (Casanova, Legrand, Marchal, "Scheduling distributed applications:
// the SimGrid simulation framework", 2003; Velho, Legrand, "Accuracy study
// and improvement of network simulation in the SimGrid framework", 2009).
// sim/program_simulation.h runs communication programs on it.
//
// The model:
//  * A message from member i to member j follows the platform's route
//    (Platform::route, as model/graph_network.h). It first waits the route's
//    latency (the sum of its edges' latencies and fixed costs), then flows:
//    its rate is at most the route's narrowest bandwidth (FATPIPE links
//    included) and, when the latency L is positive, tcp_gamma / (2 L)
//    (SimGrid's TCP window bound, network/TCP-gamma).
//  * Shared resources: every link the route enters whose bandwidth is
//    shared (a SimGrid SHARED link, each direction of a SPLITDUPLEX one: a
//    one-port link node), and every latency/bandwidth edge between two
//    non-link nodes (a JSON graph's edges). Messages crossing a resource
//    share its bandwidth max-min fairly, weighted by 1 / their route's
//    latency (CM02's sharing penalty); FATPIPE links and routers are not
//    shared. Hosts are not resources: a host's messages share only the
//    links they cross (SimGrid's hosts have no network interface of their
//    own; a cluster's private links are its interfaces).
// What it does not model: TCP slow start, the SMPI correction factors of
// the LV08 and SMPI network models (benchmarks run CM02), cross traffic
// (network/crosstraffic), store-and-forward.
//
// Complexity: built with one route search per member (RouteMatrix); O(k^2 ·
// route length) space for k members.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "hetcoll/core/ids.h"
#include "hetcoll/model/platform.h"

namespace hetcoll {

// SimGrid's default network/TCP-gamma (bytes).
inline constexpr double kSimGridTcpGamma = 4194304;

class FlowNetwork {
 public:
  FlowNetwork() = default;
  // The members (distinct participants of `platform`), in rank order.
  // Throws InputError when two members are not connected. Fixed-cost edges
  // count as latency (a message crossing them waits their cost).
  FlowNetwork(const Platform& platform, std::vector<ProcessorIndex> members, double tcp_gamma = kSimGridTcpGamma);

  std::size_t size() const { return members_.size(); }
  const std::vector<ProcessorIndex>& members() const { return members_; }
  std::size_t resource_count() const { return capacity_.size(); }
  double capacity(std::size_t resource) const { return capacity_[resource]; }

  struct Path {
    double latency = 0;                    // seconds before the message flows
    double rate_bound = 0;                 // bytes/second, at most (infinite: none)
    std::vector<std::uint32_t> resources;  // shared resources crossed, each once
  };
  const Path& path(std::size_t from, std::size_t to) const { return paths_[from * members_.size() + to]; }
  // The time of a message of `bytes` alone on the network: latency + bytes / rate bound.
  double alone_time(std::size_t from, std::size_t to, double bytes) const;

 private:
  std::vector<ProcessorIndex> members_;
  std::vector<double> capacity_;
  std::vector<Path> paths_;
};

}  // namespace hetcoll
