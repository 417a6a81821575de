// Split reduce (split_reduce.h states the contract): why, the plan in detail,
// and the sizing.
//
// Why split: every reduce in which each element is combined along a tree
// makes every non-root processor send exactly one copy of each of its elements (raw or combined), so on a cluster whose slow
// processors have slow links those links are the floor; whole-vector plans
// (every other reduce of hetcoll) also queue the whole vector at every
// relay. Splitting lets the pieces travel side by side.
//
// The plan: pieces P_0 .. P_{k-1} (consecutive element ranges, in that
// order), P_j reduced at aggregator a_j: every non-root processor other than
// a_j sends its P_j to a_j ("contribution"); a_j combines them with its own
// P_j and, unless it is the root, sends the result to the root
// ("forward"), as soon as the last contribution has arrived. The root
// combines the forwarded pieces (and the contributions to its own pieces)
// into its own vector. Aggregators: every processor but the root, fastest
// first (ties by index), then the root, at most `max_pieces` of them
// (the fastest); a processor sends its contributions in the pieces' order
// rotated to start after its own piece (processors without a piece: rotated
// by their index), so that at any moment the processors send to different
// aggregators and the aggregators' down links share the load; each
// contribution is posted when the previous one would have left its up link
// alone ("paced": post_k = post_{k-1} + (bytes_{k-1} + envelope) /
// up_bandwidth), so that the latencies overlap and the link carries one
// message at a time, the way the eager model (model/eager_model.h) paces
// a broadcast.
//
// Sizing: for k = 1, 2, 4, ... and k = min(n, count, max_pieces), the
// equal split over the first k aggregators is simulated and the best k kept
// (k = 1: one piece at the root, the flat tree, everyone's whole vector
// paced to the root); then coordinate descent on the pieces' element
// counts: move `step` elements from one piece to another when the
// simulated makespan drops, for every ordered pair; halve `step` when no
// move helps, from count / (4k) down to one element, or until the work
// budget is spent. Guarantee: none (a heuristic): a local optimum of the
// simulated makespan for this aggregator order and rotation at best,
// never predicted slower than the flat tree (tested). Lower bound
// (split_reduce_lower_bound, valid in this model for every reduce in which
// each element is combined along a tree): max over non-root u of L_u +
// (count * element_bytes + envelope_bytes) / U_u — u must send a copy of
// each of its elements over its own up link, whose flows start L_u after
// their post and carry at most U_u together (tested on random networks).

#include "hetcoll/makespan/split/split_reduce.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

namespace {

// One message of the replay.
struct Message {
  ProcessorIndex source = 0, destination = 0;
  double bytes = 0;      // with the envelope
  double post = 0;       // when it is posted
  double remaining = 0;  // bytes left
  double latency_end = 0;
  double rate = 0;
  std::size_t piece = 0;
  bool forward = false;
  enum class State { waiting, latency, flowing, done } state = State::waiting;
};

}  // namespace

void simulate_split_reduce(const NicNetwork& network, SplitReducePlan& plan) {
  check_nic_network(network);
  const auto n = network.size();
  const auto k = plan.pieces.size();
  plan.piece_ready.assign(k, 0.0);
  plan.piece_at_root.assign(k, 0.0);
  plan.predicted_seconds = 0;
  const auto root = static_cast<std::size_t>(plan.root);
  std::vector<Message> messages;
  std::vector<std::size_t> missing(k, 0);  // contributions piece j still waits for
  for (std::size_t u = 0; u < n && u < plan.contributions.size(); ++u) {
    for (std::size_t i = 0; i < plan.contributions[u].size(); ++i) {
      const auto j = plan.contributions[u][i];
      Message m;
      m.source = static_cast<ProcessorIndex>(u);
      m.destination = plan.pieces[j].aggregator;
      m.bytes = static_cast<double>(plan.pieces[j].count) * plan.element_bytes + network.envelope_bytes;
      m.post = plan.post_times[u][i];
      m.piece = j;
      messages.push_back(m);
      ++missing[j];
    }
  }
  auto add_forward = [&](std::size_t j, double now) {
    plan.piece_ready[j] = now;
    const auto aggregator = plan.pieces[j].aggregator;
    if (static_cast<std::size_t>(aggregator) == root) {
      plan.piece_at_root[j] = now;
      return;
    }
    Message m;
    m.source = aggregator;
    m.destination = plan.root;
    m.bytes = static_cast<double>(plan.pieces[j].count) * plan.element_bytes + network.envelope_bytes;
    m.post = now;
    m.piece = j;
    m.forward = true;
    messages.push_back(m);
  };
  for (std::size_t j = 0; j < k; ++j) {
    if (missing[j] == 0) add_forward(j, 0.0);
  }
  std::vector<double> capacity(2 * n);  // [0, n): up links, [n, 2n): down links
  std::vector<double> weight_sum(2 * n);
  std::vector<std::size_t> flowing;
  std::vector<char> frozen;
  double now = 0;
  std::size_t done = 0;
  const double eps = 1e-12;
  while (done < messages.size()) {
    // Posts and latency ends due now.
    for (auto& m : messages) {
      if (m.state == Message::State::waiting && m.post <= now + eps) {
        m.state = Message::State::latency;
        m.remaining = m.bytes;
        m.latency_end = now + network.latency[static_cast<std::size_t>(m.source)];
      }
      if (m.state == Message::State::latency && m.latency_end <= now + eps) m.state = Message::State::flowing;
    }
    // Weighted max-min rates by progressive filling (SimGrid's lmm: weight
    // 1 / penalty, the penalty being the route's latency, 1 without one).
    flowing.clear();
    for (std::size_t i = 0; i < messages.size(); ++i) {
      if (messages[i].state == Message::State::flowing) flowing.push_back(i);
    }
    for (std::size_t u = 0; u < n; ++u) {
      capacity[u] = network.up_bandwidth[u];
      capacity[n + u] = network.down_bandwidth[u];
    }
    auto weight = [&](const Message& m) {
      const double l = network.latency[static_cast<std::size_t>(m.source)];
      return l > 0 ? 1.0 / l : 1.0;
    };
    frozen.assign(flowing.size(), 0);
    std::size_t left = flowing.size();
    while (left > 0) {
      std::fill(weight_sum.begin(), weight_sum.end(), 0.0);
      for (std::size_t f = 0; f < flowing.size(); ++f) {
        if (frozen[f]) continue;
        const auto& m = messages[flowing[f]];
        weight_sum[static_cast<std::size_t>(m.source)] += weight(m);
        weight_sum[n + static_cast<std::size_t>(m.destination)] += weight(m);
      }
      double level = std::numeric_limits<double>::infinity();
      std::size_t bottleneck = 2 * n;  // a link, or 2n: a flow's own bound
      for (std::size_t l = 0; l < 2 * n; ++l) {
        if (weight_sum[l] > 0 && std::max(capacity[l], 0.0) / weight_sum[l] < level) {
          level = std::max(capacity[l], 0.0) / weight_sum[l];
          bottleneck = l;
        }
      }
      for (std::size_t f = 0; f < flowing.size(); ++f) {
        if (frozen[f]) continue;
        const auto& m = messages[flowing[f]];
        const double bound = std::min(network.up_bandwidth[static_cast<std::size_t>(m.source)],
                                      network.down_bandwidth[static_cast<std::size_t>(m.destination)]);
        if (bound / weight(m) < level) {
          level = bound / weight(m);
          bottleneck = 2 * n + 1 + f;
        }
      }
      for (std::size_t f = 0; f < flowing.size(); ++f) {
        if (frozen[f]) continue;
        auto& m = messages[flowing[f]];
        const auto up = static_cast<std::size_t>(m.source), down = n + static_cast<std::size_t>(m.destination);
        if (bottleneck == up || bottleneck == down || bottleneck == 2 * n + 1 + f) {
          m.rate = level * weight(m);
          capacity[up] -= m.rate;
          capacity[down] -= m.rate;
          frozen[f] = 1;
          --left;
        }
      }
    }
    // The next event.
    double next = std::numeric_limits<double>::infinity();
    for (const auto& m : messages) {
      if (m.state == Message::State::waiting) next = std::min(next, m.post);
      else if (m.state == Message::State::latency) next = std::min(next, m.latency_end);
      else if (m.state == Message::State::flowing && m.rate > 0) next = std::min(next, now + m.remaining / m.rate);
    }
    if (!std::isfinite(next)) break;  // cannot happen: every flow has a positive rate
    const double step = next - now;
    now = std::max(now, next);
    for (auto idx : flowing) {
      auto& m = messages[idx];
      m.remaining -= m.rate * step;
      if (m.remaining <= 1e-9 * std::max(1.0, m.bytes)) {
        m.state = Message::State::done;
        ++done;
        if (m.forward) {
          plan.piece_at_root[m.piece] = now;
        } else if (--missing[m.piece] == 0) {
          add_forward(m.piece, now);  // may grow `messages`: indices stay valid
        }
      }
    }
  }
  plan.predicted_seconds = 0;
  for (double t : plan.piece_at_root) plan.predicted_seconds = std::max(plan.predicted_seconds, t);
}

SplitReducePlan make_split_reduce(const NicNetwork& network, ProcessorIndex root, double element_bytes,
                                  const std::vector<std::size_t>& counts,
                                  const std::vector<ProcessorIndex>& aggregators) {
  check_nic_network(network);
  const auto n = network.size();
  if (root < 0 || static_cast<std::size_t>(root) >= n) throw InputError("root", "out of range");
  if (counts.size() != aggregators.size()) throw InputError("counts", "one count per aggregator");
  SplitReducePlan plan;
  plan.root = root;
  plan.element_bytes = element_bytes;
  std::size_t first = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    if (aggregators[i] < 0 || static_cast<std::size_t>(aggregators[i]) >= n) {
      throw InputError("aggregators", "processor out of range");
    }
    plan.pieces.push_back({first, counts[i], aggregators[i]});
    first += counts[i];
  }
  plan.count = first;
  const auto k = plan.pieces.size();
  plan.contributions.assign(n, {});
  plan.post_times.assign(n, {});
  for (std::size_t u = 0; u < n; ++u) {
    if (static_cast<ProcessorIndex>(u) == root || k == 0) continue;
    std::size_t start = u % k;
    for (std::size_t j = 0; j < k; ++j) {
      if (static_cast<std::size_t>(plan.pieces[j].aggregator) == u) start = (j + 1) % k;
    }
    double post = 0;
    for (std::size_t step = 0; step < k; ++step) {
      const auto j = (start + step) % k;
      if (static_cast<std::size_t>(plan.pieces[j].aggregator) == u) continue;
      plan.contributions[u].push_back(j);
      plan.post_times[u].push_back(post);
      post += (static_cast<double>(plan.pieces[j].count) * element_bytes + network.envelope_bytes) /
              network.up_bandwidth[u];
    }
  }
  simulate_split_reduce(network, plan);
  return plan;
}

double split_reduce_lower_bound(const NicNetwork& network, ProcessorIndex root, std::size_t count,
                                double element_bytes) {
  double bound = 0;
  for (std::size_t u = 0; u < network.size(); ++u) {
    if (static_cast<ProcessorIndex>(u) == root) continue;
    bound = std::max(bound, network.latency[u] + (static_cast<double>(count) * element_bytes + network.envelope_bytes) /
                                                     network.up_bandwidth[u]);
  }
  return bound;
}

SplitReducePlan plan_split_reduce(const NicNetwork& network, ProcessorIndex root, std::size_t count,
                                  double element_bytes, const SplitReduceOptions& options) {
  check_nic_network(network);
  const auto n = network.size();
  if (root < 0 || static_cast<std::size_t>(root) >= n) {
    throw InputError("root", fmt::format("must be a processor 0..{}, got {}", n - 1, root));
  }
  if (count == 0) throw InputError("count", "must be >= 1");
  if (!(element_bytes > 0)) throw InputError("element_bytes", "must be > 0");
  if (options.max_pieces == 0) throw InputError("max_pieces", "must be >= 1");
  // Aggregators: the non-root processors fastest first, then the root.
  std::vector<ProcessorIndex> others;
  for (std::size_t u = 0; u < n; ++u) {
    if (static_cast<ProcessorIndex>(u) != root) others.push_back(static_cast<ProcessorIndex>(u));
  }
  std::stable_sort(others.begin(), others.end(), [&](ProcessorIndex a, ProcessorIndex b) {
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    if (network.up_bandwidth[ua] != network.up_bandwidth[ub]) return network.up_bandwidth[ua] > network.up_bandwidth[ub];
    return network.latency[ua] < network.latency[ub];
  });
  // The number of pieces: the equal split's best among k = 1, 2, 4, ...,
  // and n (at most max_pieces and count), the first k aggregators.
  const std::size_t most = std::min({options.max_pieces, n, count});
  auto aggregators_for = [&](std::size_t k) {
    std::vector<ProcessorIndex> chosen(others.begin(), others.begin() + static_cast<std::ptrdiff_t>(k - 1));
    chosen.push_back(root);
    return chosen;
  };
  auto equal_counts = [&](std::size_t k) {
    std::vector<std::size_t> c(k, count / k);
    for (std::size_t i = 0; i < count % k; ++i) ++c[i];
    return c;
  };
  std::size_t work = 0;  // sum over simulations of their messages squared
  auto evaluate = [&](const std::vector<std::size_t>& c, const std::vector<ProcessorIndex>& a) {
    auto plan = make_split_reduce(network, root, element_bytes, c, a);
    std::size_t messages = plan.pieces.size() * n;
    work += messages * messages;
    return plan.predicted_seconds;
  };
  std::vector<std::size_t> sizes_tried;
  for (std::size_t k = 1; k < most; k *= 2) sizes_tried.push_back(k);
  sizes_tried.push_back(most);
  std::size_t k = 1;
  double best = std::numeric_limits<double>::infinity();
  for (auto candidate : sizes_tried) {
    const double time = evaluate(equal_counts(candidate), aggregators_for(candidate));
    if (time < best * (1 - 1e-12)) {
      best = time;
      k = candidate;
    }
  }
  const auto aggregators = aggregators_for(k);
  std::vector<std::size_t> counts = equal_counts(k);
  // Coordinate descent within the work budget.
  for (std::size_t step = std::max<std::size_t>(1, count / (4 * k));; step /= 2) {
    bool improved = true;
    while (improved && work < options.max_work) {
      improved = false;
      for (std::size_t from = 0; from < k && work < options.max_work; ++from) {
        for (std::size_t to = 0; to < k && work < options.max_work; ++to) {
          if (from == to || counts[from] < step) continue;
          auto trial = counts;
          trial[from] -= step;
          trial[to] += step;
          const double time = evaluate(trial, aggregators);
          if (time < best * (1 - 1e-12)) {
            best = time;
            counts = std::move(trial);
            improved = true;
          }
        }
      }
    }
    if (step == 1 || work >= options.max_work) break;
  }
  auto plan = make_split_reduce(network, root, element_bytes, counts, aggregators);
  plan.algorithm = fmt::format("split reduce, {} pieces", plan.pieces.size());
  return plan;
}

}  // namespace hetcoll
