// Split all-reduce in the NIC fluid model (split_allreduce_nic.h states the
// contract): the event-driven replay, the greedy run that orders the posts,
// the bounds and the sizing.
//
// The engine: messages are posted by a "poster" (the replay of a plan's
// order, or the greedy run), wait their sender's latency, then flow at the
// weighted max-min rates of the links they cross (the sender's up link and
// the receiver's down link; weight 1 / L_sender, each flow at most
// min(U_sender, D_receiver)), recomputed whenever a flow starts or ends —
// the rules of simulate_split_reduce (split_reduce.cpp), which SMPI matches.

#include "hetcoll/makespan/split/split_allreduce_nic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/split/split_sizing_internal.h"

namespace hetcoll {

namespace {

constexpr double kNicPlanInfinity = std::numeric_limits<double>::infinity();
// The sizing per chunk count: golden-section steps, rebalancing rounds,
// and the simulations that takes at most (2 + steps + rounds).
constexpr int kGoldenSteps = 8;
constexpr int kRebalancingRounds = 6;
constexpr std::size_t kSimulationsPerChunkCount = 2 + kGoldenSteps + kRebalancingRounds;

// check_nic_network, and finite bandwidths and envelope (the sizing divides by them).
void check_network(const NicNetwork& network) {
  check_nic_network(network);
  for (std::size_t u = 0; u < network.size(); ++u) {
    if (!std::isfinite(network.up_bandwidth[u]) || !std::isfinite(network.down_bandwidth[u])) {
      throw InputError("network", fmt::format("bandwidths of processor {} must be finite and > 0", u));
    }
  }
  if (!std::isfinite(network.envelope_bytes)) throw InputError("envelope_bytes", "must be finite and >= 0");
}

void check_sizes(std::size_t elements, double element_bytes) {
  if (elements == 0) throw InputError("elements", "a split all-reduce needs at least one element");
  if (!(element_bytes > 0) || !std::isfinite(element_bytes)) {
    throw InputError("element_bytes", fmt::format("must be positive and finite, got {}", element_bytes));
  }
}

// The fluid network with its messages in flight.
class FluidEngine {
 public:
  explicit FluidEngine(const NicNetwork& network) : network_(network), n_(network.size()) {
    capacity_.resize(2 * n_);
    weight_sum_.resize(2 * n_);
    level_.resize(2 * n_);
  }

  void add(std::size_t transfer, std::size_t from, std::size_t to, double bytes, double now) {
    Flow f;
    f.transfer = transfer;
    f.from = from;
    f.to = to;
    f.bytes = bytes;
    f.remaining = bytes;
    f.latency_end = now + network_.latency[from];
    const double l = network_.latency[from];
    f.weight = l > 0 ? 1 / l : 1;
    f.sequence = posted_++;
    waiting_.push_back(f);
    std::push_heap(waiting_.begin(), waiting_.end(), starts_later);
  }

  // Runs until nothing is left: poster.next_post(u) (the time of u's next
  // post, +inf if none yet), poster.post(u, now, engine), poster.arrived(
  // transfer, now).
  template <typename Poster>
  void run(Poster& poster) {
    double now = 0;
    bool dirty = true;
    for (;;) {
      for (std::size_t u = 0; u < n_; ++u) {
        while (poster.next_post(u) <= now) poster.post(u, now, *this);
      }
      // Flows whose latency has passed start flowing (in post order).
      while (!waiting_.empty() && waiting_.front().latency_end <= now) {
        std::pop_heap(waiting_.begin(), waiting_.end(), starts_later);
        active_.push_back(waiting_.back());
        waiting_.pop_back();
        dirty = true;
      }
      if (dirty) share();
      dirty = false;
      double next = waiting_.empty() ? kNicPlanInfinity : waiting_.front().latency_end;
      for (std::size_t u = 0; u < n_; ++u) next = std::min(next, poster.next_post(u));
      for (const auto& f : active_) next = std::min(next, f.rate > 0 ? now + f.remaining / f.rate : kNicPlanInfinity);
      if (!std::isfinite(next)) {
        if (!active_.empty() || !waiting_.empty()) {
          throw std::logic_error("split all-reduce simulation: flows without a rate");
        }
        return;
      }
      const double step = next - now;
      now = next;
      const double slack = 1e-12 * std::max(now, 1e-9);
      std::size_t kept = 0;
      for (std::size_t i = 0; i < active_.size(); ++i) {
        auto& f = active_[i];
        f.remaining -= f.rate * step;
        if (f.remaining <= 1e-9 * std::max(1.0, f.bytes) || f.remaining <= f.rate * slack) {
          arrived_.push_back(f.transfer);
          dirty = true;
          continue;
        }
        if (kept != i) active_[kept] = f;
        ++kept;
      }
      active_.resize(kept);
      for (auto transfer : arrived_) poster.arrived(transfer, now);
      arrived_.clear();
    }
  }

 private:
  struct Flow {
    std::size_t transfer = 0, from = 0, to = 0, sequence = 0;
    double bytes = 0, remaining = 0, latency_end = 0, weight = 1, rate = 0;
    bool frozen = false;
  };
  // Heap order of the flows still in their latency: the earliest start
  // first, then the earliest post.
  static bool starts_later(const Flow& a, const Flow& b) {
    return a.latency_end != b.latency_end ? a.latency_end > b.latency_end : a.sequence > b.sequence;
  }

  // Weighted max-min rates by progressive filling: each round the links of
  // the lowest level (capacity left / weights of their unfrozen flows;
  // ties within a relative 1e-12) saturate and their flows freeze at that
  // level. Each flow crosses two links (its sender's up link, its
  // receiver's down link): a round scans the links that still have
  // unfrozen flows and freezes only the saturated links' flows, O(n^2 + F)
  // per call for F flows. A flow's own bound (the smaller of its two
  // bandwidths) never binds before its links do: level <= capacity left /
  // weights on the link <= bandwidth / the flow's weight.
  void share() {
    const std::size_t links = 2 * n_;
    for (std::size_t u = 0; u < n_; ++u) {
      capacity_[u] = network_.up_bandwidth[u];
      capacity_[n_ + u] = network_.down_bandwidth[u];
    }
    std::fill(weight_sum_.begin(), weight_sum_.end(), 0.0);
    flows_on_link_.resize(links);
    for (auto& members : flows_on_link_) members.clear();
    unfrozen_on_link_.assign(links, 0);
    for (std::size_t i = 0; i < active_.size(); ++i) {
      auto& f = active_[i];
      f.frozen = false;
      for (auto link : {f.from, n_ + f.to}) {
        weight_sum_[link] += f.weight;
        flows_on_link_[link].push_back(i);
        ++unfrozen_on_link_[link];
      }
    }
    live_.clear();
    for (std::size_t l = 0; l < links; ++l) {
      if (unfrozen_on_link_[l] > 0) live_.push_back(l);
    }
    while (!live_.empty()) {
      double level = kNicPlanInfinity;
      for (auto l : live_) {
        level_[l] = std::max(capacity_[l], 0.0) / weight_sum_[l];
        level = std::min(level, level_[l]);
      }
      const double tie = level * (1 + 1e-12);
      saturated_.clear();
      for (auto l : live_) {
        if (level_[l] <= tie) saturated_.push_back(l);
      }
      for (auto l : saturated_) {
        for (auto i : flows_on_link_[l]) {
          auto& f = active_[i];
          if (f.frozen) continue;
          f.frozen = true;
          f.rate = level * f.weight;
          for (auto link : {f.from, n_ + f.to}) {
            capacity_[link] -= f.rate;
            weight_sum_[link] -= f.weight;
            --unfrozen_on_link_[link];
          }
        }
      }
      std::size_t kept = 0;
      for (auto l : live_) {
        if (unfrozen_on_link_[l] > 0) live_[kept++] = l;
      }
      live_.resize(kept);
    }
  }

  const NicNetwork& network_;
  std::size_t n_;
  std::vector<Flow> active_;   // flowing
  std::vector<Flow> waiting_;  // in their latency: a heap (starts_later)
  std::size_t posted_ = 0;
  std::vector<std::size_t> arrived_, saturated_, live_;
  std::vector<std::vector<std::size_t>> flows_on_link_;
  std::vector<std::size_t> unfrozen_on_link_;
  std::vector<double> capacity_, weight_sum_, level_;
};

// Per (piece, chunk): contributions still missing and when the last arrived.
struct ChunkReadiness {
  std::vector<std::size_t> missing;
  std::vector<double> ready;  // +inf until complete
};

std::size_t chunk_count(const SplitAllreducePlan& plan, std::size_t piece, std::size_t chunk) {
  return split_chunk_range(plan.pieces[piece].elements, plan.chunks, chunk).second;
}

double bytes_of(const SplitAllreducePlan& plan, const NicNetwork& network, std::size_t piece, std::size_t chunk) {
  return static_cast<double>(chunk_count(plan, piece, chunk)) * plan.element_bytes + network.envelope_bytes;
}

// Transfer i arrived at `now`: its end, the makespan (a result) or its
// chunk's readiness (a contribution).
void record_arrival(SplitAllreducePlan& plan, ChunkReadiness& readiness, std::size_t i, double now) {
  auto& t = plan.transfers[i];
  t.end = now;
  if (!t.contribution) {
    plan.makespan = std::max(plan.makespan, now);
    return;
  }
  const auto slot = t.piece * plan.chunks + t.chunk;
  if (--readiness.missing[slot] == 0) readiness.ready[slot] = now;
}

ChunkReadiness readiness_of(const SplitAllreducePlan& plan) {
  const std::size_t n = plan.members.size(), chunks = plan.chunks;
  ChunkReadiness r;
  r.missing.assign(plan.pieces.size() * chunks, 0);
  r.ready.assign(plan.pieces.size() * chunks, kNicPlanInfinity);
  for (std::size_t p = 0; p < plan.pieces.size(); ++p) {
    for (std::size_t c = 0; c < chunks; ++c) {
      if (chunk_count(plan, p, c) > 0) r.missing[p * chunks + c] = n - 1;
      if (n == 1) r.ready[p * chunks + c] = 0;
    }
  }
  return r;
}

// Replays the plan's order (simulate_split_allreduce).
class ReplayPoster {
 public:
  ReplayPoster(const NicNetwork& network, SplitAllreducePlan& plan)
      : network_(network), plan_(plan), readiness_(readiness_of(plan)), sends_(plan.members.size()),
        cursor_(plan.members.size(), 0), last_post_(plan.members.size(), 0.0) {
    for (std::size_t i = 0; i < plan.transfers.size(); ++i) sends_[plan.transfers[i].from].push_back(i);
  }
  double next_post(std::size_t u) const {
    if (cursor_[u] >= sends_[u].size()) return kNicPlanInfinity;
    const auto& t = plan_.transfers[sends_[u][cursor_[u]]];
    if (t.contribution) return std::max(last_post_[u], t.start);
    return std::max(last_post_[u], readiness_.ready[t.piece * plan_.chunks + t.chunk]);
  }
  void post(std::size_t u, double now, FluidEngine& engine) {
    const auto i = sends_[u][cursor_[u]++];
    auto& t = plan_.transfers[i];
    t.start = now;
    last_post_[u] = now;
    engine.add(i, t.from, t.to, bytes_of(plan_, network_, t.piece, t.chunk), now);
  }
  void arrived(std::size_t i, double now) { record_arrival(plan_, readiness_, i, now); }

 private:
  const NicNetwork& network_;
  SplitAllreducePlan& plan_;
  ChunkReadiness readiness_;
  std::vector<std::vector<std::size_t>> sends_;
  std::vector<std::size_t> cursor_;
  std::vector<double> last_post_;
};

// The greedy run that orders the posts (the header): a processor's next
// message is a result of its piece's next chunk once that chunk is ready
// (posted then, and the chunk's other results with it), else its next
// contribution, posted when its up link would be free of what it posted.
class GreedyPoster {
 public:
  GreedyPoster(const NicNetwork& network, SplitAllreducePlan& plan, double pace)
      : network_(network), plan_(plan), pace_(pace), readiness_(readiness_of(plan)), n_(plan.members.size()),
        piece_of_(n_, kNone), contributions_(n_), next_contribution_(n_, 0), result_chunk_(n_, 0),
        result_step_(n_, 1), last_post_(n_, 0.0), busy_until_(n_, 0.0) {
    const std::size_t chunks = plan.chunks;
    std::vector<std::size_t> aggregators;
    for (std::size_t p = 0; p < plan.pieces.size(); ++p) {
      piece_of_[plan.pieces[p].spreader] = p;
    }
    for (std::size_t u = 0; u < n_; ++u) {
      if (piece_of_[u] != kNone) aggregators.push_back(u);
    }

    for (std::size_t u = 0; u < n_; ++u) {
      // Aggregators in turn from the first one after u.
      std::size_t first = 0;
      while (first < aggregators.size() && aggregators[first] <= u) ++first;
      for (std::size_t c = 0; c < chunks; ++c) {
        for (std::size_t s = 0; s < aggregators.size(); ++s) {
          const auto a = aggregators[(first + s) % aggregators.size()];
          if (a == u || chunk_count(plan, piece_of_[a], c) == 0) continue;
          contributions_[u].push_back({piece_of_[a], c});
        }
      }
      skip_empty_chunks(u);
    }
    // Posting rates: pace x the up bandwidth, or (pace < 0) each
    // processor's bytes spread over the time the busiest up link needs for
    // its own, so that every processor goes through the chunks together.
    rate_.assign(n_, 0.0);
    std::vector<double> total(n_, 0.0);
    double longest = 0;
    for (std::size_t u = 0; u < n_; ++u) {
      for (const auto& [piece, chunk] : contributions_[u]) total[u] += bytes_of(plan, network, piece, chunk);
      if (piece_of_[u] != kNone) {
        for (std::size_t c = 0; c < chunks; ++c) total[u] += static_cast<double>(n_ - 1) * (chunk_count(plan, piece_of_[u], c) > 0 ? bytes_of(plan, network, piece_of_[u], c) : 0);
      }
      longest = std::max(longest, total[u] / network.up_bandwidth[u]);
    }
    for (std::size_t u = 0; u < n_; ++u) {
      rate_[u] = pace_ > 0 ? pace_ * network.up_bandwidth[u] : pace_ < 0 && total[u] > 0 ? total[u] / longest : 0;
    }
    plan.transfers.clear();
    plan.transfers.reserve(2 * n_ * (n_ > 0 ? n_ - 1 : 0) * chunks);
  }

  double next_post(std::size_t u) const {
    double next = kNicPlanInfinity;
    if (result_pending(u)) next = std::max(last_post_[u], readiness_.ready[slot_of_result(u)]);
    if (next_contribution_[u] < contributions_[u].size()) next = std::min(next, std::max(last_post_[u], busy_until_[u]));
    return next;
  }

  void post(std::size_t u, double now, FluidEngine& engine) {
    SplitAllreduceTransfer t;
    if (result_pending(u) && readiness_.ready[slot_of_result(u)] <= now) {
      t.contribution = false;
      t.piece = piece_of_[u];
      t.chunk = result_chunk_[u];
      t.from = u;
      t.to = (u + result_step_[u]) % n_;
      if (++result_step_[u] == n_) {
        result_step_[u] = 1;
        ++result_chunk_[u];
        skip_empty_chunks(u);
      }
    } else {
      const auto [piece, chunk] = contributions_[u][next_contribution_[u]++];
      t.contribution = true;
      t.piece = piece;
      t.chunk = chunk;
      t.from = u;
      t.to = plan_.pieces[piece].spreader;
    }
    t.start = now;
    const double bytes = bytes_of(plan_, network_, t.piece, t.chunk);
    last_post_[u] = now;
    if (rate_[u] > 0) busy_until_[u] = std::max(busy_until_[u], now) + bytes / rate_[u];
    engine.add(plan_.transfers.size(), t.from, t.to, bytes, now);
    plan_.transfers.push_back(t);
  }

  void arrived(std::size_t i, double now) { record_arrival(plan_, readiness_, i, now); }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  bool result_pending(std::size_t u) const { return piece_of_[u] != kNone && result_chunk_[u] < plan_.chunks; }
  std::size_t slot_of_result(std::size_t u) const { return piece_of_[u] * plan_.chunks + result_chunk_[u]; }
  void skip_empty_chunks(std::size_t u) {
    if (piece_of_[u] == kNone || n_ < 2) {
      result_chunk_[u] = plan_.chunks;
      return;
    }
    while (result_chunk_[u] < plan_.chunks && chunk_count(plan_, piece_of_[u], result_chunk_[u]) == 0) ++result_chunk_[u];
  }

  const NicNetwork& network_;
  SplitAllreducePlan& plan_;
  double pace_;  // contributions posted at pace_ x the up bandwidth; 0: all at once
  std::vector<double> rate_;  // bytes per second the posts follow (0: at once)
  ChunkReadiness readiness_;
  std::size_t n_;
  std::vector<std::size_t> piece_of_;
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> contributions_;
  std::vector<std::size_t> next_contribution_, result_chunk_, result_step_;
  std::vector<double> last_post_, busy_until_;
};

// Structure the replay relies on: pieces with distinct aggregators covering
// the elements once, and every contribution and result exactly once.
void check_structure(const SplitAllreducePlan& plan, std::size_t n) {
  auto fail = [](const std::string& what) { throw InputError("plan", what); };
  if (plan.members.size() != n) fail(fmt::format("{} members, the network has {} processors", plan.members.size(), n));
  if (plan.chunks == 0) fail("chunks must be >= 1");
  std::vector<char> aggregates(n, 0);
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  for (const auto& piece : plan.pieces) {
    if (piece.spreader >= n || aggregates[piece.spreader]++) fail("a piece's aggregator is out of range or repeated");
    if (piece.elements == 0) fail("an empty piece");
    ranges.emplace_back(piece.first, piece.elements);
  }
  std::sort(ranges.begin(), ranges.end());
  std::size_t covered = 0;
  for (const auto& [first, count] : ranges) {
    if (first != covered) fail("the pieces do not cover the elements once, in consecutive ranges");
    covered += count;
  }
  if (covered != plan.elements) fail("the pieces do not cover every element");
  const std::size_t chunks = plan.chunks;
  std::vector<char> seen(2 * plan.pieces.size() * chunks * n, 0);
  std::size_t expected = 0;
  for (std::size_t p = 0; p < plan.pieces.size(); ++p) {
    for (std::size_t c = 0; c < chunks; ++c) expected += chunk_count(plan, p, c) > 0 ? 2 * (n - 1) : 0;
  }
  for (const auto& t : plan.transfers) {
    if (t.piece >= plan.pieces.size() || t.chunk >= chunks || t.from >= n || t.to >= n || t.from == t.to ||
        chunk_count(plan, t.piece, t.chunk) == 0) {
      fail("a transfer out of range, to itself or of an empty chunk");
    }
    const auto aggregator = plan.pieces[t.piece].spreader;
    const auto other = t.contribution ? t.from : t.to;
    if ((t.contribution ? t.to : t.from) != aggregator) fail("a transfer that does not go to or from its aggregator");
    if (seen[((t.contribution ? 0 : 1) * plan.pieces.size() * chunks + t.piece * chunks + t.chunk) * n + other]++) {
      fail("a contribution or result twice");
    }
  }
  if (plan.transfers.size() != expected) fail("a contribution or result is missing");
}

// proportional_sizes, with everything on the first when no weight is positive.
std::vector<std::size_t> rounded_sizes(const std::vector<double>& weights, std::size_t total) {
  auto sizes = split_sizing::proportional_sizes(weights, total);
  if (!sizes.empty() && std::accumulate(sizes.begin(), sizes.end(), std::size_t{0}) == 0) sizes[0] = total;
  return sizes;
}

}  // namespace

SplitAllreduceLowerBounds split_allreduce_lower_bounds(const NicNetwork& network, std::size_t elements,
                                                       double element_bytes) {
  check_network(network);
  check_sizes(elements, element_bytes);
  const std::size_t n = network.size();
  SplitAllreduceLowerBounds bounds;
  if (n < 2) return bounds;
  const double data = static_cast<double>(elements) * element_bytes;
  // The smallest latency of the processors other than v (a message to v
  // starts flowing no sooner).
  std::vector<double> latency_to(n, kNicPlanInfinity);
  for (std::size_t v = 0; v < n; ++v) {
    for (std::size_t w = 0; w < n; ++w) {
      if (w != v) latency_to[v] = std::min(latency_to[v], network.latency[w]);
    }
  }
  for (std::size_t u = 0; u < n; ++u) {
    bounds.own_data = std::max(bounds.own_data, network.latency[u] + (data + network.envelope_bytes) / network.up_bandwidth[u]);
    bounds.own_data =
        std::max(bounds.own_data, latency_to[u] + (data + network.envelope_bytes) / network.down_bandwidth[u]);
  }
  // The least T with sum_u rate_u max(0, T - start_u) >= traffic: the
  // piecewise-linear sum, over the starts in increasing order.
  const double traffic = 2 * static_cast<double>(n - 1) * data;
  auto least_time = [&](const std::vector<double>& rate, const std::vector<double>& start) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return start[a] < start[b]; });
    double slope = 0, carried = 0, t = start[order[0]];
    for (std::size_t i = 0; i < n; ++i) {
      const double next = start[order[i]];
      if (slope > 0 && carried + slope * (next - t) >= traffic) break;
      carried += slope * (next - t);
      t = next;
      slope += rate[order[i]];
    }
    return t + (traffic - carried) / slope;
  };
  bounds.traffic = std::max(least_time(network.up_bandwidth, network.latency), least_time(network.down_bandwidth, latency_to));
  return bounds;
}

void simulate_split_allreduce(const NicNetwork& network, SplitAllreducePlan& plan) {
  check_network(network);
  check_structure(plan, network.size());
  plan.model = SplitAllreducePlan::Model::nic_fluid;
  plan.makespan = 0;
  ReplayPoster poster(network, plan);
  FluidEngine engine(network);
  engine.run(poster);
}

SplitAllreducePlan make_split_allreduce_nic(const NicNetwork& network, std::size_t elements, double element_bytes,
                                            const std::vector<std::size_t>& piece_elements, std::size_t chunks, double pace) {
  check_network(network);
  check_sizes(elements, element_bytes);
  const std::size_t n = network.size();
  if (piece_elements.size() != n) throw InputError("piece_elements", "one size per processor");
  if (std::accumulate(piece_elements.begin(), piece_elements.end(), std::size_t{0}) != elements) {
    throw InputError("piece_elements", "the sizes must add up to the elements");
  }
  if (chunks == 0) throw InputError("chunks", "must be >= 1");
  if (!std::isfinite(pace)) throw InputError("pace", "must be finite");
  SplitAllreducePlan plan;
  for (std::size_t u = 0; u < n; ++u) plan.members.push_back(static_cast<ProcessorIndex>(u));
  plan.elements = elements;
  plan.element_bytes = element_bytes;
  plan.envelope_bytes = network.envelope_bytes;
  plan.chunks = chunks;
  plan.model = SplitAllreducePlan::Model::nic_fluid;
  plan.pace = pace;
  std::size_t first = 0;
  for (std::size_t u = 0; u < n; ++u) {
    if (piece_elements[u] == 0) continue;
    plan.pieces.push_back({u, first, piece_elements[u]});
    first += piece_elements[u];
  }
  GreedyPoster poster(network, plan, pace);
  FluidEngine engine(network);
  engine.run(poster);
  const auto bounds = split_allreduce_lower_bounds(network, elements, element_bytes);
  plan.own_data_bound = bounds.own_data;
  plan.traffic_bound = bounds.traffic;
  plan.algorithm = fmt::format(
      "split all-reduce (NIC fluid model): {} piece{}, {} chunk{} each, {}; lower bounds {:.4g} s (own data), {:.4g} "
      "s (traffic)",
      plan.pieces.size(), plan.pieces.size() == 1 ? "" : "s", plan.chunks, plan.chunks == 1 ? "" : "s",
      pace > 0   ? fmt::format("contributions paced at {:g}x the up link", pace)
      : pace < 0 ? "contributions paced to go through the chunks together"
                 : "contributions posted at once",
      bounds.own_data, bounds.traffic);
  return plan;
}

SplitAllreducePlan plan_split_allreduce_nic(const NicNetwork& network, std::size_t elements, double element_bytes,
                                            const SplitAllreduceNicOptions& options) {
  check_network(network);
  check_sizes(elements, element_bytes);
  const std::size_t n = network.size();
  if (n == 1) return make_split_allreduce_nic(network, elements, element_bytes, {elements}, 1, 1);
  const double data = static_cast<double>(elements) * element_bytes;
  // Piece weights that balance the up links for a time T: processor u
  // sends data + (n - 2) m_u bytes, so m_u ~ max(0, U_u (T - L_u) - data).
  auto weights_for = [&](double time) {
    std::vector<double> w(n, 0.0);
    for (std::size_t u = 0; u < n; ++u) {
      w[u] = n > 2 ? std::max(0.0, network.up_bandwidth[u] * (time - network.latency[u]) - data)
                   : network.up_bandwidth[u];
    }
    if (std::accumulate(w.begin(), w.end(), 0.0) <= 0) {
      const auto fastest = std::max_element(network.up_bandwidth.begin(), network.up_bandwidth.end());
      w[static_cast<std::size_t>(fastest - network.up_bandwidth.begin())] = 1;
    }
    return w;
  };
  SplitAllreducePlan best;
  best.makespan = kNicPlanInfinity;
  const double base = std::max(split_allreduce_lower_bounds(network, elements, element_bytes).traffic, 1e-12);
  for (double pace : options.paces) {
    std::size_t work = 0;  // messages simulated so far at this pace
    double best_at_pace = kNicPlanInfinity;
    const std::size_t max_work = options.max_work / std::max<std::size_t>(1, options.paces.size());
    for (std::size_t chunks : options.chunk_counts) {
      if (chunks == 0) continue;
      const std::size_t messages = 2 * chunks * n * (n - 1);
      if (chunks > 1 && (chunks * n > elements || messages > options.max_messages ||
                         work + kSimulationsPerChunkCount * messages > max_work)) {
        continue;
      }
      const double best_before = best_at_pace;
      auto evaluate = [&](const std::vector<std::size_t>& sizes) {
        auto plan = make_split_allreduce_nic(network, elements, element_bytes, sizes, chunks, pace);
        work += plan.transfers.size();
        best_at_pace = std::min(best_at_pace, plan.makespan);
        if (plan.makespan < best.makespan * (1 - 1e-12)) {
          best = std::move(plan);
          return best.makespan;
        }
        return plan.makespan;
      };
      // Golden-section search on T / traffic bound in [1, 4] (4: close to
      // pieces proportional to the up bandwidths).
      const double golden = (std::sqrt(5.0) - 1) / 2;
      double lo = 1, hi = 4;
      double x1 = hi - golden * (hi - lo), x2 = lo + golden * (hi - lo);
      double f1 = evaluate(rounded_sizes(weights_for(x1 * base), elements));
      double f2 = evaluate(rounded_sizes(weights_for(x2 * base), elements));
      for (int i = 0; i < kGoldenSteps; ++i) {
        if (f1 <= f2) {
          hi = x2, x2 = x1, f2 = f1;
          x1 = hi - golden * (hi - lo);
          f1 = evaluate(rounded_sizes(weights_for(x1 * base), elements));
        } else {
          lo = x1, x1 = x2, f1 = f2;
          x2 = lo + golden * (hi - lo);
          f2 = evaluate(rounded_sizes(weights_for(x2 * base), elements));
        }
      }
      const double x = f1 <= f2 ? x1 : x2;
      std::vector<std::size_t> sizes = rounded_sizes(weights_for(x * base), elements);
      // Rounds that scale each piece by sqrt(mean finish / its finish).
      for (int round = 0; round < kRebalancingRounds; ++round) {
        auto plan = make_split_allreduce_nic(network, elements, element_bytes, sizes, chunks, pace);
        work += plan.transfers.size();
        best_at_pace = std::min(best_at_pace, plan.makespan);
        if (plan.makespan < best.makespan * (1 - 1e-12)) best = plan;
        std::vector<double> finish_of(n, 0.0);
        for (const auto& t : plan.transfers) {
          if (!t.contribution) finish_of[t.from] = std::max(finish_of[t.from], t.end);
        }
        double mean = 0;
        std::size_t used = 0;
        for (std::size_t u = 0; u < n; ++u) {
          if (sizes[u] > 0) mean += finish_of[u], ++used;
        }
        mean /= static_cast<double>(used);
        std::vector<double> w(n, 0.0);
        for (std::size_t u = 0; u < n; ++u) {
          if (sizes[u] > 0 && finish_of[u] > 0) w[u] = static_cast<double>(sizes[u]) * std::sqrt(mean / finish_of[u]);
        }
        auto next = rounded_sizes(w, elements);
        if (next == sizes) break;
        sizes = std::move(next);
      }
      // More chunks stop helping once they no longer beat fewer at this
      // pace (by 1 %); another pace's best does not stop this one's search.
      if (chunks > 1 && !(best_at_pace < best_before * 0.99)) break;
    }
  }
  return best;
}

}  // namespace hetcoll
