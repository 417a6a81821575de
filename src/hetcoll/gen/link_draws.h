// Pieces shared by the platform-graph generators (random_platform.h,
// tiers_platform.h): link bandwidth draws, the multi-port send overhead rule
// and the platform assembly. Both generators follow Beaumont, Marchal, Robert
// 2004, Table 2: a link's bandwidth is Gaussian (mean 100 MB/s, deviation
// 20 MB/s) and a node's send overhead is 0.8 x the time of its fastest link.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "hetcoll/model/platform.h"

namespace hetcoll {

struct LinkDrawOptions {
  double bandwidth_mean = 100e6;       // bytes/s
  double bandwidth_deviation = 20e6;   // bytes/s
  // Send overhead of the multi-port model, as a fraction of the time the
  // node's fastest outgoing link takes for one slice. A node's
  // `send_overhead` is seconds per slice sent, whatever the slice size, so
  // by default none is written: the planners then apply the paper's rule
  // (0.8 x the fastest link, broadcast_tree.h) at the slice size in use,
  // and the overhead scales with it. With `slice_size` given, or another
  // fraction, each node gets the fixed send_overhead (seconds) of one slice
  // of `slice_size` bytes (default 1e6) instead.
  double send_overhead_fraction = 0.8;
  std::optional<double> slice_size;    // bytes; only used for send_overhead

  bool writes_send_overhead() const { return slice_size.has_value() || send_overhead_fraction != 0.8; }
};

// Throws InputError naming the parameter when a value is out of range.
void validate_link_draw_options(const LinkDrawOptions& options, const char* generator);

// A Gaussian bandwidth, redrawn while below a tenth of the mean so that no
// link is absurdly slow (or negative); the redraws come from the same
// stream, so the result stays deterministic for a seed.
double draw_bandwidth(std::mt19937_64& rng, const LinkDrawOptions& options);

// An undirected link between two nodes; it becomes two directed edges with
// the same latency and bandwidth (a full-duplex link).
struct UndirectedLink {
  ProcessorIndex a = kNoProcessor;
  ProcessorIndex b = kNoProcessor;
  double latency = 0.0;
  double bandwidth = 0.0;
};

// Builds the platform: both directions of every link, and, when
// options.writes_send_overhead(), each node's send_overhead by the rule above.
Platform assemble_generated_platform(std::vector<std::string> node_ids, const std::vector<UndirectedLink>& links,
                                     const LinkDrawOptions& options, const char* generator);

}  // namespace hetcoll
