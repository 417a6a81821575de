#include "hetcoll/makespan/flow_lower_bound.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

struct Pair {
  std::uint32_t from, to;
};

class BoundComputation {
 public:
  BoundComputation(const FlowNetwork& network, Operation operation, std::size_t root, double element_bytes,
                   double buffer_bytes, double envelope_bytes)
      : network_(network),
        n_(network.size()),
        operation_(operation),
        root_(root),
        whole_(buffer_bytes + envelope_bytes),
        latency_(n_ * n_, 0),
        hop_(n_ * n_, 0),
        chain_(n_ * n_, 0) {
    const double smallest_message = element_bytes + envelope_bytes;
    for (std::size_t i = 0; i < n_; ++i) {
      for (std::size_t j = 0; j < n_; ++j) {
        if (i == j) continue;
        const auto& path = network.path(i, j);
        latency_[i * n_ + j] = path.latency;
        hop_[i * n_ + j] = path.latency + (std::isfinite(path.rate_bound) ? smallest_message / path.rate_bound : 0);
      }
    }
    // Shortest chains of one-element messages (Floyd-Warshall).
    chain_ = hop_;
    for (std::size_t k = 0; k < n_; ++k) {
      for (std::size_t i = 0; i < n_; ++i) {
        const double ik = chain_[i * n_ + k];
        for (std::size_t j = 0; j < n_; ++j) chain_[i * n_ + j] = std::min(chain_[i * n_ + j], ik + chain_[k * n_ + j]);
      }
    }
    crossing_.resize(network.resource_count());
    for (std::size_t i = 0; i < n_; ++i) {
      for (std::size_t j = 0; j < n_; ++j) {
        if (i == j) continue;
        for (auto r : network.path(i, j).resources) {
          crossing_[r].push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(j)});
        }
      }
    }
  }

  FlowLowerBound run() {
    FlowLowerBound best;
    auto consider = [&best](double seconds, const char* binding) {
      if (seconds > best.seconds) best = {seconds, binding};
    };
    consider(latency_bound(), "latency");
    consider(cut_bound(), "cut");
    if (operation_ == Operation::broadcast) {
      consider(broadcast_direct_or_relayed(), "direct or relayed");
    } else if (operation_ == Operation::reduce) {
      consider(reduce_direct_or_relayed(root_), "direct or relayed");
    } else {
      for (std::size_t v = 0; v < n_; ++v) consider(reduce_direct_or_relayed(v), "direct or relayed");
      consider(traffic_bound(), "traffic");
    }
    return best;
  }

 private:
  double lat(std::size_t i, std::size_t j) const { return latency_[i * n_ + j]; }
  double hop(std::size_t i, std::size_t j) const { return hop_[i * n_ + j]; }
  double chain(std::size_t i, std::size_t j) const { return chain_[i * n_ + j]; }
  bool is_destination(std::size_t v) const {
    return operation_ == Operation::broadcast ? v != root_ : operation_ == Operation::reduce ? v == root_ : true;
  }

  double latency_bound() const {
    double bound = 0;
    for (std::size_t u = 0; u < n_; ++u) {
      for (std::size_t v = 0; v < n_; ++v) {
        if (u == v) continue;
        const bool needed = operation_ == Operation::broadcast ? u == root_
                            : operation_ == Operation::reduce  ? v == root_
                                                               : true;
        if (needed) bound = std::max(bound, chain(u, v));
      }
    }
    return bound;
  }

  // For each resource and destination v: the members that reach v only
  // across the resource (a reverse search from v over the routes that avoid
  // it: the unvisited members are scanned against the blocked pairs).
  double cut_bound() {
    double bound = 0;
    std::vector<std::uint8_t> blocked(n_ * n_, 0);
    std::vector<std::uint8_t> reaches(n_);
    std::vector<std::uint32_t> unvisited, frontier;
    for (std::size_t r = 0; r < crossing_.size(); ++r) {
      const auto& pairs = crossing_[r];
      if (pairs.empty()) continue;
      const double capacity = network_.capacity(r);
      if (!(capacity > 0)) continue;
      for (const auto& p : pairs) blocked[p.from * n_ + p.to] = 1;
      for (std::size_t v = 0; v < n_; ++v) {
        if (!is_destination(v)) continue;
        std::fill(reaches.begin(), reaches.end(), 0);
        reaches[v] = 1;
        unvisited.clear();
        for (std::size_t u = 0; u < n_; ++u) {
          if (u != v) unvisited.push_back(static_cast<std::uint32_t>(u));
        }
        frontier.assign(1, static_cast<std::uint32_t>(v));
        while (!frontier.empty() && !unvisited.empty()) {
          const std::uint32_t x = frontier.back();
          frontier.pop_back();
          std::size_t kept = 0;
          for (std::uint32_t y : unvisited) {
            if (blocked[y * n_ + x]) {
              unvisited[kept++] = y;
            } else {
              reaches[y] = 1;
              frontier.push_back(y);
            }
          }
          unvisited.resize(kept);
        }
        if (unvisited.empty()) continue;  // every member reaches v around r
        if (operation_ == Operation::broadcast && reaches[root_]) continue;
        double head = kInfinity, tail = kInfinity;
        for (const auto& p : pairs) {
          if (reaches[p.from] || !reaches[p.to]) continue;  // not a hop out of U
          const double ready = operation_ == Operation::broadcast ? chain(root_, p.from) : 0;
          head = std::min(head, ready + lat(p.from, p.to));
          tail = std::min(tail, chain(p.to, v));
        }
        if (std::isfinite(head)) bound = std::max(bound, head + whole_ / capacity + tail);
      }
      for (const auto& p : pairs) blocked[p.from * n_ + p.to] = 0;
    }
    return bound;
  }

  // Direct or relayed, for the hosts X with the k latest releases, every k:
  // either each host of X exchanges all its elements with `center` directly
  // (the routes' resources carry B + e per host of X, each after its
  // route's latency: x + (bytes released at x or later) / capacity), or
  // some element of a host of X is relayed (its relay time). Hosts come in
  // decreasing release order; the bound is the best k's min of the two.
  struct Host {
    double release = 0, relay = 0;
    const std::vector<std::uint32_t>* resources = nullptr;
  };
  double direct_or_relayed(std::vector<Host>& hosts) const {
    std::sort(hosts.begin(), hosts.end(), [](const Host& a, const Host& b) { return a.release > b.release; });
    std::vector<double> bytes(network_.resource_count(), 0);
    double direct = 0, relayed = kInfinity, bound = 0;
    for (const auto& host : hosts) {
      direct = std::max(direct, host.release);
      for (auto r : *host.resources) {
        bytes[r] += whole_;
        direct = std::max(direct, host.release + bytes[r] / network_.capacity(r));
      }
      relayed = std::min(relayed, host.relay);
      bound = std::max(bound, std::min(direct, relayed));
    }
    return bound;
  }

  double broadcast_direct_or_relayed() const {
    std::vector<Host> hosts;
    for (std::size_t v = 0; v < n_; ++v) {
      if (v == root_) continue;
      double relay = kInfinity;
      for (std::size_t s = 0; s < n_; ++s) {
        if (s != root_ && s != v) relay = std::min(relay, chain(root_, s) + hop(s, v));
      }
      hosts.push_back({lat(root_, v), relay, &network_.path(root_, v).resources});
    }
    return direct_or_relayed(hosts);
  }

  double reduce_direct_or_relayed(std::size_t v) const {
    std::vector<Host> hosts;
    for (std::size_t u = 0; u < n_; ++u) {
      if (u == v) continue;
      double relay = kInfinity;
      for (std::size_t m = 0; m < n_; ++m) {
        if (m != u && m != v) relay = std::min(relay, hop(u, m) + chain(m, v));
      }
      hosts.push_back({lat(u, v), relay, &network_.path(u, v).resources});
    }
    return direct_or_relayed(hosts);
  }

  // The least T with sum_u capacity_u max(0, T - release_u) >= bytes.
  static double fill_time(std::vector<std::pair<double, double>> links, double bytes) {
    std::sort(links.begin(), links.end());
    double rate = 0, at = 0, filled = 0;
    for (std::size_t i = 0; i < links.size(); ++i) {
      const double next = links[i].first;
      if (rate > 0 && filled + rate * (next - at) >= bytes) return at + (bytes - filled) / rate;
      filled += rate * (next - at);
      at = next;
      rate += links[i].second;
    }
    return rate > 0 ? at + (bytes - filled) / rate : kInfinity;
  }

  // The resource every route from (to) member u crosses with the least
  // capacity; +inf when none is common to them all.
  double common_capacity(std::size_t u, bool outgoing) const {
    std::vector<std::uint32_t> common;
    bool first = true;
    for (std::size_t m = 0; m < n_; ++m) {
      if (m == u) continue;
      auto resources = outgoing ? network_.path(u, m).resources : network_.path(m, u).resources;
      std::sort(resources.begin(), resources.end());
      if (first) {
        common = resources;
        first = false;
      } else {
        std::vector<std::uint32_t> kept;
        std::set_intersection(common.begin(), common.end(), resources.begin(), resources.end(),
                              std::back_inserter(kept));
        common.swap(kept);
      }
    }
    double capacity = kInfinity;
    for (auto r : common) capacity = std::min(capacity, network_.capacity(r));
    return capacity;
  }

  double traffic_bound() const {
    if (n_ < 2) return 0;
    const double bytes = 2.0 * static_cast<double>(n_ - 1) * whole_;
    double bound = 0;
    for (bool outgoing : {true, false}) {
      std::vector<std::pair<double, double>> links;
      bool every_member = true;
      for (std::size_t u = 0; u < n_ && every_member; ++u) {
        const double capacity = common_capacity(u, outgoing);
        if (!std::isfinite(capacity)) every_member = false;
        double release = kInfinity;
        for (std::size_t m = 0; m < n_; ++m) {
          if (m != u) release = std::min(release, outgoing ? lat(u, m) : lat(m, u));
        }
        links.push_back({release, capacity});
      }
      if (every_member) bound = std::max(bound, fill_time(links, bytes));
    }
    return bound;
  }

  const FlowNetwork& network_;
  std::size_t n_;
  Operation operation_;
  std::size_t root_;
  double whole_;  // the buffer and one envelope
  std::vector<double> latency_, hop_, chain_;
  std::vector<std::vector<Pair>> crossing_;
};

}  // namespace

FlowLowerBound flow_lower_bound(const FlowNetwork& network, Operation operation, std::size_t root,
                                std::size_t count, std::size_t element_bytes, double envelope_bytes) {
  if (operation != Operation::broadcast && operation != Operation::reduce && operation != Operation::allreduce) {
    throw InputError("operation", fmt::format("a flow lower bound is for broadcast, reduce or allreduce, not {}",
                                              to_string(operation)));
  }
  if (operation != Operation::allreduce && root >= network.size()) {
    throw InputError("root", fmt::format("root {} is not one of the {} members", root, network.size()));
  }
  if (element_bytes == 0) throw InputError("element_bytes", "must be at least 1");
  if (!(envelope_bytes >= 0) || !std::isfinite(envelope_bytes)) {
    throw InputError("envelope_bytes", "must be finite and >= 0");
  }
  if (network.size() < 2 || count == 0) return {};
  const double element = static_cast<double>(element_bytes);
  return BoundComputation(network, operation, root, element, static_cast<double>(count) * element, envelope_bytes)
      .run();
}

}  // namespace hetcoll
